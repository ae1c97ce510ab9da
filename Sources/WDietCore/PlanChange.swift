import Foundation

/// "Changes apply tomorrow" (PRODUCT.md, Coach — rules and "current weight"; 001 §7 "Timing Communication"): a
/// saved profile change that alters the targets reaches them at the user's next local midnight, so a day's plan
/// never moves under the user while they eat to it. A newly logged weight obeys the same rule: a day's targets use
/// the latest weight logged *before* the day began (`Targets.latestWeight(before:in:)`), so a weight logged today
/// moves them from tomorrow. Fields that only schedule or display the plan apply at once (see
/// `Profile.TargetInputs`), and a first profile applies at once: there is no plan yet to keep.
///
/// One change is one local day's edits: the inputs that day began with (`previous`) and the day. Every change is
/// kept, oldest first, in a `PlanHistory`, so the targets of any past day come from the inputs in force when it began.
public struct PlanChange: Hashable, Codable, Sendable {
    /// The target inputs in force when `changedOn` began; that day's targets keep using them.
    public var previous: Profile.TargetInputs
    /// The user's local day of the save, in the time zone of the profile as saved.
    public var changedOn: LocalDate

    public init(previous: Profile.TargetInputs, changedOn: LocalDate) {
        self.previous = previous
        self.changedOn = changedOn
    }

    /// The first day of the new targets: the day after the change.
    public var effectiveDate: LocalDate { changedOn.adding(days: 1) }

    /// The instant the new targets begin: local midnight of `effectiveDate` in the user's time zone.
    public func effectiveInstant(in timeZone: TimeZone) -> Date { effectiveDate.startInstant(in: timeZone) }

    /// True while the targets of `date` still come from the previous inputs.
    public func isPending(on date: LocalDate) -> Bool { date < effectiveDate }

    /// The profile that the targets of `date` come from, when this is the only change: `current` (the profile as
    /// saved) from the effective date on; before it, `current` with the target inputs it replaced. With several
    /// changes ask the `PlanHistory`.
    public func profile(forTargetsOn date: LocalDate, current: Profile) -> Profile {
        guard isPending(on: date) else { return current }
        var profile = current
        profile.targetInputs = previous
        return profile
    }

    /// What waits after saving `profile` over `saved` at `instant`, given the change that waited before (nil when
    /// nothing waits: a first profile, or a save that leaves the day's target inputs as they began).
    ///
    /// The day is the user's local day in the time zone of the profile being saved. Several edits in one day keep
    /// the inputs the day began with, so the day's targets never move; an edit that restores them cancels the
    /// change. An identical save (a retried upload) keeps what waited, changing nothing.
    public static func afterSaving(_ profile: Profile, over saved: Profile?, pending: PlanChange?, at instant: Date) -> PlanChange? {
        guard let saved else { return nil }
        if profile == saved { return pending }
        let today = LocalDate(instant, in: profile.timeZone)
        let startOfDay = pending?.profile(forTargetsOn: today, current: saved).targetInputs ?? saved.targetInputs
        return startOfDay == profile.targetInputs ? nil : PlanChange(previous: startOfDay, changedOn: today)
    }

    /// What the profile page says after a save while the change waits (001 §7 "always include timing"):
    /// "Your plan will be updated tomorrow at midnight (Mon 23 Nov)"; nil once the new targets apply.
    public func notice(today: LocalDate) -> String? {
        guard isPending(on: today) else { return nil }
        return Self.notice(effectiveDate: effectiveDate, today: today)
    }

    /// The same for any change that reaches the targets on `effectiveDate` (a weight logged today: tomorrow).
    public static func notice(effectiveDate date: LocalDate, today: LocalDate) -> String {
        let strings = Strings.current
        let day = strings.date(date, .weekdayDayMonth)
        return today.adding(days: 1) == date
            ? strings("profile.planUpdatesTomorrow", ["date": day])
            : strings("profile.planUpdatesOn", ["date": day])
    }
}

/// Every change of a profile's target inputs, oldest first, at most one per local day (`changedOn` strictly
/// increasing): what says which inputs were in force when any day began, a year back or more. The profile as saved
/// is in force from the latest change's `effectiveDate` on; the days up to and including a change's `changedOn`
/// (back to the change before it) used that change's `previous` inputs. Days before the first change, and every day
/// when there is none, use the first inputs there are (the first profile applied at once).
///
/// The server derives the history on every save of the profile (`afterSaving`, with the store's clock), on the API's
/// path and the sync push's alike; clients read it, never write it.
public struct PlanHistory: Hashable, Codable, Sendable {
    public var changes: [PlanChange]

    public init(_ changes: [PlanChange] = []) {
        self.changes = changes.sorted { $0.changedOn < $1.changedOn }
    }

    /// The stores keep the latest change apart (the one that may still wait) from the earlier ones.
    public init(earlier: [PlanChange], latest: PlanChange?) {
        self.init(earlier + (latest.map { [$0] } ?? []))
    }

    /// The latest change: the one that may still wait for midnight.
    public var latest: PlanChange? { changes.last }
    /// Every change before the latest, oldest first.
    public var earlier: [PlanChange] { Array(changes.dropLast()) }
    public var isEmpty: Bool { changes.isEmpty }

    /// The target inputs in force when `date` began, given the inputs as saved (`current`).
    public func targetInputs(on date: LocalDate, current: Profile.TargetInputs) -> Profile.TargetInputs {
        // The first change whose day is `date` or later: its `previous` were in force on `date`.
        var low = 0, high = changes.count
        while low < high {
            let middle = (low + high) / 2
            if changes[middle].changedOn < date { low = middle + 1 } else { high = middle }
        }
        return low < changes.count ? changes[low].previous : current
    }

    /// The profile that the targets of `date` come from: `current` with the target inputs in force when `date` began.
    public func profile(forTargetsOn date: LocalDate, current: Profile) -> Profile {
        var profile = current
        profile.targetInputs = targetInputs(on: date, current: current.targetInputs)
        return profile
    }

    /// The latest change while it still waits on `date` ("Your plan will be updated tomorrow").
    public func pendingChange(on date: LocalDate) -> PlanChange? {
        latest.flatMap { $0.isPending(on: date) ? $0 : nil }
    }

    /// The history after saving `profile` over `saved` at `instant` (nil `saved`: a first profile, no history).
    ///
    /// The day is the user's local day in the time zone of the profile being saved. Several edits in one day keep
    /// the inputs the day began with, so the day's targets never move; an edit that restores them removes the day's
    /// change. An identical save (a retried upload) changes nothing. Earlier days' changes stay as they were.
    public static func afterSaving(_ profile: Profile, over saved: Profile?, history: PlanHistory, at instant: Date) -> PlanHistory {
        guard let saved else { return PlanHistory() }
        if profile == saved { return history }
        let today = LocalDate(instant, in: profile.timeZone)
        let startOfDay = history.targetInputs(on: today, current: saved.targetInputs)
        // A change dated today or later (a save from a zone whose date is behind) is today's edit.
        var changes = history.changes.filter { $0.changedOn < today }
        if startOfDay != profile.targetInputs { changes.append(PlanChange(previous: startOfDay, changedOn: today)) }
        return PlanHistory(changes)
    }
}
