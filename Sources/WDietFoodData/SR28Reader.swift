import Foundation

/// The USDA SR28 reader: bytes in, food values out. It reads the five ASCII files as USDA ships them
/// (`^` between fields, `~` around text, CRLF, Windows-1252) and checks every cross-reference, so that a
/// broken line is reported with its file and line number instead of being dropped.
public enum SR28Reader {
    static let foodGroupFields = ["FdGrp_Cd", "FdGrp_Desc"]
    static let foodFields = [
        "NDB_No", "FdGrp_Cd", "Long_Desc", "Shrt_Desc", "ComName", "ManufacName", "Survey", "Ref_desc", "Refuse",
        "SciName", "N_Factor", "Pro_Factor", "Fat_Factor", "CHO_Factor",
    ]
    static let nutrientDefinitionFields = ["Nutr_No", "Units", "Tagname", "NutrDesc", "Num_Dec", "SR_Order"]
    static let nutrientValueFields = [
        "NDB_No", "Nutr_No", "Nutr_Val", "Num_Data_Pts", "Std_Error", "Src_Cd", "Deriv_Cd", "Ref_NDB_No",
        "Add_Nutr_Mark", "Num_Studies", "Min", "Max", "DF", "Low_EB", "Up_EB", "Stat_cmt", "AddMod_Date", "CC",
    ]
    static let measureFields = ["NDB_No", "Seq", "Amount", "Msre_Desc", "Gm_Wgt", "Num_Data_Pts", "Std_Dev"]

    /// Reads and checks the five files in `directory`.
    public static func read(directory: URL) throws -> SR28Catalog {
        try parse(SR28Files(directory: directory))
    }

    /// Parses the five files' bytes. Throws `SR28Error` for the first malformed line.
    public static func parse(_ files: SR28Files) throws -> SR28Catalog {
        let groups = try files.foodGroups.withUnsafeBytes { try parseFoodGroups($0) }
        let definitions = try files.nutrientDefinitions.withUnsafeBytes { try parseNutrientDefinitions($0) }
        var foods = try files.foods.withUnsafeBytes { try parseFoods($0, groups: groups) }
        var index = [String: Int](minimumCapacity: foods.count)
        for (position, food) in foods.enumerated() { index[food.id] = position }
        try files.nutrientValues.withUnsafeBytes {
            try parseNutrientValues($0, into: &foods, index: index, definitions: definitions)
        }
        try files.measures.withUnsafeBytes { try parseMeasures($0, into: &foods, index: index) }
        return SR28Catalog(
            foodGroups: groups, nutrientDefinitions: definitions, foods: foods, contentHash: files.contentHash
        )
    }

    static func parseFoodGroups(_ bytes: UnsafeRawBufferPointer) throws -> [FoodGroup] {
        var scanner = SR28LineScanner(bytes: bytes, fileName: SR28Files.foodGroupsName, fieldNames: foodGroupFields)
        var groups: [FoodGroup] = []
        var seen = Set<String>()
        while try scanner.nextLine() {
            let code = try scanner.requiredText(0)
            guard seen.insert(code).inserted else { throw scanner.error(.duplicate("food group \(code)")) }
            groups.append(FoodGroup(code: code, description: try scanner.requiredText(1)))
        }
        return groups
    }

    static func parseNutrientDefinitions(_ bytes: UnsafeRawBufferPointer) throws -> [NutrientDefinition] {
        var scanner = SR28LineScanner(
            bytes: bytes, fileName: SR28Files.nutrientDefinitionsName, fieldNames: nutrientDefinitionFields
        )
        var definitions: [NutrientDefinition] = []
        var seen = Set<String>()
        while try scanner.nextLine() {
            let number = try scanner.requiredText(0)
            guard NutrientTable.code(of: scanner.bytes(0)) != nil else {
                throw scanner.error(.badNumber(field: "Nutr_No", text: number))
            }
            guard seen.insert(number).inserted else { throw scanner.error(.duplicate("nutrient \(number)")) }
            definitions.append(
                NutrientDefinition(
                    number: number, unit: try scanner.requiredText(1), tag: scanner.text(2),
                    description: try scanner.requiredText(3), decimals: try scanner.int(4),
                    sortOrder: try scanner.int(5)
                )
            )
        }
        return definitions
    }

    static func parseFoods(_ bytes: UnsafeRawBufferPointer, groups: [FoodGroup]) throws -> [Food] {
        var scanner = SR28LineScanner(bytes: bytes, fileName: SR28Files.foodsName, fieldNames: foodFields)
        let groupNames = Dictionary(groups.map { ($0.code, $0.description) }, uniquingKeysWith: { first, _ in first })
        var foods: [Food] = []
        foods.reserveCapacity(bytes.count / 140)
        var seen = Set<String>()
        while try scanner.nextLine() {
            let id = try scanner.requiredText(0)
            guard seen.insert(id).inserted else { throw scanner.error(.duplicate("food \(id)")) }
            let groupCode = try scanner.requiredText(1)
            guard let groupName = groupNames[groupCode] else { throw scanner.error(.unknownFoodGroup(groupCode)) }
            // The numeric fields are read even though only Refuse is kept: a bad number is a sign of a bad file.
            for field in [10, 11, 12, 13] { _ = try scanner.optionalDouble(field) }
            foods.append(
                Food(
                    id: id, longDescription: try scanner.requiredText(2), shortDescription: scanner.text(3),
                    commonName: scanner.optionalText(4), manufacturer: scanner.optionalText(5),
                    scientificName: scanner.optionalText(9), refusePercent: try scanner.optionalDouble(8),
                    isSurveyFood: scanner.text(6) == "Y",
                    foodGroupCode: groupCode, foodGroupDescription: groupName
                )
            )
        }
        return foods
    }

    static func parseNutrientValues(
        _ bytes: UnsafeRawBufferPointer, into foods: inout [Food], index: [String: Int],
        definitions: [NutrientDefinition]
    ) throws {
        var scanner = SR28LineScanner(
            bytes: bytes, fileName: SR28Files.nutrientValuesName, fieldNames: nutrientValueFields
        )
        let nutrients = NutrientTable(definitions)
        var foodLookup = FoodLookup(index: index)
        while try scanner.nextLine() {
            let position = try foodLookup.position(of: scanner)
            guard let nutrient = nutrients.number(for: scanner.bytes(1)) else {
                throw scanner.error(.unknownNutrient(scanner.text(1)))
            }
            let amount = try scanner.double(2)
            foods[position].nutrients.append(NutrientValue(nutrientNumber: nutrient, amount: amount))
        }
    }

    static func parseMeasures(_ bytes: UnsafeRawBufferPointer, into foods: inout [Food], index: [String: Int]) throws {
        var scanner = SR28LineScanner(bytes: bytes, fileName: SR28Files.measuresName, fieldNames: measureFields)
        var foodLookup = FoodLookup(index: index)
        while try scanner.nextLine() {
            let position = try foodLookup.position(of: scanner)
            let measure = HouseholdMeasure(
                sequence: try scanner.int(1), amount: try scanner.double(2),
                description: try scanner.requiredText(3), grams: try scanner.double(4)
            )
            _ = try scanner.optionalDouble(5)
            _ = try scanner.optionalDouble(6)
            foods[position].measures.append(measure)
        }
    }
}

/// Finds the food of a NUT_DATA or WEIGHT line. Both files are sorted by NDB number, so the previous line's
/// food usually matches and the dictionary (and a `String`) is only needed when the food changes.
private struct FoodLookup {
    let index: [String: Int]
    private var lastKey: [UInt8] = []
    private var lastPosition = 0

    init(index: [String: Int]) {
        self.index = index
    }

    mutating func position(of scanner: SR28LineScanner) throws -> Int {
        let key = scanner.bytes(0)
        if !lastKey.isEmpty, key.elementsEqual(lastKey) { return lastPosition }
        guard !key.isEmpty else { throw scanner.error(.missingValue(field: "NDB_No")) }
        let id = scanner.text(0)
        guard let position = index[id] else { throw scanner.error(.unknownFood(id)) }
        lastKey = Array(key)
        lastPosition = position
        return position
    }
}

/// Nutrient numbers are three digits, so a 1,000-slot table maps a line's bytes to the shared `String`
/// without hashing or allocating.
private struct NutrientTable {
    private var numbers: [String?] = Array(repeating: nil, count: 1000)

    init(_ definitions: [NutrientDefinition]) {
        for definition in definitions {
            definition.number.utf8.withContiguousStorageIfAvailable { bytes in
                if let code = Self.code(of: bytes) { numbers[code] = definition.number }
            }
        }
    }

    func number(for bytes: UnsafeBufferPointer<UInt8>) -> String? {
        Self.code(of: bytes).flatMap { numbers[$0] }
    }

    /// The numeric value of a one-to-three-digit nutrient number.
    static func code(of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard (1...3).contains(bytes.count) else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
