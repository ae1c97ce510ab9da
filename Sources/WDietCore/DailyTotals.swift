/// What a day's meals add up to.
public struct DailyTotals: Hashable, Codable, Sendable {
    public var kcal: Double
    public var protein: Double
    public var carbs: Double
    public var fat: Double
    public var fiber: Double
    public var mealCount: Int

    public init(kcal: Double = 0, protein: Double = 0, carbs: Double = 0, fat: Double = 0, fiber: Double = 0, mealCount: Int = 0) {
        self.kcal = kcal
        self.protein = protein
        self.carbs = carbs
        self.fat = fat
        self.fiber = fiber
        self.mealCount = mealCount
    }

    /// Sums meals; a macro a meal did not record counts as 0 g (its calories land in the ring's neutral segment).
    public init<S: Sequence>(meals: S) where S.Element == Meal {
        self.init()
        for meal in meals { add(kcal: meal.kcal, protein: meal.protein, carbs: meal.carbs, fat: meal.fat, fiber: meal.fiber) }
    }

    /// Adds one meal's numbers (the rule of `init(meals:)`, for a store that reads only these columns).
    public mutating func add(kcal: Double, protein: Double?, carbs: Double?, fat: Double?, fiber: Double?) {
        self.kcal += kcal
        self.protein += protein ?? 0
        self.carbs += carbs ?? 0
        self.fat += fat ?? 0
        self.fiber += fiber ?? 0
        mealCount += 1
    }

    public static let zero = DailyTotals()
}
