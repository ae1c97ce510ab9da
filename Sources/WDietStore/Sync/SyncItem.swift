import Foundation
import WDietCore

/// One row as the server holds it, in a pull (and as the `server` copy of a lost edit). A tombstone has
/// `deletedAt` and keeps its last values. Exactly one of `meal`, `weight`, `profile`, `tip` or `data` is set, by
/// `entity`.
public struct SyncItem: Hashable, Codable, Sendable {
    public var entity: SyncEntity
    /// The row's id (the profile row's own id for the profile); absent for a tip.
    public var id: UUID?
    public var collection: String?
    /// The tip's id (`"eating-window"`) for `entity == .tip`.
    public var tip: String?
    public var version: Int64
    public var updatedAt: Date
    public var deletedAt: Date?
    /// The local day a meal or weight was logged on, in the user's time zone at logging time (the server's rule).
    public var localDate: LocalDate?
    public var meal: Meal?
    public var weight: WeightEntry?
    public var profile: Profile?
    /// A profile change still waiting for the user's next midnight ("changes apply tomorrow").
    public var planChange: PlanChange?
    /// The profile's changes before `planChange`, oldest first (absent when there are none): with it, which target
    /// inputs were in force when any past day began. Derived by the server on every save; a push never carries it.
    public var earlierPlanChanges: [PlanChange]?
    public var data: SyncJSON?

    public init(
        entity: SyncEntity, id: UUID?, collection: String? = nil, tip: String? = nil, version: Int64, updatedAt: Date,
        deletedAt: Date? = nil, localDate: LocalDate? = nil, meal: Meal? = nil, weight: WeightEntry? = nil,
        profile: Profile? = nil, planChange: PlanChange? = nil, earlierPlanChanges: [PlanChange]? = nil, data: SyncJSON? = nil
    ) {
        self.entity = entity
        self.id = id
        self.collection = collection
        self.tip = tip
        self.version = version
        self.updatedAt = updatedAt
        self.deletedAt = deletedAt
        self.localDate = localDate
        self.meal = meal
        self.weight = weight
        self.profile = profile
        self.planChange = planChange
        self.earlierPlanChanges = earlierPlanChanges.flatMap { $0.isEmpty ? nil : $0 }
        self.data = data
    }

    public init(_ stored: StoredMeal) {
        self.init(
            entity: .meal, id: stored.id, version: stored.version, updatedAt: stored.updatedAt, deletedAt: stored.deletedAt,
            localDate: stored.localDate, meal: stored.meal)
    }

    public init(_ stored: StoredWeight) {
        self.init(
            entity: .weight, id: stored.id, version: stored.version, updatedAt: stored.updatedAt, deletedAt: stored.deletedAt,
            localDate: stored.localDate, weight: stored.entry)
    }
}
