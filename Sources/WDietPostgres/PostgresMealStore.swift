import Foundation
import Logging
import PostgresNIO
import WDietCore
import WDietStore

/// `MealStore` on PostgreSQL, with the write rules of the SQLite store (`PostgresOwnedRow`).
public struct PostgresMealStore: MealStore {
    let client: PostgresClient
    let now: @Sendable () -> Date
    let logger: Logger

    /// `now` stamps `createdAt`, `updatedAt` and `deletedAt`; tests pass a fixed clock.
    public init(client: PostgresClient, now: @escaping @Sendable () -> Date = Date.init, logger: Logger = Logger(label: "wdiet.postgres.meals")) {
        self.client = client
        self.now = now
        self.logger = logger
    }

    public func saveMeal(_ meal: Meal, userId: UUID, timeZone: TimeZone) async throws -> StoredMeal {
        guard let saved = try await saveMeals([meal], userId: userId, timeZone: timeZone).first else {
            throw StoreError.unavailable("The meal was not saved")
        }
        return saved
    }

    public func saveMeal(_ meal: Meal, userId: UUID, timeZone: TimeZone, recording event: AnalyticsEvent) async throws -> SavedWithEvent<StoredMeal> {
        try StoreValidation.validate(meal)
        let now = PostgresInstant(now()).date
        return try await Self.row(meal, userId: userId, timeZone: timeZone, now: now)
            .saveWithEvent(event, now: now, client: client, logger: logger)
    }

    public func saveMeals(_ meals: [Meal], userId: UUID, timeZone: TimeZone) async throws -> [StoredMeal] {
        for meal in meals { try StoreValidation.validate(meal) }
        let now = PostgresInstant(now()).date
        let rows = meals.map { Self.row($0, userId: userId, timeZone: timeZone, now: now) }
        return try await PostgresStoreErrors.guarded(logger) {
            try await client.withTransaction(logger: logger) { connection in
                try await StoredMeal.save(rows, userId: userId, now: now, on: connection, logger: logger)
            }
        }
    }

    /// The row a save writes, before its version is drawn.
    static func row(_ meal: Meal, userId: UUID, timeZone: TimeZone, now: Date) -> StoredMeal {
        var meal = meal
        // Stored to the millisecond; the identical-save check compares what a read would return.
        meal.loggedAt = PostgresInstant(meal.loggedAt).date
        return StoredMeal(
            meal: meal, userId: userId, localDate: LocalDate(meal.loggedAt, in: timeZone), version: 0,
            createdAt: now, updatedAt: now)
    }

    public func deleteMeal(userId: UUID, id: UUID) async throws -> StoredMeal {
        try await setDeleted(true, userId: userId, id: id)
    }

    public func restoreMeal(userId: UUID, id: UUID) async throws -> StoredMeal {
        try await setDeleted(false, userId: userId, id: id)
    }

    func setDeleted(_ deleted: Bool, userId: UUID, id: UUID) async throws -> StoredMeal {
        let now = PostgresInstant(now()).date
        return try await PostgresStoreErrors.guarded(logger) {
            try await client.withTransaction(logger: logger) { connection in
                try await StoredMeal.setDeleted(deleted, userId: userId, id: id, now: now, on: connection, logger: logger)
            }
        }
    }

    public func meal(userId: UUID, id: UUID) async throws -> StoredMeal? {
        try await PostgresStoreErrors.guarded(logger) {
            try await StoredMeal.decode(client.query("""
                SELECT \(unescaped: StoredMeal.columns) FROM meals WHERE id = \(id) AND user_id = \(userId) AND deleted_at IS NULL
                """, logger: logger)).first
        }
    }

    public func meals(userId: UUID, on date: LocalDate) async throws -> [StoredMeal] {
        try await PostgresStoreErrors.guarded(logger) {
            try await StoredMeal.decode(client.query(Self.mealsQuery(userId: userId, on: date), logger: logger))
        }
    }

    public func meals(userId: UUID, from start: LocalDate, through end: LocalDate, limit: Int) async throws -> [StoredMeal] {
        try await PostgresStoreErrors.guarded(logger) {
            try await StoredMeal.decode(client.query("""
                SELECT \(unescaped: StoredMeal.columns) FROM meals
                WHERE user_id = \(userId) AND local_date BETWEEN \(PostgresLocalDate(start)) AND \(PostgresLocalDate(end))
                    AND deleted_at IS NULL
                ORDER BY logged_at DESC, created_at DESC LIMIT \(Int64(max(0, limit)))
                """, logger: logger))
        }
    }

    public func dayTotals(userId: UUID, from start: LocalDate, through end: LocalDate) async throws -> [LocalDate: DailyTotals] {
        try await PostgresStoreErrors.guarded(logger) {
            let rows = try await client.query("""
                SELECT local_date, kcal, protein, carbs, fat, fiber FROM meals
                WHERE user_id = \(userId) AND local_date BETWEEN \(PostgresLocalDate(start)) AND \(PostgresLocalDate(end))
                    AND deleted_at IS NULL
                ORDER BY logged_at DESC, created_at DESC LIMIT \(Int64(Self.dayTotalsMealLimit))
                """, logger: logger)
            var totals: [LocalDate: DailyTotals] = [:]
            for try await (date, kcal, protein, carbs, fat, fiber) in rows.decode((PostgresLocalDate, Double, Double?, Double?, Double?, Double?).self) {
                totals[date.localDate, default: .zero].add(kcal: kcal, protein: protein, carbs: carbs, fat: fat, fiber: fiber)
            }
            return totals
        }
    }

    /// The day's live meals, newest first; `PostgresDashboardStore.DayRead` repeats it in its combined read.
    static func mealsQuery(userId: UUID, on date: LocalDate) -> PostgresQuery {
        """
        SELECT \(unescaped: StoredMeal.columns) FROM meals
        WHERE user_id = \(userId) AND local_date = \(PostgresLocalDate(date)) AND deleted_at IS NULL
        ORDER BY logged_at DESC, created_at DESC
        """
    }
}

extension StoredMeal: PostgresOwnedRow {
    static let displayName = "Meal"
    static let table = "meals"
    static let columns = """
        id, user_id, name, food_id, grams, kcal, protein, carbs, fat, fiber, source, logged_at, local_date,
        created_at, updated_at, version, deleted_at, slot
        """
    static let columnCount = 18
    static let insertNewWithEventSQL = makeInsertNewWithEventSQL()
    static let insertNewWithEventName = "wdiet_insert_meals_with_event_v3"
    static let insertNewWithEventCheckingSessionSQL = makeInsertNewWithEventSQL(checkingSession: true)
    static let insertNewWithEventCheckingSessionName = "wdiet_insert_meals_with_event_checking_session_v1"

    var rowId: UUID { meal.id }

    static func fetch(ids: [UUID], on connection: PostgresConnection, logger: Logger) async throws -> [UUID: StoredMeal] {
        let rows = try await decode(connection.query("SELECT \(unescaped: columns) FROM meals WHERE id = ANY(\(ids))", logger: logger))
        return Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func appendValues(to bindings: inout PostgresBindings) {
        bindings.append(meal.id)
        bindings.append(userId)
        bindings.append(meal.name)
        bindings.append(meal.foodId)
        bindings.append(meal.grams)
        bindings.append(meal.kcal)
        bindings.append(meal.protein)
        bindings.append(meal.carbs)
        bindings.append(meal.fat)
        bindings.append(meal.fiber)
        bindings.append(meal.source.rawValue)
        bindings.append(PostgresInstant(meal.loggedAt))
        bindings.append(PostgresLocalDate(localDate))
        bindings.append(PostgresInstant(createdAt))
        bindings.append(PostgresInstant(updatedAt))
        bindings.append(version)
        bindings.append(deletedAt.map(PostgresInstant.init))
        bindings.append(meal.slot?.rawValue)
    }

    func update(on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("""
            UPDATE meals SET name = \(meal.name), food_id = \(meal.foodId), grams = \(meal.grams), kcal = \(meal.kcal),
                protein = \(meal.protein), carbs = \(meal.carbs), fat = \(meal.fat), fiber = \(meal.fiber),
                source = \(meal.source.rawValue), logged_at = \(PostgresInstant(meal.loggedAt)),
                local_date = \(PostgresLocalDate(localDate)), updated_at = \(PostgresInstant(updatedAt)),
                version = \(version), deleted_at = \(deletedAt.map(PostgresInstant.init)),
                slot = \(meal.slot?.rawValue)
            WHERE id = \(meal.id) AND user_id = \(userId)
            """, logger: logger)
    }

    static func decode(_ rows: PostgresRowSequence) async throws -> [StoredMeal] {
        var meals: [StoredMeal] = []
        for try await row in rows { meals.append(try decode(row.makeRandomAccess())) }
        return meals
    }

    static func decode(_ row: PostgresRandomAccessRow) throws -> StoredMeal {
        guard let source = MealSource(rawValue: try row.value("source")) else { throw PostgresStoreErrors.unreadable }
        let slotText: String? = try row.value("slot")
        let slot = try slotText.map { text in
            guard let slot = MealSlot(rawValue: text) else { throw PostgresStoreErrors.unreadable }
            return slot
        }
        let meal = Meal(
            id: try row.value("id"), name: try row.value("name"), foodId: try row.value("food_id"), grams: try row.value("grams"),
            kcal: try row.value("kcal"), protein: try row.value("protein"), carbs: try row.value("carbs"),
            fat: try row.value("fat"), fiber: try row.value("fiber"), source: source, loggedAt: try row.instant("logged_at"), slot: slot
        )
        return StoredMeal(
            meal: meal, userId: try row.value("user_id"), localDate: try row.localDate("local_date"), version: try row.value("version"),
            createdAt: try row.instant("created_at"), updatedAt: try row.instant("updated_at"),
            deletedAt: try row.optionalInstant("deleted_at")
        )
    }
}
