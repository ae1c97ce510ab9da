import Foundation

/// A starred food (issue 17): a catalog food, or a manual meal with its name and nutrients. Kept as a generic sync
/// row of the collection `favourite` (docs/sync.md), so it syncs, is exported and is deleted with the account like
/// every row.
public struct Favourite: Hashable, Codable, Sendable, Identifiable {
    public static let collection = "favourite"

    public var id: UUID
    public var name: String
    /// The USDA NDB number of a catalog food; nil for a manual meal.
    public var foodId: String?
    /// A catalog food's portion when starred (grams), so that one tap logs it again; optional.
    public var grams: Double?
    /// A manual meal's values (a catalog food's come from the catalog when logged).
    public var kcal: Double?
    public var protein: Double?
    public var carbs: Double?
    public var fat: Double?
    public var fiber: Double?
    public var createdAt: Date

    public init(
        id: UUID = TimeOrderedUUID.make(), name: String, foodId: String? = nil, grams: Double? = nil, kcal: Double? = nil,
        protein: Double? = nil, carbs: Double? = nil, fat: Double? = nil, fiber: Double? = nil, createdAt: Date
    ) {
        self.id = id
        self.name = name
        self.foodId = foodId
        self.grams = grams
        self.kcal = kcal
        self.protein = protein
        self.carbs = carbs
        self.fat = fat
        self.fiber = fiber
        self.createdAt = createdAt
    }

    /// A favourite of a manual meal: its name and values.
    public init(id: UUID = TimeOrderedUUID.make(), meal: Meal, createdAt: Date) {
        if meal.source == .database, let foodId = meal.foodId {
            self.init(id: id, name: meal.name, foodId: foodId, grams: meal.grams, createdAt: createdAt)
        } else {
            self.init(
                id: id, name: meal.name, kcal: meal.kcal, protein: meal.protein, carbs: meal.carbs, fat: meal.fat,
                fiber: meal.fiber, createdAt: createdAt)
        }
    }

    public var isCatalogFood: Bool { foodId != nil }

    /// The rules of a favourite, with the messages of `logging.json` keyed by member: a name of 1–100 characters; a
    /// catalog food's id and optional grams (0.1–5000) and no values; a manual meal's 1–9999 kcal and optional
    /// macros (0–999).
    public func validate() throws(LoggingInput.Invalid) {
        var errors: [String: String] = [:]
        LoggingInput.checkName(name, member: "name", errors: &errors)
        if let foodId {
            if foodId.trimmingCharacters(in: .whitespaces).isEmpty || foodId.count > 20 {
                errors["foodId"] = LoggingInput.Message.foodId
            }
            if let grams, !MealInput.gramsRange.contains(grams) { errors["grams"] = MealInput.Message.amount }
            if kcal != nil || protein != nil || carbs != nil || fat != nil || fiber != nil {
                errors["calories"] = LoggingInput.Message.valuesWithFood
            }
        } else {
            if grams != nil { errors["grams"] = LoggingInput.Message.gramsWithoutFood }
            LoggingInput.checkValues(kcal: kcal, protein: protein, carbs: carbs, fat: fat, fiber: fiber, prefix: "", errors: &errors)
        }
        guard errors.isEmpty else { throw LoggingInput.Invalid(errors: errors) }
    }

    /// A manual favourite as a meal logged at `loggedAt` (a catalog food's is made from the catalog by the caller).
    public func manualMeal(id: UUID = TimeOrderedUUID.make(), loggedAt: Date, slot: MealSlot? = nil) -> Meal? {
        guard foodId == nil, let kcal else { return nil }
        return Meal(
            id: id, name: name, kcal: kcal, protein: protein, carbs: carbs, fat: fat, fiber: fiber, source: .manual,
            loggedAt: loggedAt, slot: slot)
    }
}

/// The shared rules and messages of favourites, saved meals and logging several items at once.
public enum LoggingInput {
    public static let maxItems = 50
    public static let servingsRange = 0.1...100.0

    public enum Message {
        public static var name: String { Strings.current("logging.name", ["max": String(MealInput.maxNameLength)]) }
        public static var foodId: String { Strings.current("logging.foodId") }
        public static var valuesWithFood: String { Strings.current("logging.valuesWithFood") }
        public static var gramsWithoutFood: String { Strings.current("logging.gramsWithoutFood") }
        public static var items: String { Strings.current("logging.items", ["max": String(maxItems)]) }
        public static var servings: String { Strings.current("logging.servings") }
        public static var slot: String { Strings.current("logging.slot") }
        public static var itemCalories: String { Strings.current("logging.itemCalories") }
    }

    /// Field → message, keyed by the API's member names (`items.2.grams` for an item's).
    public struct Invalid: Error, Hashable, Sendable {
        public var errors: [String: String]

        public init(errors: [String: String]) { self.errors = errors }
    }

    static func checkName(_ name: String, member: String, errors: inout [String: String]) {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty || trimmed.count > MealInput.maxNameLength { errors[member] = Message.name }
    }

    static func checkValues(
        kcal: Double?, protein: Double?, carbs: Double?, fat: Double?, fiber: Double?, prefix: String,
        errors: inout [String: String]
    ) {
        if let kcal, MealInput.calorieRange.contains(kcal) {} else { errors[prefix + "calories"] = MealInput.Message.calories }
        for (member, value) in [("protein", protein), ("carbs", carbs), ("fat", fat), ("fiber", fiber)] {
            if let value, !MealInput.macroRange.contains(value) { errors[prefix + member] = MealInput.Message.macro }
        }
    }
}
