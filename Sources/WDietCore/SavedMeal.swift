import Foundation

/// A saved meal or recipe (issue 17): a name, the foods it is made of, and how many servings they make ("My
/// porridge": oats 60 g, milk 200 ml, banana 1 medium; 1 serving). Each item keeps the values of its amount, computed
/// from the catalog when it was added, so the recipe's nutrients per serving are known offline and never change when
/// the catalog does. Kept as a generic sync row of the collection `saved_meal` (docs/sync.md).
public struct SavedMeal: Hashable, Codable, Sendable, Identifiable {
    public static let collection = "saved_meal"

    public var id: UUID
    public var name: String
    /// How many servings the items make (0.1–100).
    public var servings: Double
    public var items: [Item]
    /// The slot it is usually eaten in (for the Log Meal screen); optional.
    public var slot: MealSlot?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: UUID = TimeOrderedUUID.make(), name: String, servings: Double = 1, items: [Item], slot: MealSlot? = nil,
        createdAt: Date, updatedAt: Date? = nil
    ) {
        self.id = id
        self.name = name
        self.servings = servings
        self.items = items
        self.slot = slot
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
    }

    /// One food of a saved meal: a catalog food with its amount (grams, or a household measure with its grams), or a
    /// manual item with its values. `kcal`…`fiber` are the values of the whole amount.
    public struct Item: Hashable, Codable, Sendable {
        public var name: String
        public var foodId: String?
        public var grams: Double?
        /// The household measure the amount was given in ("medium (7\" to 7-7/8\" long)"), and how many of it.
        public var portion: String?
        public var quantity: Double?
        public var kcal: Double
        public var protein: Double?
        public var carbs: Double?
        public var fat: Double?
        public var fiber: Double?

        public init(
            name: String, foodId: String? = nil, grams: Double? = nil, portion: String? = nil, quantity: Double? = nil,
            kcal: Double, protein: Double? = nil, carbs: Double? = nil, fat: Double? = nil, fiber: Double? = nil
        ) {
            self.name = name
            self.foodId = foodId
            self.grams = grams
            self.portion = portion
            self.quantity = quantity
            self.kcal = kcal
            self.protein = protein
            self.carbs = carbs
            self.fat = fat
            self.fiber = fiber
        }

        /// A catalog food's item: `grams` of a food whose values are per 100 g, each value rounded to 0.1 as a
        /// logged meal's is (`MealInput.fromFood`).
        public static func food(
            foodId: String, name: String, per100g: Nutrients, grams: Double, portion: String? = nil, quantity: Double? = nil
        ) -> Item {
            let n = per100g.scaled(toGrams: grams)
            return Item(
                name: name, foodId: foodId, grams: grams, portion: portion, quantity: quantity, kcal: n.kcal.roundedTo(1),
                protein: n.protein.roundedTo(1), carbs: n.carbs.roundedTo(1), fat: n.fat.roundedTo(1), fiber: n.fiber.roundedTo(1))
        }

        /// This item scaled by `factor` (servings eaten ÷ servings made), values to 0.1.
        public func scaled(by factor: Double) -> Item {
            guard factor != 1 else { return self }
            var item = self
            item.grams = grams.map { ($0 * factor).roundedTo(1) }
            item.quantity = quantity.map { ($0 * factor).roundedTo(2) }
            item.kcal = (kcal * factor).roundedTo(1)
            item.protein = protein.map { ($0 * factor).roundedTo(1) }
            item.carbs = carbs.map { ($0 * factor).roundedTo(1) }
            item.fat = fat.map { ($0 * factor).roundedTo(1) }
            item.fiber = fiber.map { ($0 * factor).roundedTo(1) }
            return item
        }

        /// The item logged as a meal.
        public func meal(id: UUID = TimeOrderedUUID.make(), loggedAt: Date, slot: MealSlot?) -> Meal {
            Meal(
                id: id, name: name, foodId: foodId, grams: foodId == nil ? nil : grams, kcal: kcal, protein: protein,
                carbs: carbs, fat: fat, fiber: fiber, source: foodId == nil ? .manual : .database, loggedAt: loggedAt, slot: slot)
        }
    }

    /// What all the items add up to (a missing macro counts as 0), to 0.1.
    public var total: Nutrients {
        var sum = Nutrients(kcal: 0, protein: 0, carbs: 0, fat: 0, fiber: 0)
        for item in items {
            sum.kcal += item.kcal
            sum.protein += item.protein ?? 0
            sum.carbs += item.carbs ?? 0
            sum.fat += item.fat ?? 0
            sum.fiber += item.fiber ?? 0
        }
        return sum.rounded()
    }

    /// One serving's values: the total divided by `servings`, to 0.1.
    public var perServing: Nutrients {
        let t = total
        let n = servings > 0 ? servings : 1
        return Nutrients(kcal: t.kcal / n, protein: t.protein / n, carbs: t.carbs / n, fat: t.fat / n, fiber: t.fiber / n).rounded()
    }

    /// The meals that logging `servingsEaten` servings makes (default one serving): each item scaled by
    /// `servingsEaten / servings`, at `loggedAt` in `slot`, with the ids given (or new ones).
    public func meals(servingsEaten: Double = 1, loggedAt: Date, slot: MealSlot?, ids: [UUID]? = nil) -> [Meal] {
        let factor = servingsEaten / (servings > 0 ? servings : 1)
        return items.enumerated().map { index, item in
            let id = ids.flatMap { index < $0.count ? $0[index] : nil } ?? TimeOrderedUUID.make()
            return item.scaled(by: factor).meal(id: id, loggedAt: loggedAt, slot: slot)
        }
    }

    /// The rules of a saved meal, messages keyed by the API's members (`items.1.calories`): a name of 1–100
    /// characters, 1–50 items, servings 0.1–100; a catalog item's grams 0.1–5000 and values 0–9999; a manual item's
    /// name 1–100, calories 1–9999 and macros 0–999.
    public func validate() throws(LoggingInput.Invalid) {
        var errors: [String: String] = [:]
        LoggingInput.checkName(name, member: "name", errors: &errors)
        if !LoggingInput.servingsRange.contains(servings) { errors["servings"] = LoggingInput.Message.servings }
        if items.isEmpty || items.count > LoggingInput.maxItems { errors["items"] = LoggingInput.Message.items }
        for (index, item) in items.enumerated() {
            let prefix = "items.\(index)."
            LoggingInput.checkName(item.name, member: prefix + "name", errors: &errors)
            if let foodId = item.foodId {
                if foodId.trimmingCharacters(in: .whitespaces).isEmpty || foodId.count > 20 {
                    errors[prefix + "foodId"] = LoggingInput.Message.foodId
                }
                if let grams = item.grams, MealInput.gramsRange.contains(grams) {} else { errors[prefix + "grams"] = MealInput.Message.amount }
                if !(0...9_999).contains(item.kcal) { errors[prefix + "calories"] = LoggingInput.Message.itemCalories }
                for (member, value) in [("protein", item.protein), ("carbs", item.carbs), ("fat", item.fat), ("fiber", item.fiber)] {
                    if let value, !(0...9_999).contains(value) { errors[prefix + member] = MealInput.Message.macro }
                }
            } else {
                if item.grams != nil { errors[prefix + "grams"] = LoggingInput.Message.gramsWithoutFood }
                LoggingInput.checkValues(
                    kcal: item.kcal, protein: item.protein, carbs: item.carbs, fat: item.fat, fiber: item.fiber, prefix: prefix,
                    errors: &errors)
            }
        }
        guard errors.isEmpty else { throw LoggingInput.Invalid(errors: errors) }
    }
}

extension Nutrients {
    /// Each value to 0.1.
    public func rounded() -> Nutrients {
        Nutrients(kcal: kcal.roundedTo(1), protein: protein.roundedTo(1), carbs: carbs.roundedTo(1), fat: fat.roundedTo(1), fiber: fiber.roundedTo(1))
    }
}
