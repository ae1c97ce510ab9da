import Foundation
import WDietCore

/// One change of a push (`POST /api/v1/sync/push`), as the client's outbox holds it. The member that carries the
/// values is the entity's own (`meal`, `weight`, `profile`, `event` or `data`), so each is checked by the same
/// rules as the normal API's. See docs/sync.md for the JSON and the rules.
public struct SyncChange: Hashable, Codable, Sendable {
    public enum Operation: String, Codable, Sendable {
        /// Create or update (a create of an id the server already has is an update).
        case upsert
        /// Delete: the row becomes a tombstone; deleting an id the server does not have is ignored.
        case delete
    }

    /// Unique per change and user, made by the client when it queues the change; a replay with the same key
    /// changes nothing and answers the first result.
    public var idempotencyKey: String
    public var entity: SyncEntity
    public var op: Operation
    /// The row's client-generated id: required for meals, weights, events and rows; absent for the profile.
    public var id: UUID?
    /// The collection of a generic row (`entity == .row`), e.g. `"journal"`.
    public var collection: String?
    /// The server version the edit started from; absent for a create.
    public var baseVersion: Int64?
    public var meal: Meal?
    public var weight: WeightEntry?
    public var profile: Profile?
    /// The profile the edit started from (the copy of `baseVersion`), if the client kept it: a 409 hands it back
    /// as `base`, so the "Keep Local / Use Server" dialog has all three copies.
    public var baseProfile: Profile?
    public var event: AnalyticsEvent?
    /// A generic row's values: a JSON object.
    public var data: SyncJSON?

    public init(
        idempotencyKey: String, entity: SyncEntity, op: Operation, id: UUID? = nil, collection: String? = nil,
        baseVersion: Int64? = nil, meal: Meal? = nil, weight: WeightEntry? = nil, profile: Profile? = nil,
        baseProfile: Profile? = nil, event: AnalyticsEvent? = nil, data: SyncJSON? = nil
    ) {
        self.idempotencyKey = idempotencyKey
        self.entity = entity
        self.op = op
        self.id = id
        self.collection = collection
        self.baseVersion = baseVersion
        self.meal = meal
        self.weight = weight
        self.profile = profile
        self.baseProfile = baseProfile
        self.event = event
        self.data = data
    }

    /// An upsert of a meal, keyed by the meal's id.
    public static func upsert(_ meal: Meal, baseVersion: Int64? = nil, key: String) -> SyncChange {
        SyncChange(idempotencyKey: key, entity: .meal, op: .upsert, id: meal.id, baseVersion: baseVersion, meal: meal)
    }

    /// An upsert of a weight entry, keyed by the entry's id.
    public static func upsert(_ weight: WeightEntry, baseVersion: Int64? = nil, key: String) -> SyncChange {
        SyncChange(idempotencyKey: key, entity: .weight, op: .upsert, id: weight.id, baseVersion: baseVersion, weight: weight)
    }

    /// A delete of a meal, weight or generic row.
    public static func delete(
        _ entity: SyncEntity, id: UUID, collection: String? = nil, baseVersion: Int64? = nil, key: String
    ) -> SyncChange {
        SyncChange(idempotencyKey: key, entity: entity, op: .delete, id: id, collection: collection, baseVersion: baseVersion)
    }
}
