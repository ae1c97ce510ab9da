/// Energy and macros for an amount of food; per 100 g in the catalog, scaled when a portion is logged.
public struct Nutrients: Hashable, Codable, Sendable {
    public var kcal: Double
    public var protein: Double
    public var carbs: Double
    public var fat: Double
    public var fiber: Double

    public init(kcal: Double, protein: Double, carbs: Double, fat: Double, fiber: Double) {
        self.kcal = kcal
        self.protein = protein
        self.carbs = carbs
        self.fat = fat
        self.fiber = fiber
    }

    /// Values for `grams` of a food whose values are given per 100 g.
    public func scaled(toGrams grams: Double) -> Nutrients {
        let f = grams / 100
        return Nutrients(kcal: kcal * f, protein: protein * f, carbs: carbs * f, fat: fat * f, fiber: fiber * f)
    }
}
