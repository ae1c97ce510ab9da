import Foundation

/// What became of one pushed change. A replay of its idempotency key answers this same result again (as it was
/// first answered, so a `server` copy is the copy of that moment; the next pull brings the current one).
public struct SyncChangeResult: Hashable, Codable, Sendable {
    public enum Status: String, Codable, Sendable {
        /// Written (or already identical on the server); `version` is the row's version now.
        case applied
        /// The server's copy won ("cloud wins"): the row was changed or deleted since `baseVersion`. The edit was
        /// not applied; `server` is the server's copy (a tombstone when it was deleted). Tell the user.
        case lost
        /// A delete of an id the server does not have for this user, or of a row already deleted (`server` is
        /// then the tombstone). Nothing changed and nothing was lost.
        case ignored
    }

    public var idempotencyKey: String
    public var entity: SyncEntity
    public var id: UUID?
    public var collection: String?
    public var status: Status
    /// The row's version after the change (`applied`), or the server's (`lost`, `ignored` with a tombstone);
    /// absent for events, which are never pulled.
    public var version: Int64?
    public var server: SyncItem?
    /// For people: why an edit was lost or ignored.
    public var message: String?

    public init(
        idempotencyKey: String, entity: SyncEntity, id: UUID?, collection: String? = nil, status: Status,
        version: Int64? = nil, server: SyncItem? = nil, message: String? = nil
    ) {
        self.idempotencyKey = idempotencyKey
        self.entity = entity
        self.id = id
        self.collection = collection
        self.status = status
        self.version = version
        self.server = server
        self.message = message
    }
}
