import WDietFoodData
import WDietStore

/// `FoodCatalogStore` on the SQLite gatekeeper's catalog reads.
public struct SQLiteFoodCatalogStore: FoodCatalogStore {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func isLoaded() async throws -> Bool {
        try database.isFoodCatalogLoaded
    }

    public func searchFoods(_ query: String, limit: Int) async throws -> [FoodSearchResult] {
        try database.searchFoods(query, limit: limit)
    }

    public func food(id: String) async throws -> Food? {
        try database.food(id: id)
    }
}
