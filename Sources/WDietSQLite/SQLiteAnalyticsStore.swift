import Foundation
import GRDB
import WDietStore

/// `AnalyticsStore` on the SQLite gatekeeper.
public struct SQLiteAnalyticsStore: AnalyticsStore {
    let database: AppDatabase
    let now: @Sendable () -> Date

    /// `now` stamps `createdAt`; tests pass a fixed clock.
    public init(database: AppDatabase, now: @escaping @Sendable () -> Date = Date.init) {
        self.database = database
        self.now = now
    }

    public func recordEvent(_ event: AnalyticsEvent, userId: UUID) async throws {
        // Built before the write, so that the one writer does only the SQL.
        let record = try AnalyticsEventRecord(event, userId: userId, createdAt: AppDatabase.instantText(now()), version: 0)
        try await database.storeWrite { db in try Self.insert(record, in: db) }
    }

    /// Inserts the event under the user's next version; an id the user already has is left as it is (a retried
    /// upload), another user's is refused. Also run inside a meal's save (`SQLiteMealStore`).
    static func insert(_ record: AnalyticsEventRecord, in db: Database) throws {
        // A cached statement: every meal and weight save records an event.
        let owner = try db.cachedStatement(sql: "SELECT userId FROM analytics_events WHERE id = ?")
        if let existingUserId = try String.fetchOne(owner, arguments: [record.id]) {
            guard existingUserId == record.userId else { throw StoreError.conflict("This id is already in use") }
            return
        }
        var record = record
        record.version = try AppDatabase.nextVersion(db)
        try record.insertRow(db)
    }

    public func events(userId: UUID) async throws -> [AnalyticsEvent] {
        try await database.storeRead { db in
            try AnalyticsEventRecord
                .filter(AnalyticsEventRecord.Columns.userId == AppDatabase.idText(userId))
                // Names a newer version added are left to that version to read.
                .filter(AnalyticsEventName.allCases.map(\.rawValue).contains(AnalyticsEventRecord.Columns.name))
                .filter(AnalyticsEventRecord.Columns.deletedAt == nil)
                .order(AnalyticsEventRecord.Columns.occurredAt, AnalyticsEventRecord.Columns.version)
                .fetchAll(db)
                .map { try $0.event() }
        }
    }
}
