import Foundation
import GRDB
import WDietCore
import WDietStore

extension ClientStore {
    /// Which changes a push carries: the profile travels alone (a stale profile refuses its whole push with 409,
    /// and meals must not wait for the user's decision), everything else in batches.
    public enum BatchKind: Sendable {
        case profile
        case data
    }

    /// The next push: for each row only its oldest waiting change (a change sent earlier goes again, with its key,
    /// before the edit queued after it), at most `limit`, parked changes left out. Nil when nothing waits.
    public func nextBatch(_ kind: BatchKind, limit: Int = SyncLimits.maxChangesPerPush) throws -> OutboxBatch? {
        try database.queue.write { db in
            let filter = kind == .profile ? "entity = 'profile'" : "entity <> 'profile'"
            let rows = try Row.fetchAll(db, sql: """
                SELECT * FROM outbox WHERE seq IN (
                    SELECT MIN(seq) FROM outbox WHERE \(filter) GROUP BY entity, collection, id)
                AND parkedMessage IS NULL ORDER BY seq LIMIT ?
                """, arguments: [kind == .profile ? 1 : limit])
            var entries: [OutboxBatch.Entry] = []
            for row in rows {
                let entity: String = row["entity"]
                let key = RecordKey(entity: SyncEntity(rawValue: entity) ?? .row, collection: row["collection"], id: row["id"])
                let seq: Int64 = row["seq"]
                let revision: Int64 = row["revision"]
                if let sent: String = row["sentChange"] {
                    let change = try Self.decode(SyncChange.self, sent)
                    entries.append(.init(seq: seq, key: key, revision: revision, change: change, payload: try Self.payload(of: change)))
                    continue
                }
                guard let change = try self.compose(db, key: key, op: row["op"], idempotencyKey: row["idempotencyKey"]) else {
                    try db.execute(sql: "DELETE FROM outbox WHERE seq = ?", arguments: [seq])
                    continue
                }
                try db.execute(sql: "UPDATE outbox SET sentChange = ? WHERE seq = ?", arguments: [try Self.text(change), seq])
                entries.append(.init(seq: seq, key: key, revision: revision, change: change, payload: try Self.payload(of: change)))
            }
            return entries.isEmpty ? nil : OutboxBatch(entries: entries)
        }
    }

    /// A change from the record as it is now, from the server version the record was last in step with.
    private func compose(_ db: Database, key: RecordKey, op: String, idempotencyKey: String) throws -> SyncChange? {
        guard let record = try Row.fetchOne(
            db, sql: "SELECT * FROM records WHERE entity = ? AND collection = ? AND id = ?",
            arguments: [key.entity.rawValue, key.collection, key.id])
        else { return nil }
        let base: Int64? = record["serverVersion"]
        let payload: String = record["payload"]
        var change = SyncChange(
            idempotencyKey: idempotencyKey, entity: key.entity, op: SyncChange.Operation(rawValue: op) ?? .upsert,
            id: key.entity == .profile ? nil : key.uuid, collection: key.entity == .row ? key.collection : nil, baseVersion: base)
        guard change.op == .upsert else { return change }
        switch key.entity {
        case .meal: change.meal = try Self.decode(Meal.self, payload)
        case .weight: change.weight = try Self.decode(WeightEntry.self, payload)
        case .profile:
            change.profile = try Self.decode(Profile.self, payload)
            if let server: String = record["serverPayload"] { change.baseProfile = try Self.decode(Profile.self, server) }
        case .row: change.data = try SyncJSON.parse(payload)
        case .event: change.event = try Self.decode(AnalyticsEvent.self, payload)
        case .tip: return nil
        }
        return change
    }

    /// The values of a change as a record stores them.
    static func payload(of change: SyncChange) throws -> String? {
        if let meal = change.meal { return try text(meal) }
        if let weight = change.weight { return try text(weight) }
        if let profile = change.profile { return try text(profile) }
        if let data = change.data { return try data.canonicalText() }
        if let event = change.event { return try text(event) }
        return nil
    }

    /// Stores the server's answer to a push. `applied`: the record is in step with the server at `version` — and
    /// synced only if nobody edited it while the push was away (then its newer change, already queued, goes next
    /// from this version). `lost`: the server's copy replaces the record, every waiting change of that row goes,
    /// and a notice keeps what the user had. `ignored`: nothing was there to delete.
    public func apply(_ results: [SyncChangeResult], of batch: OutboxBatch) throws {
        guard results.count == batch.entries.count,
              zip(results, batch.entries).allSatisfy({ result, entry in
                  // A key answered for another row would mean two changes shared a key: never store such an answer.
                  result.idempotencyKey == entry.change.idempotencyKey && result.entity == entry.change.entity
                      && (entry.change.entity == .profile || result.id == entry.change.id)
              })
        else { throw SyncTransportError.malformedResponse("The push's results do not match its changes") }
        try database.queue.write { db in
            for (result, entry) in zip(results, batch.entries) {
                let key = entry.key
                let rowArguments: StatementArguments = [key.entity.rawValue, key.collection, key.id]
                switch result.status {
                case .applied where key.entity == .event:
                    // Recorded on the server, which never hands events back: nothing left to keep here.
                    try db.execute(sql: "DELETE FROM outbox WHERE seq = ?", arguments: [entry.seq])
                    try db.execute(sql: "DELETE FROM records WHERE entity = 'event' AND id = ?", arguments: [key.id])
                case .applied:
                    try db.execute(sql: "DELETE FROM outbox WHERE seq = ?", arguments: [entry.seq])
                    if let version = result.version {
                        try db.execute(
                            sql: """
                                UPDATE records SET serverVersion = ?, serverPayload = COALESCE(?, serverPayload)
                                WHERE entity = ? AND collection = ? AND id = ?
                                """,
                            arguments: [version, entry.payload] + rowArguments)
                    }
                case .lost:
                    let local = try String.fetchOne(
                        db, sql: "SELECT payload FROM records WHERE entity = ? AND collection = ? AND id = ?", arguments: rowArguments)
                    try db.execute(sql: "DELETE FROM outbox WHERE entity = ? AND collection = ? AND id = ?", arguments: rowArguments)
                    if let server = result.server {
                        try self.write(db, item: server, key: key)
                    }
                    try self.notice(
                        db, kind: .lost, key: key,
                        message: result.message ?? SyncMessages.lostEdit(key.entity, deleted: result.server?.deletedAt != nil),
                        local: local, server: result.server)
                case .ignored:
                    try db.execute(sql: "DELETE FROM outbox WHERE seq = ?", arguments: [entry.seq])
                    // Already deleted there: the server's tombstone (with its last values) becomes this record, as a
                    // pull would make it; a pull may never bring it again (the cursor can be past it).
                    if let server = result.server {
                        try self.offer(db, item: server, key: key)
                    } else {
                        // The server never had the row: a local tombstone with nothing waiting has nothing to stand for.
                        try db.execute(
                            sql: """
                                DELETE FROM records WHERE entity = ? AND collection = ? AND id = ? AND deleted = 1
                                AND serverVersion IS NULL AND NOT EXISTS (
                                    SELECT 1 FROM outbox o WHERE o.entity = records.entity AND o.collection = records.collection AND o.id = records.id)
                                """,
                            arguments: rowArguments)
                    }
                }
                try self.applyDeferred(db, key: key)
            }
        }
    }

    /// A change the server refused (a 4xx): it stays in the outbox, parked, with a notice, until the user edits the
    /// row again (which unparks it) or discards it. It gets a new idempotency key: the refusal stored nothing, and
    /// the next values must not be answered by an old key's result.
    public func park(_ entryIndex: Int, of batch: OutboxBatch, message: String) throws {
        let entry = batch.entries[entryIndex]
        try database.queue.write { db in
            try db.execute(
                sql: "UPDATE outbox SET parkedMessage = ?, sentChange = NULL, idempotencyKey = ? WHERE seq = ?",
                arguments: [message, self.makeKey(), entry.seq])
            try self.notice(db, kind: .rejected, key: entry.key, message: message, local: entry.payload, server: nil)
        }
    }

    /// The profile's push was refused with 409: keep the user's edit, parked, with the three copies until the user
    /// chooses.
    public func recordProfileConflict(_ conflict: SyncProfileConflict, of batch: OutboxBatch) throws {
        guard let entry = batch.entries.first(where: { $0.key == .profile }) else { return }
        try database.queue.write { db in
            try db.execute(
                sql: "UPDATE outbox SET parkedMessage = ?, sentChange = NULL, idempotencyKey = ? WHERE seq = ?",
                arguments: ["Your profile was changed on another device", self.makeKey(), entry.seq])
            try Self.set(db, "profileConflict", try Self.text(conflict))
        }
    }

    public func profileConflict() throws -> ClientProfileConflict? {
        try database.queue.read { db in
            guard let text = try Self.settings(db)["profileConflict"] else { return nil }
            let conflict = try Self.decode(SyncProfileConflict.self, text)
            let local = try Self.profile(db) ?? conflict.local
            return ClientProfileConflict(base: conflict.base, local: local, server: conflict.server)
        }
    }

    /// "Keep Local" pushes the local profile again from the server's version; "Use Server" drops the local edit and
    /// takes the server's profile (or a newer one pulled meanwhile).
    public func resolveProfileConflict(_ resolution: ProfileResolution) throws {
        try database.queue.write { db in
            guard let text = try Self.settings(db)["profileConflict"] else { throw ClientError.noProfileConflict }
            let conflict = try Self.decode(SyncProfileConflict.self, text)
            let key = RecordKey.profile
            switch resolution {
            case .keepLocal:
                if let server = conflict.server, let profile = server.profile {
                    try db.execute(
                        sql: "UPDATE records SET serverVersion = ?, serverPayload = ? WHERE entity = 'profile' AND id = 'profile'",
                        arguments: [server.version, try Self.text(profile)])
                }
                try db.execute(sql: "UPDATE outbox SET parkedMessage = NULL WHERE entity = 'profile'")
                // The record may since have been replaced by a pulled copy; the deferred copy is what `server` was.
                try db.execute(sql: "DELETE FROM deferred WHERE entity = 'profile'")
            case .useServer:
                try db.execute(sql: "DELETE FROM outbox WHERE entity = 'profile'")
                if let server = conflict.server { try self.write(db, item: server, key: key) }
                try self.applyDeferred(db, key: key)
            }
            try Self.set(db, "profileConflict", nil)
        }
    }

    /// Gives up a parked change: the record goes back to the server's copy it was last in step with (or away, if
    /// the server never had it).
    public func discardParked(_ key: RecordKey) throws {
        try database.queue.write { db in
            let arguments: StatementArguments = [key.entity.rawValue, key.collection, key.id]
            try db.execute(sql: "DELETE FROM outbox WHERE entity = ? AND collection = ? AND id = ? AND parkedMessage IS NOT NULL",
                           arguments: arguments)
            let remaining = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox WHERE entity = ? AND collection = ? AND id = ?",
                                             arguments: arguments) ?? 0
            guard remaining == 0 else { return }
            if let server = try Row.fetchOne(
                db, sql: "SELECT serverPayload, serverVersion FROM records WHERE entity = ? AND collection = ? AND id = ?",
                arguments: arguments), let payload: String = server["serverPayload"]
            {
                try db.execute(
                    sql: "UPDATE records SET payload = ?, deleted = 0, revision = revision + 1 WHERE entity = ? AND collection = ? AND id = ?",
                    arguments: [payload] + arguments)
            } else {
                try db.execute(sql: "DELETE FROM records WHERE entity = ? AND collection = ? AND id = ? AND serverVersion IS NULL",
                               arguments: arguments)
            }
            try self.applyDeferred(db, key: key)
        }
    }

    // MARK: Status and notices

    /// What `wdiet client status` and a settings screen show.
    public struct Status: Sendable {
        /// Changes waiting for the server (parked ones included).
        public var pending: Int
        /// Changes the server refused, waiting for the user.
        public var parked: [(key: RecordKey, message: String)]
        public var lastSyncAt: Date?
        public var cursor: Int64
        public var notices: [ClientNotice]
        public var profileConflict: ClientProfileConflict?
    }

    public func status() throws -> Status {
        let conflict = try profileConflict()
        return try database.queue.read { db in
            let pending = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox") ?? 0
            let parked = try Row.fetchAll(db, sql: "SELECT entity, collection, id, parkedMessage FROM outbox WHERE parkedMessage IS NOT NULL ORDER BY seq")
                .map { row -> (key: RecordKey, message: String) in
                    let entity: String = row["entity"]
                    return (RecordKey(entity: SyncEntity(rawValue: entity) ?? .row, collection: row["collection"], id: row["id"]),
                            row["parkedMessage"])
                }
            let settings = try Self.settings(db)
            return Status(
                pending: pending, parked: parked, lastSyncAt: settings["lastSyncAt"].flatMap(SyncCoding.instant(from:)),
                cursor: settings["cursor"].flatMap { Int64($0) } ?? 0, notices: try Self.notices(db), profileConflict: conflict)
        }
    }

    /// Notices not yet dismissed, oldest first.
    public func notices() throws -> [ClientNotice] {
        try database.queue.read { db in try Self.notices(db) }
    }

    public func dismissNotice(_ seq: Int64) throws {
        try database.queue.write { db in try db.execute(sql: "UPDATE notices SET dismissed = 1 WHERE seq = ?", arguments: [seq]) }
    }

    static func notices(_ db: Database) throws -> [ClientNotice] {
        try Row.fetchAll(db, sql: "SELECT * FROM notices WHERE dismissed = 0 ORDER BY seq").map { row in
            let entity: String = row["entity"]
            let kind: String = row["kind"]
            let server: String? = row["server"]
            return ClientNotice(
                seq: row["seq"], kind: ClientNotice.Kind(rawValue: kind) ?? .rejected,
                key: RecordKey(entity: SyncEntity(rawValue: entity) ?? .row, collection: row["collection"], id: row["id"]),
                message: row["message"], localJSON: row["local"], server: try server.map { try decode(SyncItem.self, $0) },
                createdAt: SyncCoding.instant(from: row["createdAt"]) ?? Date(timeIntervalSince1970: 0))
        }
    }

    func notice(_ db: Database, kind: ClientNotice.Kind, key: RecordKey, message: String, local: String?, server: SyncItem?) throws {
        try db.execute(
            sql: "INSERT INTO notices (kind, entity, collection, id, message, local, server, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            arguments: [kind.rawValue, key.entity.rawValue, key.collection, key.id, message, local,
                        try server.map { try Self.text($0) }, SyncCoding.instantText(now())])
    }
}
