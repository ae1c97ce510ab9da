import WDietCore

/// What a day's meals add up to, to one decimal.
struct TotalsJSON: Encodable, Sendable {
    var calories: Double
    var protein: Double
    var carbs: Double
    var fat: Double
    var fiber: Double
    var mealCount: Int

    init(_ totals: DailyTotals) {
        calories = Self.tenth(totals.kcal)
        protein = Self.tenth(totals.protein)
        carbs = Self.tenth(totals.carbs)
        fat = Self.tenth(totals.fat)
        fiber = Self.tenth(totals.fiber)
        mealCount = totals.mealCount
    }

    /// Sums of tenths drift (0.1 + 0.2); what goes out is rounded back to the tenth.
    static func tenth(_ value: Double) -> Double { Units.tenth(value) }
}
