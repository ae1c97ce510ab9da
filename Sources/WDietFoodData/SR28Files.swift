import Foundation

/// The raw bytes of the five SR28 files, exactly as USDA ships them.
public struct SR28Files: Sendable {
    public static let foodGroupsName = "FD_GROUP.txt"
    public static let foodsName = "FOOD_DES.txt"
    public static let nutrientDefinitionsName = "NUTR_DEF.txt"
    public static let nutrientValuesName = "NUT_DATA.txt"
    public static let measuresName = "WEIGHT.txt"
    public static let names = [foodGroupsName, foodsName, nutrientDefinitionsName, nutrientValuesName, measuresName]

    public var foodGroups: Data
    public var foods: Data
    public var nutrientDefinitions: Data
    public var nutrientValues: Data
    public var measures: Data

    public init(foodGroups: Data, foods: Data, nutrientDefinitions: Data, nutrientValues: Data, measures: Data) {
        self.foodGroups = foodGroups
        self.foods = foods
        self.nutrientDefinitions = nutrientDefinitions
        self.nutrientValues = nutrientValues
        self.measures = measures
    }

    /// Loads the five files from a directory, reporting all missing ones at once.
    public init(directory: URL) throws {
        let fileManager = FileManager.default
        let missing = Self.names.filter {
            !fileManager.fileExists(atPath: directory.appendingPathComponent($0).path)
        }
        guard missing.isEmpty else { throw SR28Error.missingFiles(missing, directory: directory.path) }
        func load(_ name: String) throws -> Data {
            do {
                return try Data(contentsOf: directory.appendingPathComponent(name), options: .alwaysMapped)
            } catch {
                throw SR28Error.unreadableFile(name, reason: error.localizedDescription)
            }
        }
        self.init(
            foodGroups: try load(Self.foodGroupsName), foods: try load(Self.foodsName),
            nutrientDefinitions: try load(Self.nutrientDefinitionsName),
            nutrientValues: try load(Self.nutrientValuesName), measures: try load(Self.measuresName)
        )
    }

    /// Whether all five files are in `directory`; the CLI uses it to pick a default folder.
    public static func exist(in directory: URL) -> Bool {
        names.allSatisfy { FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path) }
    }

    /// FNV-1a (64-bit) over each file's name, length and bytes. Not a defence against tampering, only a cheap way
    /// to notice that a re-import would change nothing.
    public var contentHash: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ bytes: UnsafeRawBufferPointer) {
            for byte in bytes {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            }
        }
        for (name, data) in zip(Self.names, [foodGroups, foods, nutrientDefinitions, nutrientValues, measures]) {
            Array("\(name):\(data.count):".utf8).withUnsafeBytes(mix)
            data.withUnsafeBytes(mix)
        }
        return String(hash, radix: 16)
    }
}
