/// Everything SR28 holds, read and cross-checked: every nutrient value and measure sits in its food.
public struct SR28Catalog: Sendable {
    public var foodGroups: [FoodGroup]
    public var nutrientDefinitions: [NutrientDefinition]
    /// In FOOD_DES order (ascending NDB number).
    public var foods: [Food]
    /// A fingerprint of the five files' bytes, so an import can tell that nothing changed.
    public var contentHash: String

    public init(foodGroups: [FoodGroup], nutrientDefinitions: [NutrientDefinition], foods: [Food], contentHash: String) {
        self.foodGroups = foodGroups
        self.nutrientDefinitions = nutrientDefinitions
        self.foods = foods
        self.contentHash = contentHash
    }

    public var nutrientValueCount: Int { foods.reduce(0) { $0 + $1.nutrients.count } }
    public var measureCount: Int { foods.reduce(0) { $0 + $1.measures.count } }

    public func food(id: String) -> Food? {
        foods.first { $0.id == id }
    }
}
