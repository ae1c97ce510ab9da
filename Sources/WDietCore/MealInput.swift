import Foundation

/// Turns what a person entered into a `Meal`, with the messages the logging screens show.
public enum MealInput {
    public static let calorieRange = 1.0...9_999.0
    public static let gramsRange = 0.1...5_000.0
    public static let macroRange = 0.0...999.0
    public static let maxNameLength = 100
    public static var defaultManualName: String { Strings.current("meals.quickAddName") }

    public enum Message {
        public static var calories: String { Strings.current("meals.calories") }
        public static var macro: String { Strings.current("meals.macro") }
        /// "Protein must be between 0-999 g": what a manual meal's optional nutrient says when it is not a number in range.
        public static func range(_ field: Field) -> String {
            switch field {
            case .protein, .carbs, .fat, .fiber: return Strings.current("meals.\(field.rawValue)Range")
            default: return macro
            }
        }
        public static var amount: String { Strings.current("meals.amount") }
        public static var nameTooLong: String { Strings.current("meals.nameTooLong") }
    }

    public enum Field: String, Codable, Sendable { case name, calories, protein, carbs, fat, fiber, amount }

    public struct Invalid: Error, Hashable, Sendable {
        public var errors: [Field: String]

        public init(errors: [Field: String]) { self.errors = errors }
    }

    /// A manual meal: calories required (1–9999), macros and fiber optional.
    public static func manual(
        id: UUID = TimeOrderedUUID.make(), name: String, calories: NumericInput, protein: NumericInput = .missing,
        carbs: NumericInput = .missing, fat: NumericInput = .missing, fiber: NumericInput = .missing, loggedAt: Date
    ) throws(Invalid) -> Meal {
        var errors: [Field: String] = [:]
        let trimmed = name.trimmingWhitespacesAndNewlines()
        if trimmed.count > maxNameLength { errors[.name] = Message.nameTooLong }
        var kcal = 0.0
        if let value = calories.number, calorieRange.contains(value) { kcal = value } else { errors[.calories] = Message.calories }
        func optionalMacro(_ input: NumericInput, _ field: Field) -> Double? {
            switch input {
            case .missing: return nil
            case .invalid: errors[field] = Message.range(field); return nil
            case .value(let v):
                guard macroRange.contains(v) else { errors[field] = Message.range(field); return nil }
                return v
            }
        }
        let p = optionalMacro(protein, .protein), c = optionalMacro(carbs, .carbs)
        let f = optionalMacro(fat, .fat), fi = optionalMacro(fiber, .fiber)
        guard errors.isEmpty else { throw Invalid(errors: errors) }
        return Meal(
            id: id, name: trimmed.isEmpty ? defaultManualName : trimmed, kcal: kcal,
            protein: p, carbs: c, fat: f, fiber: fi, source: .manual, loggedAt: loggedAt
        )
    }

    /// The name a catalog food is logged under. USDA's names run to 134 characters and a meal's to 100: a long
    /// one is cut at a word (or comma) with an ellipsis.
    public static func mealName(forFood name: String) -> String {
        guard name.count > maxNameLength else { return name }
        var cut = String(name.prefix(maxNameLength - 1))
        if let space = cut.lastIndex(where: { $0 == " " || $0 == "," }), cut.distance(from: cut.startIndex, to: space) > 60 {
            cut = String(cut[..<space])
        }
        return cut.trimmingCharacters(in: CharacterSet(charactersIn: " ,")) + "…"
    }

    /// A meal from the catalog: an amount in grams of a food whose values are per 100 g.
    public static func fromFood(
        id: UUID = TimeOrderedUUID.make(), foodId: String, name: String, per100g: Nutrients, grams: Double, loggedAt: Date
    ) throws(Invalid) -> Meal {
        guard gramsRange.contains(grams) else { throw Invalid(errors: [.amount: Message.amount]) }
        let n = per100g.scaled(toGrams: grams)
        return Meal(
            id: id, name: name, foodId: foodId, grams: grams, kcal: n.kcal.roundedTo(1),
            protein: n.protein.roundedTo(1), carbs: n.carbs.roundedTo(1), fat: n.fat.roundedTo(1), fiber: n.fiber.roundedTo(1),
            source: .database, loggedAt: loggedAt
        )
    }
}

extension Double {
    /// Rounded to `places` decimals.
    func roundedTo(_ places: Int) -> Double {
        let factor = pow(10, Double(places))
        return (self * factor).rounded() / factor
    }
}
