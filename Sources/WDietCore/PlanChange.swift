import Foundation

/// "Changes apply tomorrow" (PRODUCT.md, Coach — rules; 001 §7 "Timing Communication"): a saved profile change
/// that alters the targets reaches them at the user's next local midnight, so a day's plan never moves under the
/// user while they eat to it. A newly logged weight is not a profile change: it moves the targets at once
/// (`Targets.compute`'s `latestWeightKg`). Fields that only schedule or display the plan apply at once too
/// (see `Profile.TargetInputs`), and a first profile applies at once: there is no plan yet to keep.
///
/// Only the latest change is kept: a day's targets need the inputs in force when that day began, and every day
/// after the change uses the profile as saved.
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

    /// The profile that the targets of `date` come from: `current` (the profile as saved) from the effective date
    /// on; before it, `current` with the target inputs it replaced. Dates before the change get the previous
    /// inputs too: only one change is kept, and the dashboard asks about today.
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
        let date = effectiveDate
        let strings = Strings.current
        let day = strings.date(date, .weekdayDayMonth)
        return today.adding(days: 1) == date
            ? strings("profile.planUpdatesTomorrow", ["date": day])
            : strings("profile.planUpdatesOn", ["date": day])
    }
}
