/// One macro on the macro card: "128/160g", a bar in the macro's colour, and a smiley for how the day goes.
public struct MacroProgress: Hashable, Codable, Sendable {
    public enum Macro: String, CaseIterable, Codable, Sendable {
        case protein, carbs, fat

        /// "PROTEIN", "CARBS", "FATS" as the macro card writes them.
        public var label: String {
            switch self {
            case .protein: Strings.current("dashboard.macroProtein")
            case .carbs: Strings.current("dashboard.macroCarbs")
            case .fat: Strings.current("dashboard.macroFat")
            }
        }

        /// The macro's identity colour (ring segment, label and bar).
        public var colorHex: String {
            switch self {
            case .protein: "#4CAF50"
            case .carbs: "#FFA726"
            case .fat: "#EF5350"
            }
        }
    }

    public enum Smiley: String, Codable, Sendable {
        case happy = "😊", neutral = "😐", sad = "😞"

        /// ≥70 % of the goal 😊, 50–69 % 😐, below 50 % 😞.
        public init(fraction: Double) {
            if fraction >= 0.70 - 1e-9 { self = .happy } else if fraction >= 0.50 - 1e-9 { self = .neutral } else { self = .sad }
        }
    }

    public var macro: Macro
    public var grams: Double
    public var goalGrams: Int
    /// Nil until the day's first meal: no judgement on an empty day.
    public var smiley: Smiley?

    public init(macro: Macro, grams: Double, goalGrams: Int, mealsLogged: Int) {
        self.macro = macro
        self.grams = grams
        self.goalGrams = goalGrams
        smiley = mealsLogged > 0 ? Smiley(fraction: fraction) : nil
    }

    /// Share of the goal reached; a goal of 0 g counts as met.
    public var fraction: Double { goalGrams > 0 ? grams / Double(goalGrams) : 1 }
    /// The bar's fill, capped at full.
    public var barFill: Double { min(1, max(0, fraction)) }
    /// "128/160g"
    public var label: String {
        let strings = Strings.current
        return strings("dashboard.macroGrams", ["eaten": strings.number(Int(grams.rounded())), "goal": strings.number(goalGrams)])
    }

    public static func all(totals: DailyTotals, targets: Targets) -> [MacroProgress] {
        [
            MacroProgress(macro: .protein, grams: totals.protein, goalGrams: targets.proteinGrams, mealsLogged: totals.mealCount),
            MacroProgress(macro: .carbs, grams: totals.carbs, goalGrams: targets.carbsGrams, mealsLogged: totals.mealCount),
            MacroProgress(macro: .fat, grams: totals.fat, goalGrams: targets.fatGrams, mealsLogged: totals.mealCount),
        ]
    }
}
