/// One of the nutrients USDA reports (NUTR_DEF.txt).
public struct NutrientDefinition: Hashable, Sendable, Codable, Identifiable {
    /// Nutr_No, e.g. "208".
    public var number: String
    /// "g", "mg", "µg", "kcal", "kJ", "IU".
    public var unit: String
    /// The INFOODS tag ("ENERC_KCAL"); empty for the few nutrients that have none.
    public var tag: String
    public var description: String
    /// How many decimals USDA rounds this nutrient to.
    public var decimals: Int
    /// USDA's display order.
    public var sortOrder: Int

    public var id: String { number }

    public init(number: String, unit: String, tag: String, description: String, decimals: Int, sortOrder: Int) {
        self.number = number
        self.unit = unit
        self.tag = tag
        self.description = description
        self.decimals = decimals
        self.sortOrder = sortOrder
    }
}
