import WDietFoodData

import WDietCore

/// One food found by `FoodCatalogStore.searchFoods(_:limit:)`: enough to show it in a list and log it.
public struct FoodSearchResult: Hashable, Sendable, Codable, Identifiable {
    /// The NDB number ("09040").
    public var id: String
    public var name: String
    public var foodGroup: String
    /// Per 100 g of edible portion; nil when USDA has no value.
    public var kcal: Double?
    public var protein: Double?
    public var carbohydrate: Double?
    public var fat: Double?
    public var fiber: Double?
    public var measures: [HouseholdMeasure]

    public init(
        id: String, name: String, foodGroup: String, kcal: Double?, protein: Double?, carbohydrate: Double?,
        fat: Double?, fiber: Double?, measures: [HouseholdMeasure]
    ) {
        self.id = id
        self.name = name
        self.foodGroup = foodGroup
        self.kcal = kcal
        self.protein = protein
        self.carbohydrate = carbohydrate
        self.fat = fat
        self.fiber = fiber
        self.measures = measures
    }

    /// The values a meal is scaled from; a nutrient USDA does not report counts as 0.
    public var per100g: Nutrients {
        Nutrients(kcal: kcal ?? 0, protein: protein ?? 0, carbs: carbohydrate ?? 0, fat: fat ?? 0, fiber: fiber ?? 0)
    }
}
