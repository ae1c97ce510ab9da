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
        let now = AppDatabase.instantText(now())
        try await database.storeWrite { db in
            if let existing = try AnalyticsEventRecord.fetchOne(db, key: AppDatabase.idText(event.id)) {
                guard existing.userId == AppDatabase.idText(userId) else { throw StoreError.conflict("This id is already in use") }
                return
            }
            try AnalyticsEventRecord(event, userId: userId, createdAt: now, version: AppDatabase.nextVersion(db)).insert(db)
        }
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
