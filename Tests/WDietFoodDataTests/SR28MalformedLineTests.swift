import Foundation
import Testing
@testable import WDietFoodData

/// Small hand-made files in USDA's format, each broken in one way, to check that the reader names the
/// file and line instead of dropping the line.
@Suite("SR28 reader on malformed lines")
struct SR28MalformedLineTests {
    /// Windows-1252 bytes of the given lines, CRLF after each.
    static func bytes(_ lines: [String]) -> Data {
        var data = Data()
        for line in lines {
            for scalar in line.unicodeScalars {
                switch scalar.value {
                case 0x2018: data.append(0x91)
                case 0x2019: data.append(0x92)
                case 0...0xFF: data.append(UInt8(scalar.value))
                default: data.append(UInt8(ascii: "?"))
                }
            }
            data.append(contentsOf: [0x0D, 0x0A])
        }
        return data
    }

    static let groups = ["~0100~^~Dairy and Egg Products~", "~0900~^~Fruits and Fruit Juices~"]
    static let foods = [
        "~01123~^~0100~^~Egg, whole, raw, fresh~^~EGG,WHL,RAW,FRSH~^^^~Y~^~Shell~^12^^6.25^4.36^9.02^3.68",
        "~09040~^~0900~^~Bananas, raw~^~BANANAS,RAW~^^^~Y~^~Skin~^36^~Musa \u{2018}acuminata\u{2019}~^6.25^3.36^8.37^3.60",
    ]
    static let definitions = [
        "~203~^~g~^~PROCNT~^~Protein~^~2~^~600~",
        "~208~^~kcal~^~ENERC_KCAL~^~Energy~^~0~^~300~",
        "~317~^~\u{B5}g~^~SE~^~Selenium, Se~^~1~^~6200~",
    ]
    static let values = [
        "~01123~^~203~^12.56^4^0.1^~1~^^^^^^^^^^^11/1976^",
        "~01123~^~208~^143^0^^~4~^~NC~^^^^^^^^^^11/1976^",
        "~09040~^~203~^1.09^3^^~1~^^^^^^^^^^^^",
        "~09040~^~208~^89^0^^~4~^^^^^^^^^^^^",
        "~09040~^~317~^1.0^0^^~4~^^^^^^^^^^^^",
    ]
    static let measures = [
        "~01123~^1^1^~large~^50^^",
        "~09040~^1^.5^~cup, mashed~^112.5^^",
    ]

    static func files(
        groups: [String] = groups, foods: [String] = foods, definitions: [String] = definitions,
        values: [String] = values, measures: [String] = measures
    ) -> SR28Files {
        SR28Files(
            foodGroups: bytes(groups), foods: bytes(foods), nutrientDefinitions: bytes(definitions),
            nutrientValues: bytes(values), measures: bytes(measures)
        )
    }

    static func location(of files: SR28Files) -> (file: String, line: Int, problem: SR28LineProblem)? {
        do {
            _ = try SR28Reader.parse(files)
            return nil
        } catch SR28Error.malformedLine(let file, let line, let problem) {
            return (file, line, problem)
        } catch {
            return nil
        }
    }

    @Test func wellFormedFilesParse() throws {
        let catalog = try SR28Reader.parse(Self.files())
        #expect(catalog.foods.map(\.id) == ["01123", "09040"])
        #expect(catalog.foods[1].scientificName == "Musa \u{2018}acuminata\u{2019}")
        #expect(catalog.foods[1].energyKcal == 89)
        #expect(catalog.foods[1].amount(of: "317") == 1)
        #expect(catalog.foods[1].measures == [HouseholdMeasure(sequence: 1, amount: 0.5, description: "cup, mashed", grams: 112.5)])
        #expect(catalog.nutrientDefinitions[2].unit == "\u{B5}g")
        #expect(catalog.nutrientValueCount == 5)
    }

    @Test func plainLineFeedsAndAMissingFinalLineEndAreAccepted() throws {
        var files = Self.files()
        let lf = Self.foods.joined(separator: "\n")
        files.foods = Data(lf.utf8)
        let catalog = try SR28Reader.parse(files)
        #expect(catalog.foods.count == 2)
    }

    @Test func wrongFieldCount() throws {
        var values = Self.values
        values[3] = "~09040~^~208~^89^0^^~4~^^^^^^^^^^^"
        let found = try #require(Self.location(of: Self.files(values: values)))
        #expect(found.file == "NUT_DATA.txt")
        #expect(found.line == 4)
        #expect(found.problem == .fieldCount(expected: 18, found: 17))
    }

    @Test func tooManyFields() throws {
        var groups = Self.groups
        groups[1] = "~0900~^~Fruits~^~extra~"
        let found = try #require(Self.location(of: Self.files(groups: groups)))
        #expect(found.file == "FD_GROUP.txt")
        #expect(found.line == 2)
        #expect(found.problem == .fieldCount(expected: 2, found: 3))
    }

    @Test func emptyLineInTheMiddle() throws {
        let measures = [Self.measures[0], "", Self.measures[1]]
        let found = try #require(Self.location(of: Self.files(measures: measures)))
        #expect(found.file == "WEIGHT.txt")
        #expect(found.line == 2)
        #expect(found.problem == .fieldCount(expected: 7, found: 1))
    }

    @Test(arguments: ["8x9", "1.2.3", "", "abc", "-", "1e"])
    func badNutrientValue(text: String) throws {
        var values = Self.values
        values[1] = "~01123~^~208~^\(text)^0^^~4~^~NC~^^^^^^^^^^11/1976^"
        let found = try #require(Self.location(of: Self.files(values: values)))
        #expect(found.file == "NUT_DATA.txt")
        #expect(found.line == 2)
        if text.isEmpty {
            #expect(found.problem == .missingValue(field: "Nutr_Val"))
        } else {
            #expect(found.problem == .badNumber(field: "Nutr_Val", text: text))
        }
    }

    @Test func badGramWeight() throws {
        var measures = Self.measures
        measures[1] = "~09040~^1^1^~cup~^1O5^^"
        let found = try #require(Self.location(of: Self.files(measures: measures)))
        #expect(found.file == "WEIGHT.txt")
        #expect(found.line == 2)
        #expect(found.problem == .badNumber(field: "Gm_Wgt", text: "1O5"))
    }

    @Test func unknownFoodInNutrientValues() throws {
        var values = Self.values
        values.insert("~99999~^~208~^10^0^^~4~^^^^^^^^^^^^", at: 2)
        let found = try #require(Self.location(of: Self.files(values: values)))
        #expect(found.file == "NUT_DATA.txt")
        #expect(found.line == 3)
        #expect(found.problem == .unknownFood("99999"))
    }

    @Test func unknownFoodInMeasures() throws {
        let measures = Self.measures + ["~01124~^1^1^~large~^33^^"]
        let found = try #require(Self.location(of: Self.files(measures: measures)))
        #expect(found.file == "WEIGHT.txt")
        #expect(found.line == 3)
        #expect(found.problem == .unknownFood("01124"))
    }

    @Test func unknownNutrient() throws {
        var values = Self.values
        values[4] = "~09040~^~999~^1.0^0^^~4~^^^^^^^^^^^^"
        let found = try #require(Self.location(of: Self.files(values: values)))
        #expect(found.line == 5)
        #expect(found.problem == .unknownNutrient("999"))
    }

    @Test func unknownFoodGroup() throws {
        var foods = Self.foods
        foods[1] = foods[1].replacingOccurrences(of: "~0900~", with: "~0950~")
        let found = try #require(Self.location(of: Self.files(foods: foods)))
        #expect(found.file == "FOOD_DES.txt")
        #expect(found.line == 2)
        #expect(found.problem == .unknownFoodGroup("0950"))
    }

    @Test func unterminatedTextInTheLastField() throws {
        var definitions = Self.definitions
        definitions[1] = "~208~^~kcal~^~ENERC_KCAL~^~Energy~^~0~^~300"
        let found = try #require(Self.location(of: Self.files(definitions: definitions)))
        #expect(found.file == "NUTR_DEF.txt")
        #expect(found.line == 2)
        #expect(found.problem == .unterminatedText(field: "SR_Order"))
    }

    @Test func unterminatedTextInTheMiddle() throws {
        var foods = Self.foods
        foods[0] = "~01123~^~0100~^~Egg, whole, raw, fresh^~EGG,WHL,RAW,FRSH~^^^~Y~^~Shell~^12^^6.25^4.36^9.02^3.68"
        let found = try #require(Self.location(of: Self.files(foods: foods)))
        #expect(found.file == "FOOD_DES.txt")
        #expect(found.line == 1)
        #expect(found.problem == .unterminatedText(field: "Long_Desc"))
    }

    @Test func duplicateFood() throws {
        let foods = Self.foods + [Self.foods[0]]
        let found = try #require(Self.location(of: Self.files(foods: foods)))
        #expect(found.file == "FOOD_DES.txt")
        #expect(found.line == 3)
        #expect(found.problem == .duplicate("food 01123"))
    }

    @Test func errorDescriptionNamesFileAndLine() {
        let error = SR28Error.malformedLine(file: "NUT_DATA.txt", line: 42, problem: .badNumber(field: "Nutr_Val", text: "x"))
        #expect(error.description == "NUT_DATA.txt line 42: Nutr_Val is not a number: \"x\"")
    }

    @Test(arguments: [
        ("81.11", 81.11), ("0", 0), (".5", 0.5), ("0.074", 0.074), ("-3.25", -3.25), ("245", 245), ("1e3", 1000),
    ])
    func decimalsParseLikeTheStandardLibrary(text: String, expected: Double) {
        let parsed = Array(text.utf8).withUnsafeBufferPointer { DecimalParser.parse($0) }
        #expect(parsed == expected)
        #expect(parsed == Double(text))
    }

    @Test func windows1252HighRangeUsesTheCodePage() {
        let bytes: [UInt8] = [0x91, 0x92, 0x93, 0x94, 0x96, 0x80, 0xB5, 0xE9, 0x41]
        let decoded = bytes.withUnsafeBufferPointer { Windows1252.decode($0) }
        #expect(decoded == "\u{2018}\u{2019}\u{201C}\u{201D}\u{2013}\u{20AC}\u{B5}\u{E9}A")
    }
}
