import WDietCore

/// One food of the catalog as USDA describes it: nutrients per 100 g of edible portion and household measures.
public struct Food: Hashable, Sendable, Identifiable, Codable {
    /// The NDB number, kept as text with its leading zeros ("09040").
    public var id: String
    public var longDescription: String
    public var shortDescription: String
    public var commonName: String?
    public var manufacturer: String?
    public var scientificName: String?
    /// Percent of the food as purchased that is inedible (skin, bones, ...), when USDA gives it.
    public var refusePercent: Double?
    /// USDA's "Survey" flag: the food is used in the dietary surveys (FNDDS), which makes it an everyday food.
    public var isSurveyFood: Bool
    public var foodGroupCode: String
    public var foodGroupDescription: String
    /// Every value USDA publishes for the food, in NUT_DATA order; amounts per 100 g.
    public var nutrients: [NutrientValue]
    public var measures: [HouseholdMeasure]

    public init(
        id: String, longDescription: String, shortDescription: String = "", commonName: String? = nil,
        manufacturer: String? = nil, scientificName: String? = nil, refusePercent: Double? = nil, isSurveyFood: Bool = false,
        foodGroupCode: String, foodGroupDescription: String,
        nutrients: [NutrientValue] = [], measures: [HouseholdMeasure] = []
    ) {
        self.id = id
        self.longDescription = longDescription
        self.shortDescription = shortDescription
        self.commonName = commonName
        self.manufacturer = manufacturer
        self.scientificName = scientificName
        self.refusePercent = refusePercent
        self.isSurveyFood = isSurveyFood
        self.foodGroupCode = foodGroupCode
        self.foodGroupDescription = foodGroupDescription
        self.nutrients = nutrients
        self.measures = measures
    }

    /// The amount per 100 g of one nutrient, or nil when USDA has no value for this food.
    public func amount(of nutrientNumber: String) -> Double? {
        // A linear scan beats a dictionary here: a food has about 80 values and most callers ask for a few.
        nutrients.first { $0.nutrientNumber == nutrientNumber }?.amount
    }

    public var energyKcal: Double? { amount(of: NutrientNumber.energyKcal) }
    public var protein: Double? { amount(of: NutrientNumber.protein) }
    public var fat: Double? { amount(of: NutrientNumber.fat) }
    public var carbohydrate: Double? { amount(of: NutrientNumber.carbohydrate) }
    public var fiber: Double? { amount(of: NutrientNumber.fiber) }
    public var sugars: Double? { amount(of: NutrientNumber.sugars) }
    public var sodium: Double? { amount(of: NutrientNumber.sodium) }
}


extension Food {
    /// The values a meal is scaled from; a nutrient USDA does not report counts as 0.
    public var per100g: Nutrients {
        Nutrients(kcal: energyKcal ?? 0, protein: protein ?? 0, carbs: carbohydrate ?? 0, fat: fat ?? 0, fiber: fiber ?? 0)
    }
}
