import Foundation

/// The server side of offline-first sync (docs/sync.md): every read and write is the one user's.
public protocol SyncStore: Sendable {
    /// Applies the changes in order in one transaction and answers one result per change. A change whose
    /// idempotency key this user already pushed is not applied again: its first result is answered. Throws
    /// `SyncRejection` (nothing applied) for a batch too large, an invalid change, another user's id, a meal before
    /// any profile, or a stale profile base; `StoreError.notFound` for an unknown user.
    func push(_ changes: [SyncChange], userId: UUID) async throws -> [SyncChangeResult]

    /// The user's meals, weights, profile, dismissed tips and generic rows changed after `cursor` (a version),
    /// tombstones included, in version order, at most `limit` of them. A cursor above the user's latest version is
    /// `SyncRejection.cursorAhead`. Never skips a row whose transaction committed after a larger version was read:
    /// each backend hands out one user's versions in commit order.
    func pull(userId: UUID, after cursor: Int64, limit: Int) async throws -> SyncPullResponse

    /// The user's generic rows of one collection (favourites, saved meals), tombstones included when asked, oldest
    /// first (by creation, then id): what the typed APIs over the generic rows read (docs/sync.md).
    func rows(userId: UUID, collection: String, includingDeleted: Bool) async throws -> [SyncItem]

    /// One generic row of the user, tombstone or not; nil when the user has none with this collection and id.
    func row(userId: UUID, collection: String, id: UUID) async throws -> SyncItem?

    /// `rows` with each row's data as the stored JSON text (a tombstone's too), for a typed read that decodes the
    /// text straight into the row's type (`ChallengeStore`), without `SyncJSON` in between. Same rows, same order.
    func rowTexts(userId: UUID, collection: String, includingDeleted: Bool) async throws -> [SyncRowText]

    /// How many rows of these collections the user has, tombstones included, and the highest version among them.
    /// Every write of such a row takes a new, larger version and a row is only ever removed with its whole account
    /// or an undone import, so an unchanged stamp means no row of them was written since: a kept read of them is
    /// still right (`ChallengeService.snapshot`).
    func rowsStamp(userId: UUID, collections: [String]) async throws -> SyncRowsStamp
}

/// `SyncStore.rowsStamp`: a user's rows of some collections, counted, and their highest version (0 for none).
public struct SyncRowsStamp: Hashable, Sendable {
    public var count: Int
    public var highestVersion: Int64

    public init(count: Int, highestVersion: Int64) {
        self.count = count
        self.highestVersion = highestVersion
    }
}

/// A generic row as a backend keeps it: the data as its stored JSON text (what `SyncJSON.canonicalText` wrote).
public struct SyncRowText: Hashable, Sendable {
    public var id: UUID
    public var version: Int64
    public var deletedAt: Date?
    public var data: String

    public init(id: UUID, version: Int64, deletedAt: Date?, data: String) {
        self.id = id
        self.version = version
        self.deletedAt = deletedAt
        self.data = data
    }

    /// The data decoded into a row's type, in the sync coding (as `SyncRules.decodeRow` reads a `SyncJSON`).
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try SyncCoding.decoder.decode(T.self, from: Data(data.utf8))
    }
}
