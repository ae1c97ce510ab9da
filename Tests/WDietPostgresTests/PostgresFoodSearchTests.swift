import Foundation
import Logging
import PostgresNIO
import Testing
import WDietFoodData
import WDietPostgres
import WDietStore
import WDietTestSupport

/// Reads and searches on the full SR28 catalog in PostgreSQL.
@Suite("Food catalog reads on PostgreSQL", .sr28OnPostgres)
struct PostgresFoodSearchReadTests {
    @Test func foodByIdHasEveryNutrientAndMeasure() async throws {
        let banana = try #require(try await SR28OnPostgres.store().food(id: "09040"))
        #expect(banana.longDescription == "Bananas, raw")
        #expect(banana.foodGroupDescription == "Fruits and Fruit Juices")
        #expect(banana.scientificName == "Musa acuminata Colla")
        #expect(banana.refusePercent == 36)
        #expect(banana.nutrients.count == 108)
        #expect(banana.energyKcal == 89)
        #expect(banana.protein == 1.09)
        #expect(banana.carbohydrate == 22.84)
        #expect(banana.measures.map(\.grams) == [225, 150, 81, 101, 118, 136, 152, 126])
        #expect(banana.measures.first?.label == "1 cup, mashed")
        // Nutrients in USDA's display order, every value as SQLite reads it.
        #expect(banana == (try await SR28OnPostgres.sqlite.value.food(id: "09040")))
    }

    @Test(arguments: ["99999", "", "9040", "'; DROP TABLE food; --", "09040 "])
    func unknownIdIsNil(id: String) async throws {
        #expect(try await SR28OnPostgres.store().food(id: id) == nil)
    }

    @Test func resultsCarryTheFoodsPortions() async throws {
        let results = try await SR28OnPostgres.store().searchFoods("banana", limit: 5)
        let banana = try #require(results.first)
        #expect(banana.id == "09040")
        #expect(banana.kcal == 89)
        #expect(banana.fiber == 2.6)
        #expect(banana.measures.map(\.description).prefix(2) == ["cup, mashed", "cup, sliced"])
        // 2 × "1 medium" (118 g) is 236 g.
        #expect(banana.measures.first { $0.description.hasPrefix("medium") }?.grams(quantity: 2) == 236)
        let food = try #require(try await SR28OnPostgres.store().food(id: "09040"))
        #expect(banana.measures == food.measures)
        // A food USDA gives no portion for still comes back, with none.
        let kefir = try await SR28OnPostgres.store().searchFoods("Kefir, lowfat, plain, LIFEWAY", limit: 1)
        #expect(kefir.map(\.id) == ["01289"])
        #expect(kefir.first?.measures == [])
    }

    static let oddQueries = [
        "", " ", "%", "_", "%%", "'", "''", "\"", "\\", "'; DROP TABLE food; --", "a & b | !c", "chicken:*", "(", ")",
        "!", "<->", "é", "crème brûlée", "🍌", "banana🍌", "ch'icken", "o'brien", "1", "100%", "\u{0}",
        String(repeating: "a", count: 200), String(repeating: "chicken ", count: 25),
        String(repeating: "x y ", count: 50),
    ]

    @Test(arguments: oddQueries)
    func oddQueriesNeverError(query: String) async throws {
        let results = try await SR28OnPostgres.store().searchFoods(query, limit: 10)
        #expect(results.count <= 10)
        #expect(Set(results.map(\.id)).count == results.count)
    }

    @Test func limitIsHonoured() async throws {
        let store = try SR28OnPostgres.store()
        #expect(try await store.searchFoods("chicken", limit: 0).isEmpty)
        #expect(try await store.searchFoods("chicken", limit: -3).isEmpty)
        #expect(try await store.searchFoods("chicken", limit: 1).count == 1)
        let ten = try await store.searchFoods("chicken", limit: 10)
        let three = try await store.searchFoods("chicken", limit: 3)
        #expect(ten.count == 10)
        #expect(three.map(\.id) == Array(ten.prefix(3)).map(\.id))
        // A huge limit returns every ranked candidate once (at most 100: 50 by bm25, 50 in static order).
        let all = try await store.searchFoods("chicken", limit: 10_000)
        #expect(all.count > 50 && all.count <= 100)
        #expect(Set(all.map(\.id)).count == all.count)
    }

    /// Typed with a typo, the food is still found: words that match nothing are corrected against the catalog's
    /// vocabulary (`food_search_word`), as on SQLite (docs/food-search.md).
    static let typos: [(query: String, expected: Set<String>)] = [
        ("brocoli", ["11090"]), ("bananna", ["09040"]), ("strawbery", ["09316"]),
        ("chiken breast", FoodSearchRelevanceCases.chickenBreast), ("avocdo", ["09037"]),
    ]

    @Test(arguments: typos)
    func smallTyposStillFindTheFood(query: String, expected: Set<String>) async throws {
        let results = try await SR28OnPostgres.store().searchFoods(query, limit: 5)
        let top = try #require(results.first, "no result for \"\(query)\"")
        #expect(expected.contains(top.id), "\(FoodSearchRelevanceCases.describe(query, results.map { ($0.id, $0.name) }))")
    }

    @Test func secondImportChangesNothing() async throws {
        let client = try SR28OnPostgres.current().client
        let logger = Logger(label: "wdiet.test")
        #expect(try await PostgresFoodCatalogImport.importIfMissing(
            client: client, dataFolder: SR28OnPostgres.dataFolder, logger: logger) == false)
        let summary = try await PostgresFoodCatalogImport.importCatalog(
            client: client, from: SR28OnPostgres.dataFolder, logger: logger)
        #expect(summary.unchanged)
        let counts: [Int] = [
            summary.foods, summary.nutrientValues, summary.householdMeasures, summary.foodGroups,
            summary.nutrientDefinitions,
        ]
        #expect(counts == [8_789, 679_045, 15_438, 25, 150])
        #expect(try await SR28OnPostgres.store().isLoaded())
    }
}

/// Imports of small catalogs, each into its own scratch database.
@Suite("Food catalog import on PostgreSQL")
struct PostgresFoodSearchImportTests {
    let logger = Logger(label: "wdiet.test")

    static func withDatabase(_ body: (PostgresScratchDatabase) async throws -> Void) async throws {
        let database = try await PostgresScratchDatabase.create(migrations: PostgresFoodCatalogSchema.migrations)
        do {
            try await body(database)
        } catch {
            await database.drop()
            throw error
        }
        await database.drop()
    }

    static func count(_ table: String, _ client: PostgresClient) async throws -> Int {
        let rows = try await client.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table)"))
        for try await count in rows.decode(Int.self) { return count }
        return -1
    }

    @Test func emptyDatabaseSaysTheCatalogIsMissing() async throws {
        try await Self.withDatabase { database in
            let store = PostgresFoodCatalogStore(client: database.client)
            #expect(try await store.isLoaded() == false)
            #expect(try await store.prepareSearch() == nil)
            await #expect(throws: StoreError.self) { try await store.searchFoods("banana", limit: 5) }
            do {
                _ = try await store.searchFoods("", limit: 5)
                Issue.record("an empty catalog must say so")
            } catch StoreError.catalogMissing(let message) {
                #expect(message.contains("wdiet import-foods"))
            }
        }
    }

    @Test func missingFilesAreReportedByName() async throws {
        try await Self.withDatabase { database in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("no-sr28-\(UUID().uuidString)")
            do {
                _ = try await PostgresFoodCatalogImport.importIfMissing(
                    client: database.client, dataFolder: folder, logger: logger)
                Issue.record("a missing folder must fail")
            } catch StoreError.catalogMissing(let message) {
                #expect(message.contains("FOOD_DES.txt"))
            }
        }
    }

    /// Two processes starting together on an empty database: one imports, the other finds the catalog there.
    @Test func concurrentImportsImportOnce() async throws {
        try await Self.withDatabase { database in
            let folder = try TinySR28Folder()
            defer { folder.remove() }
            let client = database.client
            let logger = logger
            async let first = PostgresFoodCatalogImport.importIfMissing(client: client, dataFolder: folder.url, logger: logger)
            async let second = PostgresFoodCatalogImport.importIfMissing(client: client, dataFolder: folder.url, logger: logger)
            let outcomes = try await [first, second]
            #expect(outcomes.filter { $0 }.count == 1)
            #expect(try await Self.count("food", client) == 3)
            #expect(try await Self.count("food_nutrient", client) == 9)
            #expect(try await Self.count("household_measure", client) == 3)
            let results = try await PostgresFoodCatalogStore(client: client).searchFoods("banana", limit: 5)
            #expect(results.map(\.id) == ["09040", "09041"])
            #expect(try await PostgresFoodCatalogStore(client: client).prepareSearch() == 3)
        }
    }

    /// An import that fails half-way (here a nutrient value for a nutrient the file does not define) leaves the
    /// catalog that was there, whole.
    @Test func failedImportLeavesThePreviousCatalog() async throws {
        try await Self.withDatabase { database in
            let client = database.client
            let good = try TinySR28Folder.catalog()
            let summary = try await PostgresFoodCatalogImport.replaceCatalog(client: client, with: good, logger: logger)
            #expect(!summary.unchanged)
            let counts: [Int] = [summary.foods, summary.nutrientValues, summary.householdMeasures]
            #expect(counts == [3, 9, 3])

            var broken = good
            broken.contentHash = "broken"
            broken.foods[1].nutrients.append(NutrientValue(nutrientNumber: "999", amount: 1))
            await #expect(throws: (any Error).self) {
                try await PostgresFoodCatalogImport.replaceCatalog(client: client, with: broken, logger: logger)
            }
            #expect(try await Self.count("food", client) == 3)
            #expect(try await Self.count("food_nutrient", client) == 9)
            let banana = try await PostgresFoodCatalogStore(client: client).food(id: "09040")
            #expect(banana?.energyKcal == 89)
        }
    }

    @Test func newFilesReplaceTheWholeCatalog() async throws {
        try await Self.withDatabase { database in
            let client = database.client
            _ = try await PostgresFoodCatalogImport.replaceCatalog(
                client: client, with: try TinySR28Folder.catalog(), logger: logger)
            // One store across the re-import, as in a running server: what it learnt about the old catalog goes.
            let store = PostgresFoodCatalogStore(client: client)
            #expect(try await store.searchFoods("banana", limit: 5).map(\.id) == ["09040", "09041"])
            var smaller = try TinySR28Folder.catalog()
            smaller.foods.removeAll { $0.id != "09041" }
            smaller.contentHash = "smaller"
            let summary = try await PostgresFoodCatalogImport.replaceCatalog(client: client, with: smaller, logger: logger)
            #expect(summary.foods == 1 && !summary.unchanged)
            #expect(try await store.searchFoods("banana", limit: 5).map(\.id) == ["09041"])
            #expect(try await store.food(id: "09040") == nil)
            #expect(try await Self.count("household_measure", client) == 0)
            // The same catalog again: nothing written, counts as they are.
            let again = try await PostgresFoodCatalogImport.replaceCatalog(client: client, with: smaller, logger: logger)
            #expect(again.unchanged && again.foods == 1 && again.nutrientValues == 1)
        }
    }
}

/// Five tiny SR28 files (three foods) in a temporary folder.
struct TinySR28Folder {
    let url: URL

    static let files: [String: [String]] = [
        "FD_GROUP.txt": ["~0100~^~Dairy and Egg Products~", "~0900~^~Fruits and Fruit Juices~"],
        "FOOD_DES.txt": [
            "~01123~^~0100~^~Egg, whole, raw, fresh~^~EGG,WHL,RAW,FRSH~^^^~Y~^~Shell~^12^^6.25^4.36^9.02^3.68",
            "~09040~^~0900~^~Bananas, raw~^~BANANAS,RAW~^^^~Y~^~Skin~^36^~Musa acuminata Colla~^6.25^3.36^8.37^3.60",
            "~09041~^~0900~^~Bananas, dehydrated, or banana powder~^~BANANAS,DEHYD~^^^~Y~^^0^^6.25^3.36^8.37^3.60",
        ],
        "NUTR_DEF.txt": [
            "~203~^~g~^~PROCNT~^~Protein~^~2~^~600~", "~204~^~g~^~FAT~^~Total lipid (fat)~^~2~^~800~",
            "~205~^~g~^~CHOCDF~^~Carbohydrate, by difference~^~2~^~1100~",
            "~208~^~kcal~^~ENERC_KCAL~^~Energy~^~0~^~300~", "~291~^~g~^~FIBTG~^~Fiber, total dietary~^~1~^~1200~",
        ],
        "NUT_DATA.txt": [
            "~01123~^~203~^12.56^4^0.1^~1~^^^^^^^^^^^11/1976^", "~01123~^~208~^143^0^^~4~^^^^^^^^^^^11/1976^",
            "~09040~^~203~^1.09^3^^~1~^^^^^^^^^^^^", "~09040~^~204~^0.33^3^^~1~^^^^^^^^^^^^",
            "~09040~^~205~^22.84^0^^~4~^^^^^^^^^^^^", "~09040~^~208~^89^0^^~4~^^^^^^^^^^^^",
            "~09040~^~291~^2.6^0^^~4~^^^^^^^^^^^^", "~01123~^~204~^9.51^0^^~4~^^^^^^^^^^^^",
            "~09041~^~208~^346^0^^~4~^^^^^^^^^^^^",
        ],
        "WEIGHT.txt": [
            "~01123~^1^1^~large~^50^^", "~09040~^1^1^~cup, mashed~^225^^", "~09040~^2^1^~medium (7\" to 7-7/8\" long)~^118^^",
        ],
    ]

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tiny-sr28-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (name, lines) in Self.files {
            try Data(lines.map { $0 + "\r\n" }.joined().utf8).write(to: url.appendingPathComponent(name))
        }
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    static func catalog() throws -> SR28Catalog {
        let folder = try TinySR28Folder()
        defer { folder.remove() }
        return try SR28Reader.parse(try SR28Files(directory: folder.url))
    }
}
