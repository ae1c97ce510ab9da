import WDietFoodData

/// The food catalog as the coach uses it: search while the person types, then one food to log.
public protocol FoodCatalogStore: Sendable {
    /// Whether a catalog has been imported; search throws `.catalogMissing` until then.
    func isLoaded() async throws -> Bool
    /// As-you-type search: word order free, plural-insensitive, the last word a prefix, the meant food first.
    func searchFoods(_ query: String, limit: Int) async throws -> [FoodSearchResult]
    /// Builds what search keeps in memory (the catalog's `FoodSearchIndex`) now instead of on the first search, and
    /// says how many foods it holds; nil when no catalog has been imported.
    func prepareSearch() async throws -> Int?
    /// One food with all its nutrients per 100 g and its household measures; nil for an unknown id.
    func food(id: String) async throws -> Food?
}
