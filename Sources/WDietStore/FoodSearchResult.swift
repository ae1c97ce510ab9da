import WDietFoodData

/// One food found by `AppDatabase.searchFoods(_:limit:)`: enough to show it in a list and log it.
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
}
