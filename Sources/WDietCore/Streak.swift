/// The logging streak (PRODUCT.md decision): a day counts when the user logs a meal, a weight or a journal entry.
/// The streak is the run of counted days ending today, or ending yesterday while today has no log yet.
public struct Streak: Hashable, Codable, Sendable {
    public static let milestones = [7, 14, 28]

    public var days: Int
    /// Today already counts: the badge is in colour, not grey.
    public var isActiveToday: Bool

    public init(days: Int, isActiveToday: Bool) {
        self.days = days
        self.isActiveToday = isActiveToday
    }

    /// Computes the streak from the local dates that have at least one log.
    public init<S: Collection>(loggedDays: S, today: LocalDate) where S.Element == LocalDate {
        let set = loggedDays as? Set<LocalDate> ?? Set(loggedDays)
        let activeToday = set.contains(today)
        var day = activeToday ? today : today.adding(days: -1)
        var count = 0
        while set.contains(day) {
            count += 1
            day = day.adding(days: -1)
        }
        self.init(days: count, isActiveToday: activeToday)
    }

    /// Computes the streak from the latest run of logged days, newest first and consecutive, ending at the latest
    /// logged day up to `today` (what `LoggedDayStore.latestRun` reads): the streak is that run when it ends today
    /// or yesterday, and nothing otherwise.
    public init(latestRun: [LocalDate], today: LocalDate) {
        guard let latest = latestRun.first, latest == today || latest == today.adding(days: -1) else {
            self.init(days: 0, isActiveToday: false)
            return
        }
        self.init(days: latestRun.count, isActiveToday: latest == today)
    }

    /// The milestone reached exactly at this length (7, 14 or 28 days), if any.
    public var milestoneReached: Int? { Self.milestones.contains(days) ? days : nil }

    /// "5 day streak"
    public var label: String { Strings.current("coach.streak", count: days) }
}
