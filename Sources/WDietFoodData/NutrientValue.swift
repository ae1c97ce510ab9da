/// One nutrient of one food, per 100 g of edible portion.
public struct NutrientValue: Hashable, Sendable, Codable {
    /// NUTR_DEF's Nutr_No ("208").
    public var nutrientNumber: String
    public var amount: Double

    public init(nutrientNumber: String, amount: Double) {
        self.nutrientNumber = nutrientNumber
        self.amount = amount
    }
}
