import Foundation
import WDietCore

/// A weight entry with the bookkeeping the store adds; see `StoredMeal` for why the local date is kept.
public struct StoredWeight: Hashable, Sendable, Identifiable {
    public var entry: WeightEntry
    public var userId: UUID
    public var localDate: LocalDate
    public var version: Int64
    public var createdAt: Date
    public var updatedAt: Date
    public var deletedAt: Date?

    public var id: UUID { entry.id }

    public init(
        entry: WeightEntry, userId: UUID, localDate: LocalDate, version: Int64,
        createdAt: Date, updatedAt: Date, deletedAt: Date? = nil
    ) {
        self.entry = entry
        self.userId = userId
        self.localDate = localDate
        self.version = version
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.deletedAt = deletedAt
    }
}
