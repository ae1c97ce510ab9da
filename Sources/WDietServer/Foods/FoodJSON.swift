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

    /// The household measure a result row shows calories for, as `label` appears in `portions`.
    struct CommonPortion: Encodable, Sendable, Equatable {
        var label: String
        /// The label without USDA's asides: "1 medium" for "1 medium (7\" to 7-7/8\" long)".
        var shortLabel: String
        var grams: Double
        /// Calories of this portion, rounded.
        var kcal: Double
    }

    var id: String
    /// USDA's full name, as logged.
    var name: String
    /// The name shortened for reading ("Chicken, breast, cooked, roasted").
    var shortName: String
    var foodGroup: String
    var kcalPer100g: Double
    var proteinPer100g: Double
    var carbsPer100g: Double
    var fatPer100g: Double
    var fiberPer100g: Double
    /// "100 g" first, then USDA's household measures in their order.
    var portions: [Portion]
    /// A medium one when USDA lists it, else USDA's first measure; absent when it lists none.
    var commonPortion: CommonPortion?

    /// `shortName` when the page worked it out (`FoodSearchJSON`), else the food's own.
    init(_ result: FoodSearchResult, shortName: String? = nil) {
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
        self.shortName = shortName ?? FoodDisplayName.short(result.name)
        commonPortion = HouseholdMeasure.common(in: result.measures).map { measure in
            CommonPortion(
                label: measure.label, shortLabel: FoodDisplayName.withoutAsides(measure.label), grams: measure.grams,
                kcal: (n.kcal * measure.grams / 100).rounded())
        }
    }

    static let hundredGrams = Portion(label: "100 g", grams: 100)

    static func portions(_ measures: [HouseholdMeasure]) -> [Portion] {
        [hundredGrams] + measures.map { Portion(label: $0.label, grams: $0.grams) }
    }
}
