/// USDA nutrient numbers (NUTR_DEF's Nutr_No) the app uses by name.
public enum NutrientNumber {
    /// Energy, kcal.
    public static let energyKcal = "208"
    /// Protein, g.
    public static let protein = "203"
    /// Total lipid (fat), g.
    public static let fat = "204"
    /// Carbohydrate, by difference, g.
    public static let carbohydrate = "205"
    /// Fiber, total dietary, g.
    public static let fiber = "291"
    /// Sugars, total, g.
    public static let sugars = "269"
    /// Sodium, Na, mg.
    public static let sodium = "307"
}
