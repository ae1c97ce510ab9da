import Foundation
import Testing
@testable import WDietFoodData

@Suite("SR28 reader on the real files")
struct SR28ReaderTests {
    let catalog: SR28Catalog

    init() async throws {
        catalog = try await SR28TestData.catalog.value
    }

    @Test func countsMatchTheRelease() {
        // The dataset README says 8,788 foods, counting CRLFs; FOOD_DES.txt's last line has none, and USDA's
        // own documentation of SR28 says 8,789 food items.
        #expect(catalog.foods.count == 8_789)
        #expect(catalog.nutrientDefinitions.count == 150)
        #expect(catalog.nutrientValueCount == 679_045)
        #expect(catalog.measureCount == 15_438)
        #expect(catalog.foodGroups.count == 25)
    }

    @Test func theLastFoodWithoutLineEndIsRead() throws {
        let turtle = try #require(catalog.foods.last)
        #expect(turtle.id == "93600")
        #expect(turtle.longDescription == "Turtle, green, raw")
        #expect(turtle.foodGroupDescription == "Finfish and Shellfish Products")
    }

    @Test func bananasRaw() throws {
        let banana = try #require(catalog.food(id: "09040"))
        #expect(banana.longDescription == "Bananas, raw")
        #expect(banana.shortDescription == "BANANAS,RAW")
        #expect(banana.scientificName == "Musa acuminata Colla")
        #expect(banana.refusePercent == 36)
        #expect(banana.foodGroupCode == "0900")
        #expect(banana.foodGroupDescription == "Fruits and Fruit Juices")
        #expect(banana.commonName == nil)
        #expect(banana.manufacturer == nil)
        #expect(banana.nutrients.count == 108)
        #expect(banana.energyKcal == 89)
        #expect(banana.protein == 1.09)
        #expect(banana.fat == 0.33)
        #expect(banana.carbohydrate == 22.84)
        #expect(banana.fiber == 2.6)
        #expect(banana.sugars == 12.23)
        #expect(banana.sodium == 1)
        #expect(banana.measures.count == 8)
        #expect(banana.measures.first == HouseholdMeasure(sequence: 1, amount: 1, description: "cup, mashed", grams: 225))
        #expect(banana.measures.contains(HouseholdMeasure(
            sequence: 5, amount: 1, description: "medium (7\" to 7-7/8\" long)", grams: 118)))
    }

    @Test func wholeEggAndZeroFiber() throws {
        let egg = try #require(catalog.food(id: "01123"))
        #expect(egg.longDescription == "Egg, whole, raw, fresh")
        #expect(egg.energyKcal == 143)
        #expect(egg.protein == 12.56)
        #expect(egg.fiber == 0)
        #expect(egg.sodium == 142)
        #expect(egg.measures.contains(HouseholdMeasure(sequence: 1, amount: 1, description: "large", grams: 50)))
    }

    @Test func yogurtCupWeighs245Grams() throws {
        let yogurt = try #require(catalog.food(id: "01116"))
        #expect(yogurt.longDescription == "Yogurt, plain, whole milk, 8 grams protein per 8 ounce")
        #expect(yogurt.measures.contains(HouseholdMeasure(sequence: 4, amount: 1, description: "cup (8 fl oz)", grams: 245)))
        // ".5" has no leading zero in WEIGHT.txt.
        #expect(yogurt.measures.contains(HouseholdMeasure(sequence: 3, amount: 0.5, description: "container (4 oz)", grams: 113)))
    }

    @Test func manufacturerIsRead() throws {
        let penne = try #require(catalog.food(id: "22996"))
        #expect(penne.manufacturer == "Kellogg, Co.")
        #expect(penne.foodGroupDescription == "Meals, Entrees, and Side Dishes")
    }

    @Test func curlyQuotesAreDecodedFromWindows1252() throws {
        let kiwi = try #require(catalog.food(id: "09520"))
        #expect(kiwi.scientificName == "Actinidia chinensis \u{2018}Zesy002\u{2019} (Gold3)")
        #expect(kiwi.commonName == "Gold3")
    }

    @Test func latin1LettersAreDecoded() throws {
        let penne = try #require(catalog.food(id: "22996"))
        #expect(penne.measures.first?.description == "Entr\u{E9}e")
    }

    @Test func microgramUnitIsDecoded() throws {
        let definitions = Dictionary(uniqueKeysWithValues: catalog.nutrientDefinitions.map { ($0.number, $0) })
        let selenium = try #require(definitions["317"])
        #expect(selenium.unit == "\u{B5}g")
        #expect(selenium.tag == "SE")
        #expect(selenium.description == "Selenium, Se")
        #expect(catalog.nutrientDefinitions.filter { $0.unit == "\u{B5}g" }.count == 21)
        let energy = try #require(definitions["208"])
        #expect(energy == NutrientDefinition(
            number: "208", unit: "kcal", tag: "ENERC_KCAL", description: "Energy", decimals: 0, sortOrder: 300))
        // Vitamin B-12, added has no INFOODS tag.
        #expect(definitions["578"]?.tag == "")
    }

    @Test func everyValueReferencesADefinedNutrient() {
        let numbers = Set(catalog.nutrientDefinitions.map(\.number))
        let unknown = catalog.foods.flatMap(\.nutrients).filter { !numbers.contains($0.nutrientNumber) }
        #expect(unknown.isEmpty)
    }

    @Test func contentHashIsStable() throws {
        let again = try SR28Files(directory: SR28TestData.directory).contentHash
        #expect(again == catalog.contentHash)
        #expect(again.count >= 8)
    }

    @Test func missingDirectoryNamesTheFiles() {
        let nowhere = URL(fileURLWithPath: "/nonexistent/sr28")
        #expect(throws: SR28Error.missingFiles(SR28Files.names, directory: "/nonexistent/sr28")) {
            try SR28Reader.read(directory: nowhere)
        }
    }
}
