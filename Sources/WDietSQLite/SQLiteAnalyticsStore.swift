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

    /// Records an action's event inside the action's write (a meal's, a weight's), in a savepoint of its own:
    /// nil when it is stored (or was already there), else why not; the action's rows are never undone by it.
    static func recordAlongside(_ record: Result<AnalyticsEventRecord, any Error>, in db: Database) -> (any Error)? {
        do {
            let record = try record.get()
            try db.inSavepoint {
                try insert(record, in: db)
                return .commit
            }
            return nil
        } catch {
            return error
        }
    }

    /// Inserts the event under the user's next version; an id the user already has is left as it is (a retried
    /// upload), another user's is refused. Also run inside a meal's or a weight's write (`recordAlongside`).
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

extension AppDatabase {
    /// Saves a user's row (`UserOwnedRecord.save`) and records the event of that moment in the same write, in a
    /// savepoint of its own (`SQLiteAnalyticsStore.recordAlongside`): one group-commit job, one commit.
    func saveWithEvent<Record: UserOwnedRecord, Stored: Sendable>(
        _ record: Record, event: AnalyticsEvent, userId: UUID, now: String, stored: @escaping @Sendable (Record) throws -> Stored
    ) async throws -> SavedWithEvent<Stored> {
        // Encoded before the write, so that the one writer does only the SQL.
        let eventRecord = Result { try AnalyticsEventRecord(event, userId: userId, createdAt: now, version: 0) }
        return try await storeWrite { db in
            let saved = try stored(Record.save(record, in: db, now: now))
            return SavedWithEvent(row: saved, eventError: SQLiteAnalyticsStore.recordAlongside(eventRecord, in: db))
        }
    }
}
