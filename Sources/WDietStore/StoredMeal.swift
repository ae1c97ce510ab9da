import Foundation
import WDietCore

/// A meal with the bookkeeping the store adds: the local day it was logged on (in the user's time zone
/// at logging time, so that later time zone changes do not move old meals between days) and the sync fields.
public struct StoredMeal: Hashable, Sendable, Identifiable {
    public var meal: Meal
    public var userId: UUID
    public var localDate: LocalDate
    public var version: Int64
    public var createdAt: Date
    public var updatedAt: Date
    /// Set when the meal was deleted; day reads never return tombstones.
    public var deletedAt: Date?

    public var id: UUID { meal.id }

    public init(
        meal: Meal, userId: UUID, localDate: LocalDate, version: Int64,
        createdAt: Date, updatedAt: Date, deletedAt: Date? = nil
    ) {
        self.meal = meal
        self.userId = userId
        self.localDate = localDate
        self.version = version
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.deletedAt = deletedAt
    }
}
