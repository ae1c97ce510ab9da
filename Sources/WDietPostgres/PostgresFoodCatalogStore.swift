import Foundation
import Logging
import PostgresNIO
import WDietFoodData
import WDietStore

/// `FoodCatalogStore` on PostgreSQL, the catalog's store. Search runs on the same in-memory index as the SQLite
/// store's (`FoodSearchIndex`), built from these tables, so both backends correct, replace, match, score and rank
/// with the same code on the same rows and return the same page.
public struct PostgresFoodCatalogStore: FoodCatalogStore {
    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger = Logger(label: "wdiet.postgres.food-catalog")) {
        self.client = client
        self.logger = logger
    }

    public func isLoaded() async throws -> Bool {
        try await guarded { try await PostgresFoodCatalogImport.isLoaded(client: client, logger: logger) }
    }

    public func searchFoods(_ query: String, limit: Int) async throws -> [FoodSearchResult] {
        try await guarded { try await search(query, limit: limit) }
    }

    public func prepareSearch() async throws -> Int? {
        try await guarded {
            guard try await PostgresFoodCatalogImport.isLoaded(client: client, logger: logger) else { return nil }
            return try await searchIndex().count
        }
    }

    public func food(id: String) async throws -> Food? {
        try await guarded { try await readFood(id: id) }
    }

    // MARK: Search

    /// The search runs on the catalog's in-memory index (`FoodSearchIndex`), built from this database once per
    /// catalog and shared with every store on the same catalog: the same code and the same rows as on SQLite, so
    /// the same page. One read of the catalog's hash per search, so that a re-import is searched at once (and a
    /// search on an empty database says so).
    func search(_ text: String, limit: Int) async throws -> [FoodSearchResult] {
        try await searchIndex().results(text, limit: limit)
    }

    func searchIndex() async throws -> FoodSearchIndex {
        let contentHash = try await catalogContentHash()
        if let index = FoodSearchIndexes.shared.index(for: contentHash) { return index }
        let index = try await buildSearchIndex()
        FoodSearchIndexes.shared.store(index)
        return index
    }

    func catalogContentHash() async throws -> String {
        let rows = try await client.query("SELECT content_hash FROM food_catalog_info WHERE id = 1", logger: logger)
        for try await hash in rows.decode(String.self) { return hash }
        throw StoreError.catalogMissing("The food catalog is empty. \(PostgresFoodCatalogImport.catalogHint)")
    }

    /// Every food in static order with its measures, read in one transaction so that the hash names those rows.
    public func buildSearchIndex() async throws -> FoodSearchIndex {
        try await client.withTransaction(logger: logger) { connection in
            var contentHash: String?
            for try await hash in try await connection.query(
                "SELECT content_hash FROM food_catalog_info WHERE id = 1", logger: logger
            ).decode(String.self) {
                contentHash = hash
            }
            guard let contentHash else {
                throw StoreError.catalogMissing("The food catalog is empty. \(PostgresFoodCatalogImport.catalogHint)")
            }
            var measures: [String: [HouseholdMeasure]] = [:]
            let measureRows = try await connection.query(
                "SELECT food_id, sequence, amount, description, grams FROM household_measure ORDER BY food_id, sequence",
                logger: logger)
            for try await (foodId, sequence, amount, description, grams) in measureRows.decode(
                (String, Int, Double, String, Double).self)
            {
                measures[foodId, default: []].append(
                    HouseholdMeasure(sequence: sequence, amount: amount, description: description, grams: grams))
            }
            var entries: [FoodSearchIndex.Entry] = []
            let rows = try await connection.query("""
                SELECT f.id, f.long_description, f.common_name, f.manufacturer, f.food_group_code, g.description,
                    f.search_prior, f.kcal, f.protein, f.carbohydrate, f.fat, f.fiber
                FROM food f JOIN food_group g ON g.code = f.food_group_code
                ORDER BY f.ordinal
                """, logger: logger)
            for try await (id, name, common, manufacturer, groupCode, group, prior, kcal, protein, carbohydrate, fat, fiber)
                in rows.decode(
                    (String, String, String?, String?, String, String, Double, Double?, Double?, Double?, Double?, Double?).self)
            {
                entries.append(FoodSearchIndex.Entry(
                    id: id, longDescription: name, commonName: common, manufacturer: manufacturer, foodGroupCode: groupCode,
                    foodGroupDescription: group, prior: prior, kcal: kcal, protein: protein, carbohydrate: carbohydrate,
                    fat: fat, fiber: fiber, measures: measures[id] ?? []))
            }
            return FoodSearchIndex(contentHash: contentHash, entries: entries)
        }
    }

    // MARK: One food

    func readFood(id: String) async throws -> Food? {
        let rows = try await client.query("""
            SELECT f.id, f.long_description, f.short_description, f.common_name, f.manufacturer, f.scientific_name,
                f.refuse_percent, f.is_survey_food, f.food_group_code, g.description
            FROM food f JOIN food_group g ON g.code = f.food_group_code
            WHERE f.id = \(id)
            """, logger: logger)
        var found: Food?
        for try await (foodId, long, short, common, manufacturer, scientific, refuse, survey, groupCode, group) in rows.decode(
            (String, String, String, String?, String?, String?, Double?, Bool, String, String).self)
        {
            found = Food(
                id: foodId, longDescription: long, shortDescription: short, commonName: common,
                manufacturer: manufacturer, scientificName: scientific, refusePercent: refuse, isSurveyFood: survey,
                foodGroupCode: groupCode, foodGroupDescription: group
            )
        }
        guard var food = found else { return nil }
        let nutrients = try await client.query("""
            SELECT n.nutrient_number, n.amount FROM food_nutrient n
            JOIN nutrient_definition d ON d.number = n.nutrient_number
            WHERE n.food_id = \(id) ORDER BY d.sort_order
            """, logger: logger)
        for try await (number, amount) in nutrients.decode((String, Double).self) {
            food.nutrients.append(NutrientValue(nutrientNumber: number, amount: amount))
        }
        let measures = try await client.query("""
            SELECT sequence, amount, description, grams FROM household_measure WHERE food_id = \(id) ORDER BY sequence
            """, logger: logger)
        for try await (sequence, amount, description, grams) in measures.decode((Int, Double, String, Double).self) {
            food.measures.append(HouseholdMeasure(sequence: sequence, amount: amount, description: description, grams: grams))
        }
        return food
    }

    // MARK: Errors

    /// Store errors pass through; anything PostgreSQL reports is logged in full and surfaces as `.unavailable`
    /// without SQL or server detail.
    func guarded<Result>(_ body: () async throws -> Result) async throws -> Result {
        try await PostgresStoreErrors.guarded(
            logger, unavailable: "The food catalog is unavailable right now. Please try again in a moment.", body)
    }
}
