import GRDB
import WDietFoodData
import WDietStore

/// `FoodCatalogStore` on the SQLite gatekeeper's catalog reads. The reads are GRDB's async ones: they wait for a
/// pool reader without blocking a thread of Swift's cooperative pool, which the server's requests share.
public struct SQLiteFoodCatalogStore: FoodCatalogStore {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func isLoaded() async throws -> Bool {
        try await database.writer.read { db in try AppDatabase.isCatalogLoaded(db) }
    }

    public func searchFoods(_ query: String, limit: Int) async throws -> [FoodSearchResult] {
        try await database.writer.read { db in try FoodSearch.search(db, text: query, limit: limit) }
    }

    public func food(id: String) async throws -> Food? {
        try await database.writer.read { db in try AppDatabase.food(db, id: id) }
    }
}
