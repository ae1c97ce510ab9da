/// A day's targets for one person: the rules of PRODUCT.md "Coach — rules" and its decisions table.
public struct Targets: Hashable, Codable, Sendable {
    public var bmr: Double
    public var tdee: Double
    /// Whole kcal, after the floor.
    public var calories: Int
    public var proteinGrams: Int
    public var fatGrams: Int
    public var carbsGrams: Int
    public var waterMl: Int
    /// The MATADOR state; nil when the plan does not cycle (maintain, gain, under 18, or before the start date).
    public var cycle: MatadorCycle.Status?
    /// Set when the floor raised the calories: the plan says so.
    public var floorApplied: Bool
    /// Set for a person under 18 who chose to lose weight: they get a maintenance plan.
    public var underageMaintenance: Bool

    public static let proteinKcalPerGram = 4.0
    public static let carbsKcalPerGram = 4.0
    public static let fatKcalPerGram = 9.0
    public static let fatGramsPerKg = 1.0
    public static let waterMlPerKg = 35.0
    public static let gainSurplusKcal = 250.0
    public static let adultAge = 18

    /// Mifflin-St Jeor: 10 × kg + 6.25 × cm − 5 × age + 5 (male), −161 (female), −78 (other, the mean of the two).
    public static func bmr(sex: Sex, weightKg: Double, heightCm: Double, age: Int) -> Double {
        let base = 10 * weightKg + 6.25 * heightCm - 5 * Double(age)
        switch sex {
        case .male: return base + 5
        case .female: return base - 161
        case .other: return base - 78
        }
    }

    /// The lowest calorie target the plan ever sets: max(BMR, 1,200 kcal for women, 1,500 for men and other).
    public static func floor(sex: Sex, bmr: Double) -> Double {
        max(bmr, sex == .female ? 1_200 : 1_500)
    }

    /// Protein by goal and fat at 1 g per kg of the latest weight; carbs fill the remaining calories, never negative.
    public static func macroGrams(calories: Int, weightKg: Double, goal: Goal) -> (protein: Int, fat: Int, carbs: Int) {
        let protein = Int((weightKg * goal.proteinGramsPerKg).rounded())
        let fat = Int((weightKg * fatGramsPerKg).rounded())
        let remaining = Double(calories) - Double(protein) * proteinKcalPerGram - Double(fat) * fatKcalPerGram
        return (protein, fat, Int(max(0, remaining / carbsKcalPerGram).rounded(.down)))
    }

    /// The weight a day's targets use (PRODUCT.md "current weight"): the current value of the latest day *before*
    /// `day` with a weight (daily values oldest first, as `WeightHistory.currentPerDay` or a store's daily read gives
    /// them). A weight logged on `day` itself moves the targets from the next day on; nil when none was logged before.
    public static func latestWeight(before day: LocalDate, in daily: [(date: LocalDate, kg: Double)]) -> Double? {
        daily.last { $0.date < day }?.kg
    }

    /// The same from the dashboard's weight days.
    public static func latestWeight(before day: LocalDate, in days: [WeightDay]) -> Double? {
        days.last { $0.date < day }?.kg
    }

    /// The targets of the user's local day `day` (PRODUCT.md, Coach — rules): from the profile's target inputs in
    /// force when the day began (`history`, over the profile as saved) and the latest weight logged before it began
    /// (`latestWeight(before:in:)`), or the profile's weight when none was. The one rule every page uses.
    public static func of(day: LocalDate, profile: Profile, history: PlanHistory, weightBeforeDayKg: Double?) -> Targets {
        compute(profile: history.profile(forTargetsOn: day, current: profile), latestWeightKg: weightBeforeDayKg, on: day)
    }

    /// The targets on `date` (the user's local date) from this profile's inputs and `latestWeightKg` when there is
    /// one: the formulas alone. Which inputs and which weight a day uses is `of(day:profile:history:weightBeforeDayKg:)`.
    public static func compute(profile: Profile, latestWeightKg: Double?, on date: LocalDate) -> Targets {
        let weight = latestWeightKg ?? profile.weightKg
        let age = profile.age(on: date)
        let bmr = bmr(sex: profile.sex, weightKg: weight, heightCm: profile.heightCm, age: age)
        let tdee = bmr * profile.activity.multiplier
        let underage = age < adultAge

        var cycle: MatadorCycle.Status?
        let planned: Double
        switch profile.goal {
        case .maintain:
            planned = tdee
        case .gain:
            planned = tdee + gainSurplusKcal
        case .lose where underage:
            planned = tdee
        case .lose:
            cycle = MatadorCycle(planStart: profile.planStartDate).status(on: date)
            planned = cycle?.calories(tdee: tdee, deficit: profile.deficit) ?? tdee
        }
        let floor = floor(sex: profile.sex, bmr: bmr)
        let calories = Int(max(planned, floor).rounded())

        let (protein, fat, carbs) = macroGrams(calories: calories, weightKg: weight, goal: profile.goal)

        return Targets(
            bmr: bmr, tdee: tdee, calories: calories, proteinGrams: protein, fatGrams: fat, carbsGrams: carbs,
            waterMl: Int((weight * waterMlPerKg).rounded()), cycle: cycle,
            floorApplied: planned < floor, underageMaintenance: underage && profile.goal == .lose
        )
    }
}
