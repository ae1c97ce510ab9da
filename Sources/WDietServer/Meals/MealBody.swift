import Foundation
import WDietCore
import WDietFoodData
import WDietStore

/// The body of `POST /api/v1/meals` and `PATCH /api/v1/meals/{id}`.
///
/// A manual meal: `{name?, calories, protein?, carbs?, fat?, fiber?}`. A catalog meal: `{foodId, grams}` or
/// `{foodId, portion, quantity?}` where `portion` is one of the food's portion labels ("1 cup (8 fl oz)").
/// Both take `loggedAt?` (default: now) and, on creation, a client-generated `id?` that makes a retry harmless.
struct MealBody: FlatJSONDecodable, Equatable, Sendable {
    var id: JSONField<String>
    var name: JSONField<String>
    var calories: JSONField<NumberInput>
    var protein: JSONField<NumberInput>
    var carbs: JSONField<NumberInput>
    var fat: JSONField<NumberInput>
    var fiber: JSONField<NumberInput>
    var foodId: JSONField<String>
    var grams: JSONField<NumberInput>
    var portion: JSONField<String>
    var quantity: JSONField<NumberInput>
    var loggedAt: JSONField<Date>
    /// `breakfast`, `lunch`, `dinner` or `snack` (issue 17); absent on creation: the slot of `loggedAt`'s local time.
    var slot: JSONField<String>
    /// How the meal was entered (issue 19): `manual` (the default without `foodId`), `labelScan` (a manual meal whose
    /// values came from a scanned label: the same rules, kept apart in `source` and `meal_logged`), or `database`
    /// (the default, and the only one, with `foodId`).
    var source: JSONField<String>

    /// In the reader's language, made when asked (inside the request).
    enum Message {
        static var foodNotFound: String { Strings.current("meals.foodNotFound") }
        static var portion: String { Strings.current("meals.portion") }
        static var notWithFood: String { Strings.current("meals.notWithFood") }
        static var onlyWithFood: String { Strings.current("meals.onlyWithFood") }
        static var gramsOrPortion: String { Strings.current("meals.gramsOrPortion") }
        static var foodCannotChange: String { Strings.current("meals.foodCannotChange") }
        static var idInPath: String { Strings.current("meals.idInPath") }
    }

    /// The body from a flat object of its members (see `FlatJSONObject`); nil when `JSONDecoder` must judge it.
    init?(flatJSON object: FlatJSONObject) {
        guard let id = object.text("id"), let name = object.text("name"), let foodId = object.text("foodId"),
              let portion = object.text("portion"), let loggedAt = object.instant("loggedAt"), let slot = object.text("slot"),
              let source = object.text("source")
        else { return nil }
        self.slot = slot
        self.source = source
        self.id = id
        self.name = name
        calories = object.number("calories")
        protein = object.number("protein")
        carbs = object.number("carbs")
        fat = object.number("fat")
        fiber = object.number("fiber")
        self.foodId = foodId
        grams = object.number("grams")
        self.portion = portion
        quantity = object.number("quantity")
        self.loggedAt = loggedAt
    }

    /// Whether the body describes a meal from the catalog.
    var isFromCatalog: Bool { foodId.isPresent }

    var nutrientMembers: [(String, JSONField<NumberInput>)] {
        [("calories", calories), ("protein", protein), ("carbs", carbs), ("fat", fat), ("fiber", fiber)]
    }

    var amountIsPresent: Bool { grams.isPresent || portion.isPresent || quantity.isPresent }

    /// A new manual meal, with the manual form's rules and messages.
    func manualMeal(id: UUID, now: Date) throws(InvalidInput) -> Meal {
        var errors: [String: String] = [:]
        if amountIsPresent { errors[grams.isPresent ? "grams" : portion.isPresent ? "portion" : "quantity"] = Message.onlyWithFood }
        let loggedAt = instant(default: now, errors: &errors)
        var meal: Meal?
        do {
            meal = try MealInput.manual(
                id: id, name: name.value ?? "", calories: calories.numeric, protein: protein.numeric,
                carbs: carbs.numeric, fat: fat.numeric, fiber: fiber.numeric, loggedAt: loggedAt
            )
        } catch {
            errors.merge(Self.fields(error, amountMember: "grams")) { first, _ in first }
        }
        let chosenSlot = self.chosenSlot(errors: &errors)
        let chosenSource = self.chosenSource(allowed: [.manual, .labelScan], errors: &errors)
        guard errors.isEmpty, var meal else { throw InvalidInput(errors) }
        meal.slot = chosenSlot ?? nil
        meal.source = chosenSource ?? .manual
        return meal
    }

    /// A new meal of `food`, scaled from its values per 100 g to the amount asked for.
    func foodMeal(id: UUID, food: Food, now: Date) throws(InvalidInput) -> Meal {
        var errors: [String: String] = [:]
        for (member, field) in nutrientMembers where field.isPresent { errors[member] = Message.notWithFood }
        let loggedAt = instant(default: now, errors: &errors)
        let mealName = name(default: MealInput.mealName(forFood: food.longDescription), errors: &errors)
        let amount = self.amount(measures: food.measures, errors: &errors)
        let chosenSlot = self.chosenSlot(errors: &errors)
        _ = chosenSource(allowed: [.database], errors: &errors)
        guard errors.isEmpty, let amount else {
            if errors.isEmpty { errors["grams"] = StoreValidation.Message.databaseMealIncomplete }
            throw InvalidInput(errors)
        }
        do {
            var meal = try MealInput.fromFood(
                id: id, foodId: food.id, name: mealName, per100g: food.per100g, grams: amount.grams, loggedAt: loggedAt
            )
            meal.slot = chosenSlot ?? nil
            return meal
        } catch {
            throw InvalidInput(Self.fields(error, amountMember: amount.member))
        }
    }

    /// `meal` with this body's changes. A manual (or label) meal takes new values under the manual form's rules; a
    /// catalog meal takes a new amount, rescaled from `food` (its catalog entry) or, without it, from what it holds.
    func patched(_ meal: Meal, food: Food?) throws(InvalidInput) -> Meal {
        var errors: [String: String] = [:]
        let chosenSlot = self.chosenSlot(errors: &errors)
        // A meal keeps the source it was entered with.
        _ = chosenSource(allowed: [meal.source], errors: &errors)
        if !errors.isEmpty { throw InvalidInput(errors) }
        var result = try patchedValues(meal, food: food)
        if let chosenSlot { result.slot = chosenSlot }
        return result
    }

    private func patchedValues(_ meal: Meal, food: Food?) throws(InvalidInput) -> Meal {
        var errors: [String: String] = [:]
        if foodId.isPresent { errors["foodId"] = Message.foodCannotChange }
        if id.isPresent, let text = id.value, UUID(uuidString: text) != meal.id { errors["id"] = Message.idInPath }
        let loggedAt = instant(default: meal.loggedAt, errors: &errors)
        switch meal.source {
        case .database:
            for (member, field) in nutrientMembers where field.isPresent { errors[member] = Message.notWithFood }
            let mealName = name(default: meal.name, errors: &errors)
            let amount = amountIsPresent ? self.amount(measures: food?.measures ?? [], errors: &errors) : nil
            guard errors.isEmpty else { throw InvalidInput(errors) }
            var result = meal
            result.name = mealName
            result.loggedAt = loggedAt
            guard let amount, amount.grams != meal.grams else { return result }
            guard MealInput.gramsRange.contains(amount.grams) else {
                throw InvalidInput([amount.member: MealInput.Message.amount])
            }
            if let food {
                result = (try? MealInput.fromFood(
                    id: meal.id, foodId: food.id, name: mealName, per100g: food.per100g, grams: amount.grams, loggedAt: loggedAt
                )) ?? result
            } else if let old = meal.grams, old > 0 {
                // The food has left the catalog: scale what the meal was logged with.
                let f = amount.grams / old
                func scale(_ v: Double?) -> Double? { v.map { Units.tenth($0 * f) } }
                result.kcal = Units.tenth(meal.kcal * f)
                result.protein = scale(meal.protein)
                result.carbs = scale(meal.carbs)
                result.fat = scale(meal.fat)
                result.fiber = scale(meal.fiber)
                result.grams = amount.grams
            }
            return result
        case .manual, .labelScan:
            if amountIsPresent { errors[grams.isPresent ? "grams" : portion.isPresent ? "portion" : "quantity"] = Message.onlyWithFood }
            func input(_ field: JSONField<NumberInput>, _ current: Double?) -> NumericInput {
                switch field {
                case .absent: current.map { .value($0) } ?? .missing
                case .null: .missing
                case .value(let number): number.input
                }
            }
            var result: Meal?
            do {
                result = try MealInput.manual(
                    id: meal.id, name: name.isAbsent ? meal.name : (name.value ?? ""),
                    calories: input(calories, meal.kcal), protein: input(protein, meal.protein),
                    carbs: input(carbs, meal.carbs), fat: input(fat, meal.fat), fiber: input(fiber, meal.fiber),
                    loggedAt: loggedAt
                )
            } catch {
                errors.merge(Self.fields(error, amountMember: "grams")) { first, _ in first }
            }
            guard errors.isEmpty, var result else { throw InvalidInput(errors) }
            result.source = meal.source
            return result
        }
    }

    // MARK: - Members

    /// The slot asked for: nil when absent, `.some(nil)` for null (back to the slot of the meal's time), a field
    /// error for any other word.
    func chosenSlot(errors: inout [String: String]) -> MealSlot?? {
        switch slot {
        case .absent: return nil
        case .null: return .some(nil)
        case .value(let text):
            guard let value = MealSlot(rawValue: text.trimmingCharacters(in: .whitespaces).lowercased()) else {
                errors["slot"] = LoggingInput.Message.slot
                return nil
            }
            return .some(value)
        }
    }

    /// The source asked for when it is one of `allowed`; nil when absent or null; a field error otherwise.
    func chosenSource(allowed: [MealSource], errors: inout [String: String]) -> MealSource? {
        guard let text = source.value else { return nil }
        guard let value = MealSource(rawValue: text.trimmingCharacters(in: .whitespaces)), allowed.contains(value) else {
            errors["source"] = Strings.current(
                "labelScan.sourceInvalid", ["sources": allowed.map(\.rawValue).joined(separator: ", ")])
            return nil
        }
        return value
    }

    private func instant(default value: Date, errors: inout [String: String]) -> Date {
        guard let date = loggedAt.value else {
            if case .null = loggedAt { errors["loggedAt"] = StoreValidation.Message.instant }
            return value
        }
        if !StoreValidation.instantRange.contains(date) { errors["loggedAt"] = StoreValidation.Message.instant }
        return date
    }

    private func name(default value: String, errors: inout [String: String]) -> String {
        let trimmed = (name.value ?? "").trimmingWhitespacesAndNewlines()
        guard !trimmed.isEmpty else { return value }
        if trimmed.count > MealInput.maxNameLength { errors["name"] = MealInput.Message.nameTooLong }
        return trimmed
    }

    /// The grams asked for, and the member that said so (for the amount's message).
    private func amount(measures: [HouseholdMeasure], errors: inout [String: String]) -> (grams: Double, member: String)? {
        if grams.isPresent, portion.isPresent || quantity.isPresent {
            errors["grams"] = Message.gramsOrPortion
            return nil
        }
        if grams.isPresent {
            guard let value = grams.numeric.number else { errors["grams"] = MealInput.Message.amount; return nil }
            return (value, "grams")
        }
        guard let label = portion.value else {
            if portion.isPresent || quantity.isPresent { errors["portion"] = Message.portion }
            return nil
        }
        let wanted = label.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard let match = FoodJSON.portions(measures).first(where: { $0.label.lowercased() == wanted }) else {
            errors["portion"] = Message.portion
            return nil
        }
        var count = 1.0
        switch quantity.numeric {
        case .missing: break
        case .invalid: errors["quantity"] = MealInput.Message.macro; return nil
        case .value(let v):
            guard v > 0 else { errors["quantity"] = MealInput.Message.macro; return nil }
            count = v
        }
        return ((match.grams * count * 1_000).rounded() / 1_000, "quantity")
    }

    // MARK: - Helpers

    static func fields(_ invalid: MealInput.Invalid, amountMember: String) -> [String: String] {
        var result: [String: String] = [:]
        for (field, message) in invalid.errors {
            result[field == .amount ? amountMember : field.rawValue] = message
        }
        return result
    }
}
