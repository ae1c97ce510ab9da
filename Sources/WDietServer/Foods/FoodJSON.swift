import WDietCore
import WDietFoodData
import WDietStore

/// One food of the catalog as a client lists and logs it. Values are per 100 g of edible portion; a nutrient USDA
/// does not report is 0, as it counts when the food is logged.
struct FoodJSON: Encodable, Sendable {
    struct Portion: Encodable, Sendable, Equatable {
        /// "100 g", "1 cup (8 fl oz)": what `POST /meals` takes as `portion`.
        var label: String
        var grams: Double
    }

    var id: String
    var name: String
    var foodGroup: String
    var kcalPer100g: Double
    var proteinPer100g: Double
    var carbsPer100g: Double
    var fatPer100g: Double
    var fiberPer100g: Double
    /// "100 g" first, then USDA's household measures in their order.
    var portions: [Portion]

    init(_ result: FoodSearchResult) {
        id = result.id
        name = result.name
        foodGroup = result.foodGroup
        let n = result.per100g
        kcalPer100g = n.kcal
        proteinPer100g = n.protein
        carbsPer100g = n.carbs
        fatPer100g = n.fat
        fiberPer100g = n.fiber
        portions = Self.portions(result.measures)
    }

    static let hundredGrams = Portion(label: "100 g", grams: 100)

    static func portions(_ measures: [HouseholdMeasure]) -> [Portion] {
        [hundredGrams] + measures.map { Portion(label: $0.label, grams: $0.grams) }
    }
}
