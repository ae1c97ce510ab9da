import GRDB
import WDietFoodData
import WDietStore

extension AppDatabase {
    /// Whether a catalog has been imported.
    public var isFoodCatalogLoaded: Bool {
        get throws {
            try writer.read { db in try Self.isCatalogLoaded(db) }
        }
    }

    /// One food with all its nutrients per 100 g and its household measures; nil for an unknown id.
    public func food(id: String) throws -> Food? {
        try writer.read { db in try Self.food(db, id: id) }
    }

    /// One food, read on a connection the caller holds (the sync and async reads share it).
    static func food(_ db: Database, id: String) throws -> Food? {
        guard let row = try Row.fetchOne(db, sql: """
            SELECT f.id, f.longDescription, f.shortDescription, f.commonName, f.manufacturer, f.scientificName,
                f.refusePercent, f.isSurveyFood, f.foodGroupCode, g.description AS groupDescription
            FROM food f JOIN foodGroup g ON g.code = f.foodGroupCode
            WHERE f.id = ?
            """, arguments: [id])
        else { return nil }
        let nutrients = try Row.fetchAll(db, sql: """
            SELECT n.nutrientNumber, n.amount FROM foodNutrient n
            JOIN nutrientDefinition d ON d.number = n.nutrientNumber
            WHERE n.foodId = ? ORDER BY d.sortOrder
            """, arguments: [id])
            .map { NutrientValue(nutrientNumber: $0["nutrientNumber"], amount: $0["amount"]) }
        return Food(
            id: row["id"], longDescription: row["longDescription"], shortDescription: row["shortDescription"],
            commonName: row["commonName"], manufacturer: row["manufacturer"], scientificName: row["scientificName"],
            refusePercent: row["refusePercent"], isSurveyFood: row["isSurveyFood"],
            foodGroupCode: row["foodGroupCode"], foodGroupDescription: row["groupDescription"],
            nutrients: nutrients, measures: try Self.measures(db, foodIds: [id])[id] ?? []
        )
    }

    /// The 150 nutrients USDA reports, in USDA's display order.
    public func nutrientDefinitions() throws -> [NutrientDefinition] {
        try writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT number, unit, tag, description, decimals, sortOrder FROM nutrientDefinition ORDER BY sortOrder
                """)
                .map {
                    NutrientDefinition(
                        number: $0["number"], unit: $0["unit"], tag: $0["tag"], description: $0["description"],
                        decimals: $0["decimals"], sortOrder: $0["sortOrder"]
                    )
                }
        }
    }

    static func isCatalogLoaded(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM foodCatalogInfo)") ?? false
    }

    /// A JSON array of strings, for `json_each`. NDB numbers are digits, but anything else is escaped too.
    static func jsonArray(_ strings: [String]) -> String {
        let escaped = strings.map { string in
            "\"" + string.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        return "[" + escaped.joined(separator: ",") + "]"
    }

    /// Household measures of several foods, by food id, in USDA's sequence.
    static func measures(_ db: Database, foodIds: [String]) throws -> [String: [HouseholdMeasure]] {
        guard !foodIds.isEmpty else { return [:] }
        var measures: [String: [HouseholdMeasure]] = [:]
        // One cached statement whatever the number of ids: json_each instead of a list of placeholders.
        let statement = try db.cachedStatement(sql: """
            SELECT foodId, sequence, amount, description, grams FROM householdMeasure
            WHERE foodId IN (SELECT value FROM json_each(?)) ORDER BY foodId, sequence
            """)
        let rows = try Row.fetchCursor(statement, arguments: [jsonArray(foodIds)])
        while let row = try rows.next() {
            measures[row["foodId"], default: []].append(
                HouseholdMeasure(
                    sequence: row["sequence"], amount: row["amount"], description: row["description"],
                    grams: row["grams"]
                )
            )
        }
        return measures
    }
}
