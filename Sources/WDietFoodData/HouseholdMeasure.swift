/// A household portion of a food (WEIGHT.txt): `amount` × `description` weighs `grams`, e.g. 1 × "cup" = 245 g.
public struct HouseholdMeasure: Hashable, Sendable, Codable {
    /// USDA's sequence number of the measure within the food.
    public var sequence: Int
    public var amount: Double
    public var description: String
    public var grams: Double

    public init(sequence: Int, amount: Double, description: String, grams: Double) {
        self.sequence = sequence
        self.amount = amount
        self.description = description
        self.grams = grams
    }
}

extension HouseholdMeasure {
    /// The grams of `quantity` of this measure: 2 × "1 cup" (245 g) is 490 g; 3 × "0.5 cup" (61 g) is 183 g.
    public func grams(quantity: Double) -> Double { quantity * grams }

    /// "1 cup", "0.5 cup, sliced".
    public var label: String {
        let number = amount == amount.rounded() ? String(Int(amount)) : String(amount)
        return "\(number) \(description)"
    }
}

extension HouseholdMeasure {
    /// The portion a list of results shows calories for: a medium one ("1 medium (7\" to 7-7/8\" long)") when
    /// USDA lists one, otherwise USDA's first measure. Nil when there is none.
    public static func common(in measures: [HouseholdMeasure]) -> HouseholdMeasure? {
        measures.first { $0.description.lowercased().hasPrefix("medium") } ?? measures.first
    }
}
