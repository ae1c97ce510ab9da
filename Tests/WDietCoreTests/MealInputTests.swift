import Foundation
import Testing
import WDietCore
import WDietTestSupport

@Suite("Meal input")
struct MealInputTests {
    let at = Fixtures.utc("2026-01-15T11:00:00Z")

    @Test("manual calories must be 1–9999", arguments: [
        ("1", true), ("9999", true), ("450", true), ("0", false), ("10000", false), ("", false), ("abc", false), ("-5", false), ("0.5", false),
    ])
    func calories(text: String, accepted: Bool) {
        do {
            let meal = try MealInput.manual(name: "Lunch", calories: NumericInput(text: text), loggedAt: at)
            #expect(accepted)
            #expect(meal.kcal == Double(text))
            #expect(meal.source == .manual)
        } catch {
            #expect(!accepted)
            #expect(error.errors == [.calories: "Calories must be between 1-9999"])
        }
    }

    @Test("macros are optional; a bad one is named")
    func macros() throws {
        let meal = try MealInput.manual(name: "  ", calories: .value(300), protein: .value(20), loggedAt: at)
        #expect(meal.name == "Quick add")
        #expect(meal.protein == 20)
        #expect(meal.carbs == nil)
        #expect(throws: MealInput.Invalid(errors: [.fat: "Fat must be between 0-999 g"])) {
            try MealInput.manual(name: "x", calories: .value(300), fat: .value(-1), loggedAt: at)
        }
        #expect(throws: MealInput.Invalid(errors: [.protein: "Protein must be between 0-999 g", .fiber: "Fiber must be between 0-999 g"])) {
            try MealInput.manual(name: "x", calories: .value(300), protein: .value(1000), fiber: .invalid, loggedAt: at)
        }
    }

    @Test("a database meal scales the food's per-100 g values: 118 g of banana")
    func fromFood() throws {
        let banana = Nutrients(kcal: 89, protein: 1.09, carbs: 22.84, fat: 0.33, fiber: 2.6)
        let meal = try MealInput.fromFood(foodId: "09040", name: "Bananas, raw", per100g: banana, grams: 118, loggedAt: at)
        #expect(meal.kcal == 105.0)
        #expect(meal.protein == 1.3)
        #expect(meal.carbs == 27.0)
        #expect(meal.fat == 0.4)
        #expect(meal.fiber == 3.1)
        #expect(meal.source == .database)
        #expect(meal.foodId == "09040")
        #expect(meal.grams == 118)
        #expect(throws: MealInput.Invalid(errors: [.amount: "Amount must be between 0.1-5000 g"])) {
            try MealInput.fromFood(foodId: "09040", name: "Bananas, raw", per100g: banana, grams: 0, loggedAt: at)
        }
    }
}

@Suite("Catalog meal names")
struct CatalogMealNameTests {
    @Test("short names stay as USDA wrote them")
    func shortName() {
        #expect(MealInput.mealName(forFood: "Bananas, raw") == "Bananas, raw")
    }

    @Test("a name over 100 characters is cut at a word, with an ellipsis, within 100")
    func longName() {
        let usda = "Beef, chuck for stew, separable lean and fat, trimmed to 1/8\" fat, all grades, cooked, braised, boneless, choice"
        let name = MealInput.mealName(forFood: usda)
        #expect(name == "Beef, chuck for stew, separable lean and fat, trimmed to 1/8\" fat, all grades, cooked, braised…")
        #expect(name.count <= MealInput.maxNameLength)
    }
}
