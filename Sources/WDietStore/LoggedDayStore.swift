import Foundation
import WDietCore

/// Which days have any log, for the streak (`Streak(loggedDays:today:)`) and calendars.
public protocol LoggedDayStore: Sendable {
    /// The local dates in `range` on which the user logged a meal or a weight (deleted logs do not count).
    /// Journal entries count for the streak too (PRODUCT.md); they join this union when the journal is stored.
    func loggedDays(userId: UUID, in range: ClosedRange<LocalDate>) async throws -> Set<LocalDate>
}
