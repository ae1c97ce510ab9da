import Foundation
import GRDB
import WDietCore
import WDietStore

/// `SyncStore` on the SQLite gatekeeper. A push is one write (one savepoint of the group commit), so it is all or
/// nothing; versions come from the database-wide counter inside the single writer, so they grow in commit order
/// and a pull, one read transaction, sees a prefix of them.
public struct SQLiteSyncStore: SyncStore {
    let database: AppDatabase
    let now: @Sendable () -> Date

    /// `now` stamps rows and results, and ages results out; tests pass a fixed clock.
    public init(database: AppDatabase, now: @escaping @Sendable () -> Date = Date.init) {
        self.database = database
        self.now = now
    }

    public func push(_ changes: [SyncChange], userId: UUID) async throws -> [SyncChangeResult] {
        try SyncRules.validate(changes, now: now())
        let instant = now()
        let now = AppDatabase.instantText(instant)
        let cutoff = AppDatabase.instantText(instant.addingTimeInterval(-SyncLimits.resultRetention))
        let newProfileId = AppDatabase.idText(UUID())
        return try await database.storeWrite { db in
            var push = Push(db: db, userId: userId, user: AppDatabase.idText(userId), now: now, instant: instant, newProfileId: newProfileId)
            return try push.apply(changes, purgingResultsBefore: cutoff)
        }
    }

    public func pull(userId: UUID, after cursor: Int64, limit: Int) async throws -> SyncPullResponse {
        let user = AppDatabase.idText(userId)
        return try await database.storeRead { db in
            // One read transaction: one snapshot of every table.
            if cursor > 0 {
                let latest = try Int64.fetchOne(db, sql: """
                    SELECT MAX(v) FROM (
                        SELECT version AS v FROM users WHERE id = ?1
                        UNION ALL SELECT MAX(version) FROM meals WHERE userId = ?1
                        UNION ALL SELECT MAX(version) FROM weights WHERE userId = ?1
                        UNION ALL SELECT MAX(version) FROM profiles WHERE userId = ?1
                        UNION ALL SELECT MAX(version) FROM dismissedTips WHERE userId = ?1
                        UNION ALL SELECT MAX(version) FROM analytics_events WHERE userId = ?1
                        UNION ALL SELECT MAX(version) FROM syncRows WHERE userId = ?1)
                    """, arguments: [user]) ?? 0
                guard cursor <= latest else { throw SyncRejection.cursorAhead(cursor: cursor, latest: latest) }
            }
            // Each table's next `limit + 1` changes by its (userId, version) index, merged: the page is the first
            // `limit` of them, and one more says whether there is more.
            let page = limit + 1
            let arguments: StatementArguments = [user, cursor, page]
            var items: [SyncItem] = []
            items += try MealRecord.fetchAll(
                db, sql: "SELECT * FROM meals WHERE userId = ? AND version > ? ORDER BY version LIMIT ?", arguments: arguments
            ).map { SyncItem(try $0.stored()) }
            items += try WeightRecord.fetchAll(
                db, sql: "SELECT * FROM weights WHERE userId = ? AND version > ? ORDER BY version LIMIT ?", arguments: arguments
            ).map { SyncItem(try $0.stored()) }
            items += try ProfileRecord.fetchAll(
                db, sql: "SELECT * FROM profiles WHERE userId = ? AND version > ? ORDER BY version LIMIT ?", arguments: arguments
            ).map { try Self.item($0) }
            items += try Row.fetchAll(
                db, sql: "SELECT tipId, dismissedAt, version FROM dismissedTips WHERE userId = ? AND version > ? ORDER BY version LIMIT ?",
                arguments: arguments
            ).map { row in
                SyncItem(entity: .tip, id: nil, tip: row["tipId"], version: row["version"],
                         updatedAt: try AppDatabase.instant(fromStoredText: row["dismissedAt"]))
            }
            items += try Row.fetchAll(
                db, sql: "SELECT * FROM syncRows WHERE userId = ? AND version > ? ORDER BY version LIMIT ?", arguments: arguments
            ).map { try Self.rowItem($0) }
            items.sort { $0.version < $1.version }
            let hasMore = items.count > limit
            if hasMore { items.removeLast(items.count - limit) }
            return SyncPullResponse(items: items, nextCursor: items.last?.version ?? cursor, hasMore: hasMore)
        }
    }

    public func rows(userId: UUID, collection: String, includingDeleted: Bool) async throws -> [SyncItem] {
        try await database.storeRead { db in
            try Row.fetchAll(db, sql: """
                SELECT * FROM syncRows WHERE userId = ? AND collection = ? \(includingDeleted ? "" : "AND deletedAt IS NULL")
                ORDER BY createdAt, id
                """, arguments: [AppDatabase.idText(userId), collection]).map { try Self.rowItem($0) }
        }
    }

    public func rowTexts(userId: UUID, collection: String, includingDeleted: Bool) async throws -> [SyncRowText] {
        try await database.storeRead { db in
            try Row.fetchAll(db, sql: """
                SELECT id, version, deletedAt, data FROM syncRows
                WHERE userId = ? AND collection = ? \(includingDeleted ? "" : "AND deletedAt IS NULL")
                ORDER BY createdAt, id
                """, arguments: [AppDatabase.idText(userId), collection]).map { row in
                let deletedAt: String? = row["deletedAt"]
                return SyncRowText(id: try AppDatabase.id(fromText: row["id"]), version: row["version"],
                                   deletedAt: try deletedAt.map(AppDatabase.instant(fromStoredText:)), data: row["data"])
            }
        }
    }

    public func rowsStamp(userId: UUID, collections: [String]) async throws -> SyncRowsStamp {
        guard !collections.isEmpty else { return SyncRowsStamp(count: 0, highestVersion: 0) }
        return try await database.storeRead { db in
            let marks = Array(repeating: "?", count: collections.count).joined(separator: ", ")
            let row = try Row.fetchOne(db, sql: """
                SELECT COUNT(*) AS count, COALESCE(MAX(version), 0) AS highest FROM syncRows
                WHERE userId = ? AND collection IN (\(marks))
                """, arguments: StatementArguments([AppDatabase.idText(userId)] + collections))
            return SyncRowsStamp(count: row?["count"] ?? 0, highestVersion: row?["highest"] ?? 0)
        }
    }

    public func row(userId: UUID, collection: String, id: UUID) async throws -> SyncItem? {
        try await database.storeRead { db in
            try Row.fetchOne(db, sql: "SELECT * FROM syncRows WHERE userId = ? AND collection = ? AND id = ?",
                             arguments: [AppDatabase.idText(userId), collection, AppDatabase.idText(id)]).map { try Self.rowItem($0) }
        }
    }

    static func item(_ record: ProfileRecord) throws -> SyncItem {
        let stored = try record.stored()
        return SyncItem(
            entity: .profile, id: try AppDatabase.id(fromText: record.id), version: record.version, updatedAt: stored.updatedAt,
            deletedAt: try record.deletedAt.map(AppDatabase.instant(fromStoredText:)), profile: stored.profile,
            planChange: stored.planChange, earlierPlanChanges: stored.earlierPlanChanges)
    }

    static func rowItem(_ row: Row) throws -> SyncItem {
        let deletedAt: String? = row["deletedAt"]
        return SyncItem(
            entity: .row, id: try AppDatabase.id(fromText: row["id"]), collection: row["collection"], version: row["version"],
            updatedAt: try AppDatabase.instant(fromStoredText: row["updatedAt"]),
            deletedAt: try deletedAt.map(AppDatabase.instant(fromStoredText:)), data: try SyncJSON.parse(row["data"]))
    }

    /// One push inside the write transaction.
    struct Push {
        let db: Database
        let userId: UUID
        let user: String
        let now: String
        let instant: Date
        let newProfileId: String
        /// The time zone meals and weights are dated in: the profile's, as it stands at this point of the push.
        var timeZone: TimeZone?

        init(db: Database, userId: UUID, user: String, now: String, instant: Date, newProfileId: String) {
            self.db = db
            self.userId = userId
            self.user = user
            self.now = now
            self.instant = instant
            self.newProfileId = newProfileId
        }

        mutating func apply(_ changes: [SyncChange], purgingResultsBefore cutoff: String) throws -> [SyncChangeResult] {
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM users WHERE id = ? AND deletedAt IS NULL", arguments: [user]) == true else {
                throw StoreError.notFound("User not found")
            }
            try db.execute(sql: "DELETE FROM syncResults WHERE userId = ? AND createdAt < ?", arguments: [user, cutoff])
            timeZone = try SQLiteProfileStore.profile(userId: userId, in: db)?.profile.timeZone
            let storedResult = try db.cachedStatement(sql: "SELECT result FROM syncResults WHERE userId = ? AND idempotencyKey = ?")
            let storeResult = try db.cachedStatement(
                sql: "INSERT INTO syncResults (userId, idempotencyKey, result, createdAt) VALUES (?, ?, ?, ?)")
            var results: [SyncChangeResult] = []
            results.reserveCapacity(changes.count)
            for (index, change) in changes.enumerated() {
                if let text = try String.fetchOne(storedResult, arguments: [user, change.idempotencyKey]) {
                    results.append(try SyncCoding.decoder.decode(SyncChangeResult.self, from: Data(text.utf8)))
                    continue
                }
                let result = try apply(change, index: index)
                let text = String(decoding: try SyncCoding.encoder.encode(result), as: UTF8.self)
                try storeResult.execute(arguments: [user, change.idempotencyKey, text, now])
                results.append(result)
            }
            return results
        }

        mutating func apply(_ change: SyncChange, index: Int) throws -> SyncChangeResult {
            let userId = userId
            switch change.entity {
            case .meal:
                return try applyOwned(change, index: index, record: change.meal.map { meal in
                    { (zone: TimeZone) in MealRecord(meal, userId: userId, localDate: LocalDate(meal.loggedAt, in: zone)) }
                }) { SyncItem(try $0.stored()) }
            case .weight:
                return try applyOwned(change, index: index, record: change.weight.map { entry in
                    { (zone: TimeZone) in WeightRecord(entry, userId: userId, localDate: LocalDate(entry.loggedAt, in: zone)) }
                }) { SyncItem(try $0.stored()) }
            case .profile:
                return try applyProfile(change, index: index)
            case .event:
                return try applyEvent(change, index: index)
            case .row:
                return try applyRow(change, index: index)
            case .tip:
                // `SyncRules.validate` refuses tips before the transaction.
                throw SyncRejection.invalidChange(index: index, key: change.idempotencyKey, message: "Tips are pulled only")
            }
        }

        /// A meal or weight: `record` builds the row to write from the time zone it is dated in (nil for a delete).
        func applyOwned<Record: UserOwnedRecord>(
            _ change: SyncChange, index: Int, record build: ((TimeZone) -> Record)?, item: (Record) throws -> SyncItem
        ) throws -> SyncChangeResult {
            let id = AppDatabase.idText(change.id!)
            var existing = try Record.fetchOne(db, id: id)
            if let row = existing, row.userId != user {
                // Another user's id: an upsert is refused; a delete is of an id this user does not have (ignored),
                // and neither touches nor shows that row.
                guard change.op == .delete else { throw SyncRejection.idInUse(index: index, key: change.idempotencyKey) }
                existing = nil
            }
            let current = existing.map { SyncRules.Current(version: $0.version, isDeleted: $0.deletedAt != nil) }
            func result(_ status: SyncChangeResult.Status, _ row: Record?, message: String? = nil) throws -> SyncChangeResult {
                SyncChangeResult(
                    idempotencyKey: change.idempotencyKey, entity: change.entity, id: change.id, status: status,
                    version: row?.version, server: status == .applied ? nil : try row.map(item), message: message)
            }
            switch change.op {
            case .upsert:
                guard let build else { throw SyncRejection.invalidChange(index: index, key: change.idempotencyKey, message: "No values") }
                guard let timeZone else { throw SyncRejection.profileRequired(index: index, key: change.idempotencyKey) }
                var record = build(timeZone)
                var identical = false
                if let existing, existing.deletedAt == nil {
                    record.createdAt = existing.createdAt
                    record.updatedAt = existing.updatedAt
                    record.version = existing.version
                    identical = record == existing
                }
                switch SyncRules.upsert(baseVersion: change.baseVersion, current: current, identical: identical) {
                case .apply:
                    return try result(.applied, Record.write(record, over: existing, in: db, now: now))
                case .lost, .ignored:
                    return try result(.lost, existing, message: SyncMessages.lostEdit(change.entity, deleted: existing?.deletedAt != nil))
                }
            case .delete:
                switch SyncRules.delete(baseVersion: change.baseVersion, current: current) {
                case .apply:
                    return try result(.applied, Record.tombstone(userId: user, id: id, in: db, now: now))
                case .lost:
                    return try result(.lost, existing, message: SyncMessages.lostDelete(change.entity))
                case .ignored:
                    return try result(.ignored, existing, message: SyncMessages.ignoredDelete(deleted: existing != nil))
                }
            }
        }

        mutating func applyProfile(_ change: SyncChange, index: Int) throws -> SyncChangeResult {
            let profile = change.profile!
            let existing = try SQLiteProfileStore.record(userId: userId, in: db)
            let live = existing?.deletedAt == nil ? existing : nil
            let liveStored = try live?.stored()
            let identical = liveStored?.profile == profile
            if !identical, change.baseVersion != live?.version {
                throw SyncRejection.profileConflict(SyncProfileConflict(
                    index: index, idempotencyKey: change.idempotencyKey, baseVersion: change.baseVersion, base: change.baseProfile,
                    local: profile, server: try live.map(SQLiteSyncStore.item)))
            }
            let saved: Int64
            if identical, let live {
                saved = live.version
            } else {
                saved = try SQLiteProfileStore.write(
                    profile, over: existing, newId: newProfileId, userId: userId, at: instant, now: now, in: db
                ).version
            }
            timeZone = profile.timeZone
            return SyncChangeResult(
                idempotencyKey: change.idempotencyKey, entity: .profile, id: nil, status: .applied, version: saved)
        }

        func applyEvent(_ change: SyncChange, index: Int) throws -> SyncChangeResult {
            let event = change.event!
            var record = try AnalyticsEventRecord(event, userId: userId, createdAt: now, version: 0)
            let owner = try db.cachedStatement(sql: "SELECT userId FROM analytics_events WHERE id = ?")
            if let existingUserId = try String.fetchOne(owner, arguments: [record.id]) {
                guard existingUserId == user else { throw SyncRejection.idInUse(index: index, key: change.idempotencyKey) }
            } else {
                record.version = try AppDatabase.nextVersion(db)
                try record.insertRow(db)
            }
            return SyncChangeResult(idempotencyKey: change.idempotencyKey, entity: .event, id: event.id, status: .applied)
        }

        func applyRow(_ change: SyncChange, index: Int) throws -> SyncChangeResult {
            let id = AppDatabase.idText(change.id!)
            let collection = change.collection!
            let keyArguments: StatementArguments = [user, collection, id]
            let existing = try Row.fetchOne(
                db, sql: "SELECT * FROM syncRows WHERE userId = ? AND collection = ? AND id = ?", arguments: keyArguments)
            let existingVersion: Int64? = existing?["version"]
            let existingDeleted = (existing?["deletedAt"] as String?) != nil
            let current = existingVersion.map { SyncRules.Current(version: $0, isDeleted: existingDeleted) }
            func result(_ status: SyncChangeResult.Status, version: Int64?, message: String? = nil) throws -> SyncChangeResult {
                let server = status == .applied ? nil : try existing.map(SQLiteSyncStore.rowItem)
                return SyncChangeResult(
                    idempotencyKey: change.idempotencyKey, entity: .row, id: change.id, collection: collection, status: status,
                    version: version, server: server, message: message)
            }
            switch change.op {
            case .upsert:
                let data = try change.data!.canonicalText()
                let identical = existing != nil && !existingDeleted && (existing?["data"] as String?) == data
                switch SyncRules.upsert(baseVersion: change.baseVersion, current: current, identical: identical) {
                case .apply:
                    if identical { return try result(.applied, version: existingVersion) }
                    let version = try AppDatabase.nextVersion(db)
                    if existing == nil {
                        try db.execute(sql: """
                            INSERT INTO syncRows (userId, collection, id, data, createdAt, updatedAt, version, deletedAt)
                            VALUES (?, ?, ?, ?, ?, ?, ?, NULL)
                            """, arguments: [user, collection, id, data, now, now, version])
                    } else {
                        try db.execute(sql: """
                            UPDATE syncRows SET data = ?, updatedAt = ?, version = ?, deletedAt = NULL
                            WHERE userId = ? AND collection = ? AND id = ?
                            """, arguments: [data, now, version, user, collection, id])
                    }
                    return try result(.applied, version: version)
                case .lost, .ignored:
                    return try result(.lost, version: existingVersion, message: SyncMessages.lostEdit(.row, deleted: existingDeleted))
                }
            case .delete:
                switch SyncRules.delete(baseVersion: change.baseVersion, current: current) {
                case .apply:
                    let version = try AppDatabase.nextVersion(db)
                    try db.execute(sql: """
                        UPDATE syncRows SET deletedAt = ?, updatedAt = ?, version = ? WHERE userId = ? AND collection = ? AND id = ?
                        """, arguments: [now, now, version, user, collection, id])
                    return try result(.applied, version: version)
                case .lost:
                    return try result(.lost, version: existingVersion, message: SyncMessages.lostDelete(.row))
                case .ignored:
                    return try result(.ignored, version: existingVersion, message: SyncMessages.ignoredDelete(deleted: existing != nil))
                }
            }
        }
    }
}
