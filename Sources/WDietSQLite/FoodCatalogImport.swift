import Foundation
import GRDB
import WDietFoodData
import WDietStore

extension AppDatabase {
    /// Imports the SR28 files in `directory`, replacing the catalog in one transaction. Idempotent: when the
    /// files' fingerprint matches the last import, nothing is parsed or written.
    ///
    /// Throws `StoreError.catalogMissing` when files are missing, `StoreError.invalid` (with file and line)
    /// when one is malformed.
    public func importFoodCatalog(from directory: URL) throws -> ImportSummary {
        let files: SR28Files
        do {
            files = try SR28Files(directory: directory)
        } catch let error as SR28Error {
            throw StoreError.catalogMissing("\(error). \(Self.catalogHint)")
        }
        let hash = files.contentHash
        if let summary = try writer.read({ db in try Self.unchangedSummary(db, contentHash: hash) }) {
            return summary
        }
        let catalog: SR28Catalog
        do {
            catalog = try SR28Reader.parse(files)
        } catch let error as SR28Error {
            throw StoreError.invalid(error.description)
        }
        return try replaceFoodCatalog(with: catalog)
    }

    /// Replaces the whole catalog with `catalog` in one transaction (unless it is the one already imported).
    /// The importer's second half; the benchmark uses it directly with a synthetic catalog.
    public func replaceFoodCatalog(with catalog: SR28Catalog) throws -> ImportSummary {
        try writer.write { db in
            if let summary = try Self.unchangedSummary(db, contentHash: catalog.contentHash) { return summary }
            try Self.deleteCatalog(db)
            try Self.insert(catalog, db)
            return ImportSummary(
                foods: catalog.foods.count, foodGroups: catalog.foodGroups.count,
                nutrientDefinitions: catalog.nutrientDefinitions.count, nutrientValues: catalog.nutrientValueCount,
                householdMeasures: catalog.measureCount, contentHash: catalog.contentHash, unchanged: false
            )
        }
    }

    /// What a user is told when the catalog is not there.
    static let catalogHint =
        "Import it with `wdiet import-foods --from DIR`; outside this environment, download SR28 with scripts/fetch-food-data.sh first."

    private static func unchangedSummary(_ db: Database, contentHash: String) throws -> ImportSummary? {
        let stored = try String.fetchOne(db, sql: "SELECT contentHash FROM foodCatalogInfo WHERE id = 1")
        guard stored == contentHash else { return nil }
        func count(_ table: String) throws -> Int {
            try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0
        }
        return ImportSummary(
            foods: try count("food"), foodGroups: try count("foodGroup"),
            nutrientDefinitions: try count("nutrientDefinition"), nutrientValues: try count("foodNutrient"),
            householdMeasures: try count("householdMeasure"), contentHash: contentHash, unchanged: true
        )
    }

    private static func deleteCatalog(_ db: Database) throws {
        try db.execute(sql: """
            DELETE FROM foodCatalogInfo;
            DELETE FROM foodNutrient;
            DELETE FROM householdMeasure;
            DELETE FROM food;
            DELETE FROM nutrientDefinition;
            DELETE FROM foodGroup;
            INSERT INTO foodSearch(foodSearch) VALUES ('delete-all');
            """)
    }

    private static func insert(_ catalog: SR28Catalog, _ db: Database) throws {
        let groups = try db.makeStatement(sql: "INSERT INTO foodGroup (code, description) VALUES (?, ?)")
        for group in catalog.foodGroups {
            try groups.execute(arguments: [group.code, group.description])
        }
        let definitions = try db.makeStatement(sql: """
            INSERT INTO nutrientDefinition (number, unit, tag, description, decimals, sortOrder)
            VALUES (?, ?, ?, ?, ?, ?)
            """)
        for definition in catalog.nutrientDefinitions {
            try definitions.execute(arguments: [
                definition.number, definition.unit, definition.tag, definition.description, definition.decimals,
                definition.sortOrder,
            ])
        }

        let foods = try db.makeStatement(sql: """
            INSERT INTO food (ordinal, id, foodGroupCode, longDescription, shortDescription, commonName, manufacturer,
                scientificName, refusePercent, isSurveyFood, kcal, protein, carbohydrate, fat, fiber, sugars, sodium,
                searchPrior)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let search = try db.makeStatement(sql: "INSERT INTO foodSearch (rowid, head, body, extra) VALUES (?, ?, ?, ?)")
        let nutrients = try db.makeStatement(sql: "INSERT INTO foodNutrient (foodId, nutrientNumber, amount) VALUES (?, ?, ?)")
        let measures = try db.makeStatement(sql: """
            INSERT INTO householdMeasure (foodId, sequence, amount, description, grams) VALUES (?, ?, ?, ?, ?)
            """)

        // Numbered from the most generic food down: see the schema's note on `food.ordinal`.
        let ordered = catalog.foods.indices
            .map { (index: $0, key: FoodSearchRanker.staticOrderKey(of: catalog.foods[$0])) }
            .sorted { $0.key != $1.key ? $0.key > $1.key : catalog.foods[$0.index].id < catalog.foods[$1.index].id }
        for (position, entry) in ordered.enumerated() {
            let food = catalog.foods[entry.index]
            let ordinal = position + 1
            try foods.execute(arguments: [
                ordinal, food.id, food.foodGroupCode, food.longDescription, food.shortDescription, food.commonName,
                food.manufacturer, food.scientificName, food.refusePercent, food.isSurveyFood, food.energyKcal,
                food.protein, food.carbohydrate, food.fat, food.fiber, food.sugars, food.sodium,
                FoodSearchRanker.prior(of: food),
            ])
            let document = FoodSearchDocument(food)
            try search.execute(arguments: [ordinal, document.head, document.body, document.extra])
            for value in food.nutrients {
                try nutrients.execute(arguments: [food.id, value.nutrientNumber, value.amount])
            }
            for measure in food.measures {
                try measures.execute(arguments: [
                    food.id, measure.sequence, measure.amount, measure.description, measure.grams,
                ])
            }
        }
        // One b-tree per index level instead of the dozens the inserts left: fewer seeks for every query.
        try db.execute(sql: "INSERT INTO foodSearch(foodSearch) VALUES ('optimize')")
        try db.execute(
            sql: "INSERT INTO foodCatalogInfo (id, contentHash, importedAt) VALUES (1, ?, ?)",
            arguments: [catalog.contentHash, ISO8601DateFormatter().string(from: Date())]
        )
    }
}
