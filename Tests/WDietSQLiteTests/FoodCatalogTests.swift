import Foundation
import GRDB
import Testing
import WDietFoodData
import WDietSQLite
import WDietStore

/// One in-memory database with SR28 imported, shared by the food suites: importing takes seconds in a debug
/// build, and no suite writes to it after the import.
enum FoodCatalogTestDatabase {
    /// `shared/` sits beside the package root.
    static let dataDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // WDietSQLiteTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("../shared/datasets/usda-sr28")
        .standardizedFileURL

    static let shared: Result<AppDatabase, any Error> = Result {
        let database = try AppDatabase.inMemory()
        _ = try database.importFoodCatalog(from: dataDirectory)
        return database
    }
}
