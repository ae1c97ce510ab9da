import Foundation
import GRDB
import WDietFoodData
import WDietSQLite

/// SR28 imported into SQLite once per test process, for every suite that reads the real catalog: the SQLite food
/// suites, the PostgreSQL suites that compare their pages with SQLite's, and (as a copy of its own, since route tests
/// create users in it) the server's. Each suite used to import its own: three imports of 679,045 nutrient values,
/// tens of seconds each in a debug build on the loaded 2-core machine. Its search index is built with it, so that no
/// test pays for (or races to build) the index.
public enum SR28TestDatabase {
    /// `../shared/datasets/usda-sr28` beside the package root, found from this file's path (any working directory).
    public static let dataDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // WDietTestSupport
        .deletingLastPathComponent()  // Sources
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("../shared/datasets/usda-sr28")
        .standardizedFileURL

    /// The imported catalog, read-only by convention: no suite writes to it after the import.
    /// Made off Swift's cooperative threads (`SharedTestValue` says why).
    public static let shared = SharedTestValue<AppDatabase> { try imported() }

    /// A copy of the imported catalog for a suite that writes beside it (users, meals): SQLite's backup of the
    /// in-memory database, a fraction of a second instead of an import.
    public static let copy = SharedTestValue<AppDatabase> {
        var config = Configuration()
        config.foreignKeysEnabled = true
        let queue = try DatabaseQueue(configuration: config)
        try imported().writer.backup(to: queue)
        return try AppDatabase(queue)
    }

    /// Keeps SR28's search index through the tiny catalogs other suites import in the same process (a server keeps
    /// two indexes; see `FoodSearchIndexes.capacity`).
    public static func keepIndexes() {
        if FoodSearchIndexes.shared.capacity < 16 { FoodSearchIndexes.shared.capacity = 16 }
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var made: Result<AppDatabase, any Error>?

    /// The one import, blocking its caller until it is there: called only from `SharedTestValue`'s own threads.
    private static func imported() throws -> AppDatabase {
        try lock.withLock {
            if let made { return try made.get() }
            let result = Result<AppDatabase, any Error> {
                keepIndexes()
                let database = try AppDatabase.inMemory()
                _ = try database.importFoodCatalog(from: dataDirectory)
                _ = try database.foodSearchIndex()
                return database
            }
            made = result
            return try result.get()
        }
    }
}
