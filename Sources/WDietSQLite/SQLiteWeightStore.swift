import Foundation
import GRDB
import WDietCore
import WDietStore

/// `WeightStore` on the SQLite gatekeeper.
public struct SQLiteWeightStore: WeightStore {
    let database: AppDatabase
    let now: @Sendable () -> Date

    /// `now` stamps `createdAt`, `updatedAt` and `deletedAt`; tests pass a fixed clock.
    public init(database: AppDatabase, now: @escaping @Sendable () -> Date = Date.init) {
        self.database = database
        self.now = now
    }

    public func saveWeight(_ entry: WeightEntry, userId: UUID, timeZone: TimeZone) async throws -> StoredWeight {
        try StoreValidation.validate(entry)
        let record = WeightRecord(entry, userId: userId, localDate: LocalDate(entry.loggedAt, in: timeZone))
        let now = AppDatabase.instantText(now())
        return try await database.storeWrite { db in
            try WeightRecord.save(record, in: db, now: now).stored()
        }
    }

    public func saveWeight(_ entry: WeightEntry, userId: UUID, timeZone: TimeZone, recording event: AnalyticsEvent) async throws -> SavedWithEvent<StoredWeight> {
        try StoreValidation.validate(entry)
        let record = WeightRecord(entry, userId: userId, localDate: LocalDate(entry.loggedAt, in: timeZone))
        return try await database.saveWithEvent(record, event: event, userId: userId, now: AppDatabase.instantText(now())) { try $0.stored() }
    }

    public func saveWeights(_ entries: [WeightEntry], userId: UUID, timeZone: TimeZone) async throws -> [StoredWeight] {
        for entry in entries { try StoreValidation.validate(entry) }
        let records = entries.map { WeightRecord($0, userId: userId, localDate: LocalDate($0.loggedAt, in: timeZone)) }
        let now = AppDatabase.instantText(now())
        return try await database.storeWrite { db in
            try records.map { try WeightRecord.save($0, in: db, now: now).stored() }
        }
    }

    public func deleteWeight(userId: UUID, id: UUID) async throws -> StoredWeight {
        let now = AppDatabase.instantText(now())
        return try await database.storeWrite { db in
            try WeightRecord.tombstone(userId: AppDatabase.idText(userId), id: AppDatabase.idText(id), in: db, now: now).stored()
        }
    }

    public func restoreWeight(userId: UUID, id: UUID) async throws -> StoredWeight {
        let now = AppDatabase.instantText(now())
        return try await database.storeWrite { db in
            try WeightRecord.restore(userId: AppDatabase.idText(userId), id: AppDatabase.idText(id), in: db, now: now).stored()
        }
    }

    public func weightHistory(userId: UUID) async throws -> [StoredWeight] {
        try await database.storeRead { db in
            try live(userId: userId)
                .order(WeightRecord.Columns.loggedAt, WeightRecord.Columns.version)
                .fetchAll(db)
                .map { try $0.stored() }
        }
    }

    public func dailyWeights(userId: UUID) async throws -> [StoredWeight] {
        try await database.storeRead { db in
            // The day's latest entry is its current value; of two logged at the same instant, the later write.
            try WeightRecord.fetchAll(db, sql: """
                SELECT * FROM (
                    SELECT weights.*,
                           ROW_NUMBER() OVER (PARTITION BY localDate ORDER BY loggedAt DESC, version DESC) AS dayRank
                    FROM weights
                    WHERE userId = ? AND deletedAt IS NULL
                )
                WHERE dayRank = 1
                ORDER BY localDate
                """, arguments: [AppDatabase.idText(userId)])
                .map { try $0.stored() }
        }
    }

    public func recentDailyWeights(userId: UUID, through date: LocalDate, days: Int) async throws -> [StoredWeight] {
        try await database.storeRead { db in try Self.recentDailyWeights(userId: userId, through: date, days: days, in: db) }
    }

    /// The read itself, for callers that combine several reads in one snapshot.
    static func recentDailyWeights(userId: UUID, through date: LocalDate, days: Int, in db: Database) throws -> [StoredWeight] {
        guard days > 0 else { return [] }
        // Index order (userId, localDate, loggedAt, version) read backwards: each day's first row is its current value.
        let statement = try db.cachedStatement(sql: """
            SELECT * FROM weights
            WHERE userId = ? AND localDate <= ? AND deletedAt IS NULL
            ORDER BY localDate DESC, loggedAt DESC, version DESC
            """)
        let rows = try WeightRecord.fetchCursor(statement, arguments: [AppDatabase.idText(userId), date.iso])
        var result: [StoredWeight] = []
        var lastDate: String?
        while result.count < days, let row = try rows.next() {
            guard row.localDate != lastDate else { continue }
            lastDate = row.localDate
            result.append(try row.stored())
        }
        return result.reversed()
    }

    public func latestWeight(userId: UUID) async throws -> StoredWeight? {
        try await database.storeRead { db in
            try live(userId: userId)
                .order(WeightRecord.Columns.loggedAt.desc, WeightRecord.Columns.version.desc)
                .fetchOne(db)?
                .stored()
        }
    }

    private func live(userId: UUID) -> QueryInterfaceRequest<WeightRecord> {
        WeightRecord.filter(WeightRecord.Columns.userId == AppDatabase.idText(userId) && WeightRecord.Columns.deletedAt == nil)
    }
}
