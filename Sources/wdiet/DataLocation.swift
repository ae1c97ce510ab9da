import Foundation
import WDietFoodData
import WDietSQLite

/// Where the command line finds the SR28 files and the database. Only the command line reads the environment.
enum DataLocation {
    static let defaultFoodDataPath = "../shared/datasets/usda-sr28"
    static let environmentVariable = "WDIET_FOOD_DATA"
    static let defaultDatabasePath = "wdiet.sqlite"

    /// The folders tried, in order: `--from`, then `WDIET_FOOD_DATA`, then `../shared/datasets/usda-sr28`.
    static func foodDataCandidates(from option: String?) -> [String] {
        if let option { return [option] }
        var candidates: [String] = []
        if let fromEnvironment = ProcessInfo.processInfo.environment[environmentVariable], !fromEnvironment.isEmpty {
            candidates.append(fromEnvironment)
        }
        candidates.append(defaultFoodDataPath)
        return candidates
    }

    /// The first candidate folder that holds all five SR28 files, or nil.
    static func foodDataDirectory(from option: String?) -> URL? {
        foodDataCandidates(from: option)
            .map { URL(fileURLWithPath: $0).standardizedFileURL }
            .first { SR28Files.exist(in: $0) }
    }

    /// One line for a user whose SR28 files were not found.
    static func missingFoodDataMessage(from option: String?) -> String {
        let looked = foodDataCandidates(from: option)
            .map { URL(fileURLWithPath: $0).standardizedFileURL.path }
            .joined(separator: ", then ")
        return "USDA SR28 food data not found (looked in \(looked)). "
            + "Download it with scripts/fetch-food-data.sh, then pass --from DIR or set \(environmentVariable)."
    }
}

extension DataLocation {
    /// A data or database problem the command line reports as one line (through `WDiet.main`), exit code 1.
    struct Failure: Error, CustomStringConvertible {
        var description: String

        init(_ description: String) {
            self.description = description
        }
    }

    /// Opens (and migrates) the database, turning SQLite's errors into one readable line.
    static func openDatabase(_ path: String) throws -> AppDatabase {
        do {
            return try AppDatabase.open(path: path)
        } catch {
            throw Failure("cannot open the database \(path): \(error)")
        }
    }
}
