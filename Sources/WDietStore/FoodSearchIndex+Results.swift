import WDietFoodData

extension FoodSearchIndex {
    /// The page for what a person typed: the foods found, best first, as a result row shows them.
    public func results(_ text: String, limit: Int) -> [FoodSearchResult] {
        search(text, limit: limit).map(result(at:))
    }

    /// The food at `position` in static order, as a result.
    public func result(at position: Int) -> FoodSearchResult {
        let entry = entries[position]
        return FoodSearchResult(
            id: entry.id, name: entry.longDescription, foodGroup: entry.foodGroupDescription, kcal: entry.kcal,
            protein: entry.protein, carbohydrate: entry.carbohydrate, fat: entry.fat, fiber: entry.fiber,
            measures: entry.measures
        )
    }
}
