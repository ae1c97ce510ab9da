import Foundation
import GRDB
import WDietStore

extension ClientStore {
    /// Stores one pulled page and then its cursor, in one transaction (so a crash keeps both or neither). A row
    /// with changes waiting in the outbox is not overwritten: the push's answer decides it, and this copy is kept
    /// in `deferred` and applied after that answer if it is newer.
    public func apply(_ page: SyncPullResponse) throws {
        try database.queue.write { db in
            for item in page.items {
                switch item.entity {
                case .tip:
                    guard let tip = item.tip else { continue }
                    try db.execute(
                        sql: "INSERT INTO tips (tip, version) VALUES (?, ?) ON CONFLICT (tip) DO UPDATE SET version = excluded.version",
                        arguments: [tip, item.version])
                case .event:
                    continue
                case .meal, .weight, .row, .profile:
                    guard let key = Self.key(of: item) else { continue }
                    try self.offer(db, item: item, key: key)
                }
            }
            try Self.set(db, "cursor", String(page.nextCursor))
        }
    }

    /// A server copy of a row: written into the record, or kept in `deferred` while the row has changes waiting.
    func offer(_ db: Database, item: SyncItem, key: RecordKey) throws {
        let arguments: StatementArguments = [key.entity.rawValue, key.collection, key.id]
        let pending = try Int.fetchOne(
            db, sql: "SELECT COUNT(*) FROM outbox WHERE entity = ? AND collection = ? AND id = ?", arguments: arguments) ?? 0
        guard pending > 0 else { return try write(db, item: item, key: key) }
        try db.execute(
            sql: """
                INSERT INTO deferred (entity, collection, id, version, item) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (entity, collection, id) DO UPDATE SET version = excluded.version, item = excluded.item
                WHERE excluded.version > deferred.version
                """,
            arguments: arguments + [item.version, try Self.text(item)])
    }

    /// Pull again from the start (the server's data was replaced: its cursor is behind ours).
    public func resetCursor() throws {
        try database.queue.write { db in try Self.set(db, "cursor", nil) }
    }

    public func dismissedTips() throws -> [String] {
        try database.queue.read { db in try String.fetchAll(db, sql: "SELECT tip FROM tips ORDER BY tip") }
    }

    static func key(of item: SyncItem) -> RecordKey? {
        if item.entity == .profile { return .profile }
        guard let id = item.id else { return nil }
        return RecordKey(entity: item.entity, collection: item.entity == .row ? item.collection : nil, uuid: id)
    }

    /// Makes the record the server's copy, unless the record already holds a newer server version (an older copy,
    /// such as the one a replayed push answers, never goes back over a newer one).
    func write(_ db: Database, item: SyncItem, key: RecordKey) throws {
        let arguments: StatementArguments = [key.entity.rawValue, key.collection, key.id]
        let current = try Row.fetchOne(db, sql: "SELECT serverVersion, revision FROM records WHERE entity = ? AND collection = ? AND id = ?",
                                       arguments: arguments)
        if let known: Int64 = current?["serverVersion"], known > item.version { return }
        guard let payload = try Self.payload(of: item) else { return }
        let revision: Int64 = (current?["revision"] ?? 0) + 1
        try db.execute(
            sql: """
                INSERT INTO records (entity, collection, id, payload, localDate, deleted, serverVersion, serverPayload, revision, updatedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (entity, collection, id) DO UPDATE SET
                    payload = excluded.payload, localDate = excluded.localDate, deleted = excluded.deleted,
                    serverVersion = excluded.serverVersion, serverPayload = excluded.serverPayload,
                    revision = excluded.revision, updatedAt = excluded.updatedAt
                """,
            arguments: arguments + [
                payload, item.localDate?.iso, item.deletedAt == nil ? 0 : 1, item.version, payload, revision,
                SyncCoding.instantText(item.updatedAt),
            ])
    }

    /// After the outbox has no more changes for a row, a pulled copy that waited for it is applied if newer.
    func applyDeferred(_ db: Database, key: RecordKey) throws {
        let arguments: StatementArguments = [key.entity.rawValue, key.collection, key.id]
        let pending = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox WHERE entity = ? AND collection = ? AND id = ?",
                                       arguments: arguments) ?? 0
        guard pending == 0,
              let text = try String.fetchOne(db, sql: "SELECT item FROM deferred WHERE entity = ? AND collection = ? AND id = ?",
                                             arguments: arguments)
        else { return }
        try write(db, item: try Self.decode(SyncItem.self, text), key: key)
        try db.execute(sql: "DELETE FROM deferred WHERE entity = ? AND collection = ? AND id = ?", arguments: arguments)
    }

    static func payload(of item: SyncItem) throws -> String? {
        if let meal = item.meal { return try text(meal) }
        if let weight = item.weight { return try text(weight) }
        if let profile = item.profile { return try text(profile) }
        if let data = item.data { return try data.canonicalText() }
        return nil
    }
}
