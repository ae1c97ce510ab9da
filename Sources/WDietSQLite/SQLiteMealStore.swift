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

    public func deleteMeal(userId: UUID, id: UUID) async throws -> StoredMeal {
        let now = AppDatabase.instantText(now())
        return try await database.storeWrite { db in
            try MealRecord.tombstone(userId: AppDatabase.idText(userId), id: AppDatabase.idText(id), in: db, now: now).stored()
        }
    }

    public func meal(userId: UUID, id: UUID) async throws -> StoredMeal? {
        try await database.storeRead { db in
            try MealRecord
                .filter(key: AppDatabase.idText(id))
                .filter(MealRecord.Columns.userId == AppDatabase.idText(userId) && MealRecord.Columns.deletedAt == nil)
                .fetchOne(db)?
                .stored()
        }
    }

    public func meals(userId: UUID, on date: LocalDate) async throws -> [StoredMeal] {
        try await database.storeRead { db in
            try MealRecord
                .filter(MealRecord.Columns.userId == AppDatabase.idText(userId))
                .filter(MealRecord.Columns.localDate == date.iso && MealRecord.Columns.deletedAt == nil)
                .order(MealRecord.Columns.loggedAt.desc, MealRecord.Columns.createdAt.desc)
                .fetchAll(db)
                .map { try $0.stored() }
        }
    }
}
