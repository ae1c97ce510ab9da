import Foundation
import Logging
import PostgresNIO
import WDietCore
import WDietStore

/// `SyncStore` on PostgreSQL.
///
/// A push is one transaction under the user's row lock (`PostgresUserVersions`): it reads what the changes name in
/// a few queries, decides every change by `SyncRules`, then draws all the versions it needs in one `UPDATE` and
/// writes. A pull is one `REPEATABLE READ READ ONLY` transaction, so all its queries see one snapshot; because a
/// transaction draws a user's versions only while holding that user's row lock, and PostgreSQL releases the lock
/// only once the commit is visible, a snapshot that sees version v of a user sees every smaller committed version
/// of theirs: a cursor never passes over a row that commits later.
public struct PostgresSyncStore: SyncStore {
    let client: PostgresClient
    let now: @Sendable () -> Date
    let logger: Logger

    /// `now` stamps rows and results, and ages results out; tests pass a fixed clock.
    public init(client: PostgresClient, now: @escaping @Sendable () -> Date = Date.init, logger: Logger = Logger(label: "wdiet.postgres.sync")) {
        self.client = client
        self.now = now
        self.logger = logger
    }

    public func push(_ changes: [SyncChange], userId: UUID) async throws -> [SyncChangeResult] {
        try SyncRules.validate(changes, now: now())
        let instant = PostgresInstant(now()).date
        return try await guarded {
            try await client.withTransaction(logger: logger) { connection in
                var push = PostgresSyncPush(connection: connection, logger: logger, userId: userId, now: instant)
                return try await push.apply(changes)
            }
        }
    }

    public func pull(userId: UUID, after cursor: Int64, limit: Int) async throws -> SyncPullResponse {
        try await guarded {
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
                if cursor > 0 {
                    var latest: Int64 = 0
                    let rows = try await connection.query("SELECT last_version FROM users WHERE id = \(userId)", logger: logger)
                    for try await value in rows.decode(Int64.self) { latest = value }
                    guard cursor <= latest else { throw SyncRejection.cursorAhead(cursor: cursor, latest: latest) }
                }
                // Each table's next `limit + 1` changes by its (user_id, version) index, merged.
                let page = limit + 1
                var items: [SyncItem] = []
                items += try await StoredMeal.decode(connection.query("""
                    SELECT \(unescaped: StoredMeal.columns) FROM meals WHERE user_id = \(userId) AND version > \(cursor)
                    ORDER BY version LIMIT \(page)
                    """, logger: logger)).map(SyncItem.init)
                items += try await StoredWeight.decode(connection.query("""
                    SELECT \(unescaped: StoredWeight.columns) FROM weights WHERE user_id = \(userId) AND version > \(cursor)
                    ORDER BY version LIMIT \(page)
                    """, logger: logger)).map(SyncItem.init)
                let profiles = try await connection.query("""
                    SELECT \(unescaped: PostgresProfileStore.columns) FROM profiles WHERE user_id = \(userId) AND version > \(cursor)
                    ORDER BY version LIMIT \(page)
                    """, logger: logger)
                for try await row in profiles { items.append(try Self.profileItem(row.makeRandomAccess())) }
                let tips = try await connection.query("""
                    SELECT tip_id, dismissed_at, version FROM dismissed_tips WHERE user_id = \(userId) AND version > \(cursor)
                    ORDER BY version LIMIT \(page)
                    """, logger: logger)
                for try await (tip, dismissedAt, version) in tips.decode((String, PostgresInstant, Int64).self) {
                    items.append(SyncItem(entity: .tip, id: nil, tip: tip, version: version, updatedAt: dismissedAt.date))
                }
                let rows = try await connection.query("""
                    SELECT \(unescaped: Self.rowColumns) FROM sync_rows WHERE user_id = \(userId) AND version > \(cursor)
                    ORDER BY version LIMIT \(page)
                    """, logger: logger)
                for try await row in rows { items.append(try Self.rowItem(row.makeRandomAccess())) }
                items.sort { $0.version < $1.version }
                let hasMore = items.count > limit
                if hasMore { items.removeLast(items.count - limit) }
                return SyncPullResponse(items: items, nextCursor: items.last?.version ?? cursor, hasMore: hasMore)
            }
        }
    }

    static let rowColumns = "collection, id, data, created_at, updated_at, version, deleted_at"

    public func rows(userId: UUID, collection: String, includingDeleted: Bool) async throws -> [SyncItem] {
        try await PostgresStoreErrors.guarded(logger) {
            let rows = try await client.query("""
                SELECT \(unescaped: Self.rowColumns) FROM sync_rows
                WHERE user_id = \(userId) AND collection = \(collection) \(unescaped: includingDeleted ? "" : "AND deleted_at IS NULL")
                ORDER BY created_at, id
                """, logger: logger)
            var items: [SyncItem] = []
            for try await row in rows { items.append(try Self.rowItem(row.makeRandomAccess())) }
            return items
        }
    }

    public func rowTexts(userId: UUID, collection: String, includingDeleted: Bool) async throws -> [SyncRowText] {
        try await PostgresStoreErrors.guarded(logger) {
            let rows = try await client.query("""
                SELECT id, version, deleted_at, data FROM sync_rows
                WHERE user_id = \(userId) AND collection = \(collection) \(unescaped: includingDeleted ? "" : "AND deleted_at IS NULL")
                ORDER BY created_at, id
                """, logger: logger)
            var items: [SyncRowText] = []
            for try await row in rows {
                let row = row.makeRandomAccess()
                items.append(SyncRowText(id: try row.value("id"), version: try row.value("version"),
                                         deletedAt: try row.optionalInstant("deleted_at"), data: try row.value("data")))
            }
            return items
        }
    }

    public func rowsStamp(userId: UUID, collections: [String]) async throws -> SyncRowsStamp {
        try await PostgresStoreErrors.guarded(logger) {
            let rows = try await client.query("""
                SELECT count(*), coalesce(max(version), 0)::bigint FROM sync_rows
                WHERE user_id = \(userId) AND collection = ANY(\(collections))
                """, logger: logger)
            for try await (count, highest) in rows.decode((Int64, Int64).self) {
                return SyncRowsStamp(count: Int(count), highestVersion: highest)
            }
            return SyncRowsStamp(count: 0, highestVersion: 0)
        }
    }

    public func row(userId: UUID, collection: String, id: UUID) async throws -> SyncItem? {
        try await PostgresStoreErrors.guarded(logger) {
            let rows = try await client.query("""
                SELECT \(unescaped: Self.rowColumns) FROM sync_rows WHERE user_id = \(userId) AND collection = \(collection) AND id = \(id)
                """, logger: logger)
            for try await row in rows { return try Self.rowItem(row.makeRandomAccess()) }
            return nil
        }
    }

    static func profileItem(_ row: PostgresRandomAccessRow) throws -> SyncItem {
        let stored = try PostgresProfileStore.decode(row)
        return SyncItem(
            entity: .profile, id: try row.value("id"), version: stored.version, updatedAt: stored.updatedAt,
            deletedAt: try row.optionalInstant("deleted_at"), profile: stored.profile, planChange: stored.planChange,
            earlierPlanChanges: stored.earlierPlanChanges)
    }

    static func rowItem(_ row: PostgresRandomAccessRow) throws -> SyncItem {
        SyncItem(
            entity: .row, id: try row.value("id"), collection: try row.value("collection"), version: try row.value("version"),
            updatedAt: try row.instant("updated_at"), deletedAt: try row.optionalInstant("deleted_at"),
            data: try SyncJSON.parse(try row.value("data")))
    }

    /// Store errors as every store maps them; a `SyncRejection` leaves as it is (it names the change).
    func guarded<Result>(_ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch let rejection as SyncRejection {
            throw rejection
        } catch let error as PostgresTransactionError where error.closureError is SyncRejection {
            throw error.closureError!
        } catch {
            return try await PostgresStoreErrors.guarded(logger) { throw error }
        }
    }
}
