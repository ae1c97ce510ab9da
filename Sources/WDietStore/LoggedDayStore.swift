import Foundation
import WDietCore

/// Which days have any log, for the streak (`Streak(loggedDays:today:)`) and calendars.
public protocol LoggedDayStore: Sendable {
    /// The local dates in `range` on which the user logged a meal or a weight (deleted logs do not count).
    func loggedDays(userId: UUID, in range: ClosedRange<LocalDate>) async throws -> Set<LocalDate>

    /// The run of consecutive logged days that ends on the latest logged day on or before `date`, newest first;
    /// empty when nothing was logged. Enough for `Streak(loggedDays:today:)`, however long the streak.
    func latestRun(userId: UUID, through date: LocalDate) async throws -> [LocalDate]
}
