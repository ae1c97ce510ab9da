import GRDB
import WDietFoodData
import WDietStore

/// `FoodCatalogStore` on the SQLite gatekeeper's catalog reads. Like `storeRead`, they run on the calling thread:
/// a search takes well under a millisecond, less than hopping to a GRDB queue and back costs under load.
public struct SQLiteFoodCatalogStore: FoodCatalogStore {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func isLoaded() async throws -> Bool {
        try database.readOnThisThread { db in try AppDatabase.isCatalogLoaded(db) }
    }

    public func searchFoods(_ query: String, limit: Int) async throws -> [FoodSearchResult] {
        try database.searchFoods(query, limit: limit)
    }

    public func prepareSearch() async throws -> Int? {
        guard try await isLoaded() else { return nil }
        return try database.foodSearchIndex().count
    }

    public func food(id: String) async throws -> Food? {
        try database.readOnThisThread { db in try AppDatabase.food(db, id: id) }
    }
}
