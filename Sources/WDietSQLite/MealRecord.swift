import Foundation
import GRDB
import WDietCore
import WDietStore

/// A row of `meals`, column for column.
struct MealRecord: UserOwnedRecord {
    static let databaseTableName = "meals"
    static let displayName = "Meal"

    var id: String
    var userId: String
    var name: String
    var foodId: String?
    var grams: Double?
    var kcal: Double
    var protein: Double?
    var carbs: Double?
    var fat: Double?
    var fiber: Double?
    var source: String
    var loggedAt: String
    var localDate: String
    var createdAt: String
    var updatedAt: String
    var version: Int64
    var deletedAt: String?
    var slot: String?

    enum Columns {
        static let userId = Column(CodingKeys.userId)
        static let localDate = Column(CodingKeys.localDate)
        static let loggedAt = Column(CodingKeys.loggedAt)
        static let createdAt = Column(CodingKeys.createdAt)
        static let deletedAt = Column(CodingKeys.deletedAt)
    }

    /// A record for saving; the bookkeeping columns are filled in by `save(_:in:now:)`.
    init(_ meal: Meal, userId: UUID, localDate: LocalDate) {
        id = AppDatabase.idText(meal.id)
        self.userId = AppDatabase.idText(userId)
        name = meal.name
        foodId = meal.foodId
        grams = meal.grams
        kcal = meal.kcal
        protein = meal.protein
        carbs = meal.carbs
        fat = meal.fat
        fiber = meal.fiber
        source = meal.source.rawValue
        loggedAt = AppDatabase.instantText(meal.loggedAt)
        self.localDate = localDate.iso
        createdAt = ""
        updatedAt = ""
        version = 0
        deletedAt = nil
        slot = meal.slot?.rawValue
    }

    /// Column by column rather than through `Decodable`: the dashboard decodes meals on every load.
    init(row: Row) throws {
        id = row["id"]
        userId = row["userId"]
        name = row["name"]
        foodId = row["foodId"]
        grams = row["grams"]
        kcal = row["kcal"]
        protein = row["protein"]
        carbs = row["carbs"]
        fat = row["fat"]
        fiber = row["fiber"]
        source = row["source"]
        loggedAt = row["loggedAt"]
        localDate = row["localDate"]
        createdAt = row["createdAt"]
        updatedAt = row["updatedAt"]
        version = row["version"]
        deletedAt = row["deletedAt"]
        slot = row["slot"]
    }

    /// Every meal save inserts one: a cached statement with the columns in the table's order.
    func insertRow(_ db: Database) throws {
        let statement = try db.cachedStatement(sql: """
            INSERT INTO meals (id, userId, name, foodId, grams, kcal, protein, carbs, fat, fiber, source, loggedAt, localDate,
                createdAt, updatedAt, version, deletedAt, slot)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        try statement.execute(arguments: [
            id, userId, name, foodId, grams, kcal, protein, carbs, fat, fiber, source, loggedAt, localDate,
            createdAt, updatedAt, version, deletedAt, slot,
        ])
    }

    func updateRow(_ db: Database) throws {
        let statement = try db.cachedStatement(sql: """
            UPDATE meals SET userId = ?, name = ?, foodId = ?, grams = ?, kcal = ?, protein = ?, carbs = ?, fat = ?, fiber = ?,
                source = ?, loggedAt = ?, localDate = ?, createdAt = ?, updatedAt = ?, version = ?, deletedAt = ?,
                slot = ?
            WHERE id = ?
            """)
        try statement.execute(arguments: [
            userId, name, foodId, grams, kcal, protein, carbs, fat, fiber, source, loggedAt, localDate,
            createdAt, updatedAt, version, deletedAt, slot, id,
        ])
    }

    func stored() throws -> StoredMeal {
        guard let source = MealSource(rawValue: source) else { throw AppDatabase.unreadable }
        let slot = try slot.map { text in
            guard let slot = MealSlot(rawValue: text) else { throw AppDatabase.unreadable }
            return slot
        }
        let meal = Meal(
            id: try AppDatabase.id(fromText: id), name: name, foodId: foodId, grams: grams, kcal: kcal,
            protein: protein, carbs: carbs, fat: fat, fiber: fiber, source: source,
            loggedAt: try AppDatabase.instant(fromStoredText: loggedAt), slot: slot
        )
        return StoredMeal(
            meal: meal, userId: try AppDatabase.id(fromText: userId),
            localDate: try AppDatabase.localDate(fromText: localDate), version: version,
            createdAt: try AppDatabase.instant(fromStoredText: createdAt),
            updatedAt: try AppDatabase.instant(fromStoredText: updatedAt),
            deletedAt: try deletedAt.map(AppDatabase.instant(fromStoredText:))
        )
    }
}
