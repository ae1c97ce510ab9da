import Foundation
import GRDB
import WDietCore
import WDietStore

/// `MealStore` on the SQLite gatekeeper.
public struct SQLiteMealStore: MealStore {
    let database: AppDatabase
    let now: @Sendable () -> Date

    /// `now` stamps `createdAt`, `updatedAt` and `deletedAt`; tests pass a fixed clock.
    public init(database: AppDatabase, now: @escaping @Sendable () -> Date = Date.init) {
        self.database = database
        self.now = now
    }

    public func saveMeal(_ meal: Meal, userId: UUID, timeZone: TimeZone) async throws -> StoredMeal {
        try StoreValidation.validate(meal)
        let record = MealRecord(meal, userId: userId, localDate: LocalDate(meal.loggedAt, in: timeZone))
        let now = AppDatabase.instantText(now())
        return try await database.storeWrite { db in
            try MealRecord.save(record, in: db, now: now).stored()
        }
    }

    public func saveMeal(_ meal: Meal, userId: UUID, timeZone: TimeZone, recording event: AnalyticsEvent) async throws -> SavedWithEvent<StoredMeal> {
        try StoreValidation.validate(meal)
        let record = MealRecord(meal, userId: userId, localDate: LocalDate(meal.loggedAt, in: timeZone))
        return try await database.saveWithEvent(record, event: event, userId: userId, now: AppDatabase.instantText(now())) { try $0.stored() }
    }

    public func saveMeals(_ meals: [Meal], userId: UUID, timeZone: TimeZone) async throws -> [StoredMeal] {
        for meal in meals { try StoreValidation.validate(meal) }
        let records = meals.map { MealRecord($0, userId: userId, localDate: LocalDate($0.loggedAt, in: timeZone)) }
        let now = AppDatabase.instantText(now())
        return try await database.storeWrite { db in
            try records.map { try MealRecord.save($0, in: db, now: now).stored() }
        }
    }

    public func deleteMeal(userId: UUID, id: UUID) async throws -> StoredMeal {
        let now = AppDatabase.instantText(now())
        return try await database.storeWrite { db in
            try MealRecord.tombstone(userId: AppDatabase.idText(userId), id: AppDatabase.idText(id), in: db, now: now).stored()
        }
    }

    public func restoreMeal(userId: UUID, id: UUID) async throws -> StoredMeal {
        let now = AppDatabase.instantText(now())
        return try await database.storeWrite { db in
            try MealRecord.restore(userId: AppDatabase.idText(userId), id: AppDatabase.idText(id), in: db, now: now).stored()
        }
    }

    public func meal(userId: UUID, id: UUID) async throws -> StoredMeal? {
        try await database.storeRead { db in
            // A cached statement: the query interface would build and authorize the SQL on every call.
            let statement = try db.cachedStatement(sql: "SELECT * FROM meals WHERE id = ? AND userId = ? AND deletedAt IS NULL")
            return try MealRecord.fetchOne(statement, arguments: [AppDatabase.idText(id), AppDatabase.idText(userId)])?.stored()
        }
    }

    public func meals(userId: UUID, on date: LocalDate) async throws -> [StoredMeal] {
        try await database.storeRead { db in try Self.meals(userId: userId, on: date, in: db) }
    }

    public func meals(userId: UUID, from start: LocalDate, through end: LocalDate, limit: Int) async throws -> [StoredMeal] {
        try await database.storeRead { db in
            let statement = try db.cachedStatement(sql: """
                SELECT * FROM meals WHERE userId = ? AND localDate BETWEEN ? AND ? AND deletedAt IS NULL
                ORDER BY loggedAt DESC, createdAt DESC LIMIT ?
                """)
            return try MealRecord.fetchAll(statement, arguments: [AppDatabase.idText(userId), start.iso, end.iso, max(0, limit)])
                .map { try $0.stored() }
        }
    }

    public func dayTotals(userId: UUID, from start: LocalDate, through end: LocalDate) async throws -> [LocalDate: DailyTotals] {
        try await database.storeRead { db in
            let statement = try db.cachedStatement(sql: """
                SELECT localDate, kcal, protein, carbs, fat, fiber FROM meals
                WHERE userId = ? AND localDate BETWEEN ? AND ? AND deletedAt IS NULL
                ORDER BY loggedAt DESC, createdAt DESC LIMIT ?
                """)
            var totals: [LocalDate: DailyTotals] = [:]
            var dates: [String: LocalDate] = [:]
            let rows = try Row.fetchCursor(statement, arguments: [AppDatabase.idText(userId), start.iso, end.iso, Self.dayTotalsMealLimit])
            while let row = try rows.next() {
                let text: String = row[0]
                let date = try dates[text] ?? AppDatabase.localDate(fromText: text)
                dates[text] = date
                totals[date, default: .zero].add(kcal: row[1], protein: row[2], carbs: row[3], fat: row[4], fiber: row[5])
            }
            return totals
        }
    }

    /// The read itself, for callers that combine several reads in one snapshot.
    static func meals(userId: UUID, on date: LocalDate, in db: Database) throws -> [StoredMeal] {
        // A cached statement: preparing it costs more than running it.
        let statement = try db.cachedStatement(sql: """
            SELECT * FROM meals WHERE userId = ? AND localDate = ? AND deletedAt IS NULL
            ORDER BY loggedAt DESC, createdAt DESC
            """)
        return try MealRecord.fetchAll(statement, arguments: [AppDatabase.idText(userId), date.iso]).map { try $0.stored() }
    }
}
