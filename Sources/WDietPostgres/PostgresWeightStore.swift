import Foundation
import Logging
import PostgresNIO
import WDietCore
import WDietStore

/// `WeightStore` on PostgreSQL, with the write rules of the SQLite store (`PostgresOwnedRow`).
public struct PostgresWeightStore: WeightStore {
    let client: PostgresClient
    let now: @Sendable () -> Date
    let logger: Logger

    /// `now` stamps `createdAt`, `updatedAt` and `deletedAt`; tests pass a fixed clock.
    public init(client: PostgresClient, now: @escaping @Sendable () -> Date = Date.init, logger: Logger = Logger(label: "wdiet.postgres.weights")) {
        self.client = client
        self.now = now
        self.logger = logger
    }

    public func saveWeight(_ entry: WeightEntry, userId: UUID, timeZone: TimeZone) async throws -> StoredWeight {
        guard let saved = try await saveWeights([entry], userId: userId, timeZone: timeZone).first else {
            throw StoreError.unavailable("The weight was not saved")
        }
        return saved
    }

    public func saveWeight(_ entry: WeightEntry, userId: UUID, timeZone: TimeZone, recording event: AnalyticsEvent) async throws -> SavedWithEvent<StoredWeight> {
        try StoreValidation.validate(entry)
        let now = PostgresInstant(now()).date
        return try await Self.row(entry, userId: userId, timeZone: timeZone, now: now)
            .saveWithEvent(event, now: now, client: client, logger: logger)
    }

    public func saveWeights(_ entries: [WeightEntry], userId: UUID, timeZone: TimeZone) async throws -> [StoredWeight] {
        for entry in entries { try StoreValidation.validate(entry) }
        let now = PostgresInstant(now()).date
        let rows = entries.map { Self.row($0, userId: userId, timeZone: timeZone, now: now) }
        return try await PostgresStoreErrors.guarded(logger) {
            try await client.withTransaction(logger: logger) { connection in
                try await StoredWeight.save(rows, userId: userId, now: now, on: connection, logger: logger)
            }
        }
    }

    /// The row a save writes, before its version is drawn; stored to the millisecond, as reads return it.
    static func row(_ entry: WeightEntry, userId: UUID, timeZone: TimeZone, now: Date) -> StoredWeight {
        var entry = entry
        entry.loggedAt = PostgresInstant(entry.loggedAt).date
        return StoredWeight(
            entry: entry, userId: userId, localDate: LocalDate(entry.loggedAt, in: timeZone), version: 0,
            createdAt: now, updatedAt: now)
    }

    public func deleteWeight(userId: UUID, id: UUID) async throws -> StoredWeight {
        let now = PostgresInstant(now()).date
        return try await PostgresStoreErrors.guarded(logger) {
            try await client.withTransaction(logger: logger) { connection in
                try await StoredWeight.setDeleted(true, userId: userId, id: id, now: now, on: connection, logger: logger)
            }
        }
    }

    public func restoreWeight(userId: UUID, id: UUID) async throws -> StoredWeight {
        let now = PostgresInstant(now()).date
        return try await PostgresStoreErrors.guarded(logger) {
            try await client.withTransaction(logger: logger) { connection in
                try await StoredWeight.setDeleted(false, userId: userId, id: id, now: now, on: connection, logger: logger)
            }
        }
    }

    public func weightHistory(userId: UUID) async throws -> [StoredWeight] {
        try await read("""
            SELECT \(unescaped: StoredWeight.columns) FROM weights WHERE user_id = \(userId) AND deleted_at IS NULL
            ORDER BY logged_at, version
            """)
    }

    public func dailyWeights(userId: UUID) async throws -> [StoredWeight] {
        // The day's latest entry is its current value; of two logged at the same instant, the later write.
        try await read("""
            SELECT DISTINCT ON (local_date) \(unescaped: StoredWeight.columns) FROM weights
            WHERE user_id = \(userId) AND deleted_at IS NULL
            ORDER BY local_date, logged_at DESC, version DESC
            """)
    }

    public func recentDailyWeights(userId: UUID, through date: LocalDate, days: Int) async throws -> [StoredWeight] {
        guard days > 0 else { return [] }
        return try await read(Self.recentDailyWeightsQuery(userId: userId, through: date, days: days)).reversed()
    }

    /// Newest day first; `PostgresDashboardStore.DayRead` repeats it in its combined read. The index on
    /// (user_id, local_date, logged_at, version), read backwards, gives each day's current entry first.
    static func recentDailyWeightsQuery(userId: UUID, through date: LocalDate, days: Int) -> PostgresQuery {
        """
        SELECT DISTINCT ON (local_date) \(unescaped: StoredWeight.columns) FROM weights
        WHERE user_id = \(userId) AND local_date <= \(PostgresLocalDate(date)) AND deleted_at IS NULL
        ORDER BY local_date DESC, logged_at DESC, version DESC
        LIMIT \(days)
        """
    }

    public func latestWeight(userId: UUID) async throws -> StoredWeight? {
        try await read("""
            SELECT \(unescaped: StoredWeight.columns) FROM weights WHERE user_id = \(userId) AND deleted_at IS NULL
            ORDER BY logged_at DESC, version DESC LIMIT 1
            """).first
    }

    private func read(_ query: PostgresQuery) async throws -> [StoredWeight] {
        try await PostgresStoreErrors.guarded(logger) {
            try await StoredWeight.decode(client.query(query, logger: logger))
        }
    }
}

extension StoredWeight: PostgresOwnedRow {
    static let displayName = "Weight entry"
    static let table = "weights"
    static let columns = "id, user_id, kg, logged_at, local_date, created_at, updated_at, version, deleted_at"
    static let columnCount = 9
    static let insertNewWithEventSQL = makeInsertNewWithEventSQL()
    static let insertNewWithEventName = "wdiet_insert_weights_with_event_v2"
    static let insertNewWithEventCheckingSessionSQL = makeInsertNewWithEventSQL(checkingSession: true)
    static let insertNewWithEventCheckingSessionName = "wdiet_insert_weights_with_event_checking_session_v1"

    var rowId: UUID { entry.id }

    static func fetch(ids: [UUID], on connection: PostgresConnection, logger: Logger) async throws -> [UUID: StoredWeight] {
        let rows = try await decode(connection.query("SELECT \(unescaped: columns) FROM weights WHERE id = ANY(\(ids))", logger: logger))
        return Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func appendValues(to bindings: inout PostgresBindings) {
        bindings.append(entry.id)
        bindings.append(userId)
        bindings.append(entry.kg)
        bindings.append(PostgresInstant(entry.loggedAt))
        bindings.append(PostgresLocalDate(localDate))
        bindings.append(PostgresInstant(createdAt))
        bindings.append(PostgresInstant(updatedAt))
        bindings.append(version)
        bindings.append(deletedAt.map(PostgresInstant.init))
    }

    func update(on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("""
            UPDATE weights SET kg = \(entry.kg), logged_at = \(PostgresInstant(entry.loggedAt)),
                local_date = \(PostgresLocalDate(localDate)), updated_at = \(PostgresInstant(updatedAt)),
                version = \(version), deleted_at = \(deletedAt.map(PostgresInstant.init))
            WHERE id = \(entry.id) AND user_id = \(userId)
            """, logger: logger)
    }

    static func decode(_ rows: PostgresRowSequence) async throws -> [StoredWeight] {
        var weights: [StoredWeight] = []
        for try await row in rows { weights.append(try decode(row.makeRandomAccess())) }
        return weights
    }

    static func decode(_ row: PostgresRandomAccessRow) throws -> StoredWeight {
        StoredWeight(
            entry: WeightEntry(id: try row.value("id"), kg: try row.value("kg"), loggedAt: try row.instant("logged_at")),
            userId: try row.value("user_id"), localDate: try row.localDate("local_date"), version: try row.value("version"),
            createdAt: try row.instant("created_at"), updatedAt: try row.instant("updated_at"),
            deletedAt: try row.optionalInstant("deleted_at")
        )
    }
}
