import Foundation
import GRDB
import Testing
import WDietFoodData
import WDietSQLite
import WDietStore
import WDietTestSupport

/// The in-memory database with SR28 imported once per test process (`SR28TestDatabase`), shared by the food suites:
/// no suite writes to it after the import.
enum FoodCatalogTestDatabase {
    static var shared: SharedTestValue<AppDatabase> { SR28TestDatabase.shared }
}

/// Five tiny SR28 files in a temporary folder, for imports that must be fast or must fail.
struct SmallSR28Folder {
    let url: URL

    static let groups = ["~0100~^~Dairy and Egg Products~", "~0900~^~Fruits and Fruit Juices~"]
    static let foods = [
        "~01123~^~0100~^~Egg, whole, raw, fresh~^~EGG,WHL,RAW,FRSH~^^^~Y~^~Shell~^12^^6.25^4.36^9.02^3.68",
        "~09040~^~0900~^~Bananas, raw~^~BANANAS,RAW~^^^~Y~^~Skin~^36^~Musa acuminata Colla~^6.25^3.36^8.37^3.60",
        "~09041~^~0900~^~Bananas, dehydrated, or banana powder~^~BANANAS,DEHYD,OR BANANA PDR~^^^~Y~^^0^^6.25^3.36^8.37^3.60",
    ]
    static let definitions = [
        "~203~^~g~^~PROCNT~^~Protein~^~2~^~600~", "~204~^~g~^~FAT~^~Total lipid (fat)~^~2~^~800~",
        "~205~^~g~^~CHOCDF~^~Carbohydrate, by difference~^~2~^~1100~",
        "~208~^~kcal~^~ENERC_KCAL~^~Energy~^~0~^~300~", "~291~^~g~^~FIBTG~^~Fiber, total dietary~^~1~^~1200~",
        "~317~^~\u{B5}g~^~SE~^~Selenium, Se~^~1~^~6200~",
    ]
    static let values = [
        "~01123~^~203~^12.56^4^0.1^~1~^^^^^^^^^^^11/1976^", "~01123~^~208~^143^0^^~4~^~NC~^^^^^^^^^^11/1976^",
        "~09040~^~203~^1.09^3^^~1~^^^^^^^^^^^^", "~09040~^~204~^0.33^3^^~1~^^^^^^^^^^^^",
        "~09040~^~205~^22.84^0^^~4~^^^^^^^^^^^^", "~09040~^~208~^89^0^^~4~^^^^^^^^^^^^",
        "~09040~^~291~^2.6^0^^~4~^^^^^^^^^^^^", "~09040~^~317~^1.0^0^^~4~^^^^^^^^^^^^",
        "~09041~^~208~^346^0^^~4~^^^^^^^^^^^^",
    ]
    static let measures = [
        "~01123~^1^1^~large~^50^^", "~09040~^1^1^~cup, mashed~^225^^",
        "~09040~^2^1^~medium (7\" to 7-7/8\" long)~^118^^",
    ]

    init(foods: [String] = Self.foods, values: [String] = Self.values) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("sr28-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try write("FD_GROUP.txt", Self.groups)
        try write("FOOD_DES.txt", foods)
        try write("NUTR_DEF.txt", Self.definitions)
        try write("NUT_DATA.txt", values)
        try write("WEIGHT.txt", Self.measures)
    }

    func write(_ name: String, _ lines: [String]) throws {
        var data = Data()
        for line in lines {
            for scalar in line.unicodeScalars { data.append(scalar.value < 0x100 ? UInt8(scalar.value) : 0x3F) }
            data.append(contentsOf: [0x0D, 0x0A])
        }
        try data.write(to: url.appendingPathComponent(name))
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

@Suite("Food catalog import")
struct FoodCatalogImportTests {
    @Test func importsSmallFilesAndSecondRunChangesNothing() throws {
        let folder = try SmallSR28Folder()
        defer { folder.remove() }
        let database = try AppDatabase.inMemory()
        #expect(try database.isFoodCatalogLoaded == false)

        let first = try database.importFoodCatalog(from: folder.url)
        #expect(first.unchanged == false)
        #expect(first.foods == 3)
        #expect(first.nutrientValues == 9)
        #expect(first.householdMeasures == 3)
        #expect(first.nutrientDefinitions == 6)
        #expect(first.foodGroups == 2)
        #expect(try database.isFoodCatalogLoaded)

        let snapshot = try Self.snapshot(database)
        let second = try database.importFoodCatalog(from: folder.url)
        #expect(second.unchanged)
        #expect(second.foods == first.foods && second.nutrientValues == first.nutrientValues)
        #expect(second.contentHash == first.contentHash)
        #expect(try Self.snapshot(database) == snapshot)
    }

    @Test func changedFilesReplaceTheCatalog() throws {
        let folder = try SmallSR28Folder()
        defer { folder.remove() }
        let database = try AppDatabase.inMemory()
        _ = try database.importFoodCatalog(from: folder.url)
        try folder.write("FOOD_DES.txt", Array(SmallSR28Folder.foods.prefix(2)))
        try folder.write("NUT_DATA.txt", Array(SmallSR28Folder.values.prefix(8)))
        let again = try database.importFoodCatalog(from: folder.url)
        #expect(again.unchanged == false)
        #expect(again.foods == 2)
        #expect(try database.food(id: "09041") == nil)
        #expect(try database.searchFoods("banana", limit: 5).map(\.id) == ["09040"])
    }

    @Test func missingFilesAreCatalogMissing() throws {
        let database = try AppDatabase.inMemory()
        let nowhere = FileManager.default.temporaryDirectory.appendingPathComponent("no-sr28-\(UUID().uuidString)")
        do {
            _ = try database.importFoodCatalog(from: nowhere)
            Issue.record("import from a missing folder succeeded")
        } catch StoreError.catalogMissing(let message) {
            #expect(message.contains("FOOD_DES.txt"))
            #expect(message.contains("scripts/fetch-food-data.sh"))
        }
        #expect(try database.isFoodCatalogLoaded == false)
    }

    @Test func aMalformedLineFailsTheImportAndNamesFileAndLine() throws {
        var values = SmallSR28Folder.values
        values[4] = "~09040~^~205~^22,84^0^^~4~^^^^^^^^^^^^"
        let folder = try SmallSR28Folder(values: values)
        defer { folder.remove() }
        let database = try AppDatabase.inMemory()
        #expect(throws: StoreError.invalid("NUT_DATA.txt line 5: Nutr_Val is not a number: \"22,84\"")) {
            try database.importFoodCatalog(from: folder.url)
        }
        #expect(try database.isFoodCatalogLoaded == false)
    }

    @Test func searchingAnEmptyCatalogSaysHowToFillIt() throws {
        let database = try AppDatabase.inMemory()
        do {
            _ = try database.searchFoods("banana", limit: 5)
            Issue.record("search on an empty catalog succeeded")
        } catch StoreError.catalogMissing(let message) {
            #expect(message.contains("wdiet import-foods"))
            #expect(message.contains("scripts/fetch-food-data.sh"))
        }
    }


    /// A server's store on a file checks the catalog per search by SQLite's data version (`CatalogVersionWatch`),
    /// not by reading the hash: a catalog re-imported by another process (here another `AppDatabase` on the same
    /// file, its own connections) and one imported through the store itself are both searched at once.
    @Test func aCatalogReimportedOnTheFileIsSearchedAtOnce() throws {
        let folder = try SmallSR28Folder()
        defer { folder.remove() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-reimport-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("wdiet.sqlite").path
        let server = try AppDatabase.open(path: path)
        _ = try server.importFoodCatalog(from: folder.url)
        #expect(try server.searchFoods("banana", limit: 5).map(\.id) == ["09040", "09041"])
        #expect(try server.searchFoods("banana", limit: 5).map(\.id) == ["09040", "09041"])

        // `wdiet import-foods` from outside: the dehydrated bananas are gone.
        try folder.write("FOOD_DES.txt", Array(SmallSR28Folder.foods.prefix(2)))
        try folder.write("NUT_DATA.txt", Array(SmallSR28Folder.values.prefix(8)))
        let outside = try AppDatabase.open(path: path)
        #expect(try outside.importFoodCatalog(from: folder.url).foods == 2)
        #expect(try server.searchFoods("banana", limit: 5).map(\.id) == ["09040"])

        // Back to three foods, through the server's own store.
        try folder.write("FOOD_DES.txt", SmallSR28Folder.foods)
        try folder.write("NUT_DATA.txt", SmallSR28Folder.values)
        #expect(try server.importFoodCatalog(from: folder.url).foods == 3)
        #expect(try server.searchFoods("banana", limit: 5).map(\.id) == ["09040", "09041"])
        #expect(try outside.searchFoods("banana", limit: 5).map(\.id) == ["09040", "09041"])
    }
    /// Everything the import writes, in a stable order.
    static func snapshot(_ database: AppDatabase) throws -> [String] {
        try database.writer.read { db in
            var lines: [String] = []
            for sql in [
                "SELECT ordinal || '|' || id || '|' || longDescription || '|' || searchPrior FROM food ORDER BY ordinal",
                "SELECT foodId || '|' || nutrientNumber || '|' || amount FROM foodNutrient ORDER BY 1",
                "SELECT foodId || '|' || sequence || '|' || grams FROM householdMeasure ORDER BY 1",
                "SELECT contentHash || '|' || importedAt FROM foodCatalogInfo",
                "SELECT count(*) FROM foodSearch WHERE foodSearch MATCH 'banana'",
            ] {
                lines += try String.fetchAll(db, sql: sql)
            }
            return lines
        }
    }
}

@Suite("Food catalog reads on SR28")
struct FoodCatalogReadTests {
    @Test func fullCatalogCounts() async throws {
        let database = try await FoodCatalogTestDatabase.shared.value
        let counts = try await database.writer.read { db in
            try ["food", "foodNutrient", "householdMeasure", "foodGroup", "nutrientDefinition"].map {
                try Int.fetchOne(db, sql: "SELECT count(*) FROM \($0)") ?? 0
            }
        }
        #expect(counts == [8_789, 679_045, 15_438, 25, 150])
    }

    @Test func foodByIdHasEveryNutrientAndMeasure() async throws {
        let database = try await FoodCatalogTestDatabase.shared.value
        let banana = try #require(try database.food(id: "09040"))
        #expect(banana.longDescription == "Bananas, raw")
        #expect(banana.foodGroupDescription == "Fruits and Fruit Juices")
        #expect(banana.nutrients.count == 108)
        #expect(banana.energyKcal == 89)
        #expect(banana.protein == 1.09)
        #expect(banana.carbohydrate == 22.84)
        #expect(banana.fiber == 2.6)
        #expect(banana.measures.count == 8)
        #expect(banana.measures.first?.description == "cup, mashed")
        #expect(try database.food(id: "99999") == nil)
    }

    @Test func nutrientDefinitionsKeepMicrograms() async throws {
        let database = try await FoodCatalogTestDatabase.shared.value
        let definitions = try database.nutrientDefinitions()
        #expect(definitions.count == 150)
        #expect(definitions.first { $0.number == "418" }?.unit == "\u{B5}g")
    }

    @Test func searchResultCarriesMacrosAndMeasures() async throws {
        let database = try await FoodCatalogTestDatabase.shared.value
        let banana = try #require(try database.searchFoods("banana", limit: 3).first)
        #expect(banana == FoodSearchResult(
            id: "09040", name: "Bananas, raw", foodGroup: "Fruits and Fruit Juices", kcal: 89, protein: 1.09,
            carbohydrate: 22.84, fat: 0.33, fiber: 2.6, measures: try #require(try database.food(id: "09040")).measures
        ))
    }

    @Test func limitAndEmptyQueries() async throws {
        let database = try await FoodCatalogTestDatabase.shared.value
        #expect(try database.searchFoods("cheese", limit: 7).count == 7)
        #expect(try database.searchFoods("   ", limit: 7).isEmpty)
        #expect(try database.searchFoods("cheese", limit: 0).isEmpty)
        #expect(try database.searchFoods("qwxzzy", limit: 7).isEmpty)
    }

    @Test func queriesWithFTSSyntaxAreJustWords() async throws {
        let database = try await FoodCatalogTestDatabase.shared.value
        for text in ["\"banana", "banana OR", "NOT banana", "banana*", "ban:ana", "(banana", "NEAR(banana)", "'"] {
            _ = try database.searchFoods(text, limit: 5)
        }
        #expect(try database.searchFoods("macaroni and cheese", limit: 3).first?.name.lowercased().contains("macaroni") == true)
    }

    @Test func wordOrderDoesNotMatter() async throws {
        let database = try await FoodCatalogTestDatabase.shared.value
        let forward = try database.searchFoods("chicken breast roasted", limit: 5).map(\.id)
        let backward = try database.searchFoods("roasted breast chicken", limit: 5).map(\.id)
        #expect(Set(forward) == Set(backward))
        #expect(forward.contains("05064"))
    }

    @Test func oneLetterQueriesFindNothingInsteadOfEverything() async throws {
        let database = try await FoodCatalogTestDatabase.shared.value
        #expect(try database.searchFoods("b", limit: 5).isEmpty)
        // A one-letter last word is only used to order what the other words found.
        let results = try database.searchFoods("chicken b", limit: 5)
        #expect(!results.isEmpty)
        #expect(results.allSatisfy { $0.name.lowercased().contains("chicken") })
    }
}
