import Foundation
import Testing
import WDietCore
import WDietFoodData
import WDietSQLite
import WDietStore
import WDietTestSupport

@Suite("Logging a catalog food by household measure")
struct FoodLoggingTests {
    @Test("2 cups of plain yogurt: 2 × 245 g = 490 g, scaled from USDA's values per 100 g")
    func twoCupsOfYogurt() async throws {
        let catalog = SQLiteFoodCatalogStore(database: try await FoodCatalogTestDatabase.shared.value)
        #expect(try await catalog.isLoaded())
        let results = try await catalog.searchFoods("plain yogurt whole milk", limit: 10)
        let yogurt = try #require(results.first { $0.id == "01116" })
        let cup = try #require(yogurt.measures.first { $0.description == "cup (8 fl oz)" })
        #expect(cup.label == "1 cup (8 fl oz)")
        #expect(cup.grams(quantity: 2) == 490)

        // Per 100 g: 61 kcal, 3.47 g protein, 4.66 g carbs, 3.25 g fat.
        let meal = try MealInput.fromFood(
            foodId: yogurt.id, name: yogurt.name, per100g: yogurt.per100g, grams: cup.grams(quantity: 2),
            loggedAt: Fixtures.utc("2026-03-01T08:00:00Z")
        )
        #expect(meal.kcal == 298.9)
        #expect(meal.protein == 17.0)
        #expect(meal.carbs == 22.8)
        #expect(meal.fat == 15.9)
        #expect(meal.source == .database)

        // The meal keeps what it was logged with.
        let stores = try CoachTestStores()
        let user = try await stores.makeUser()
        let saved = try await stores.meals.saveMeal(meal, userId: user, timeZone: .gmt)
        #expect(saved.meal == meal)
        #expect(try await stores.meals.dailyTotals(userId: user, on: Fixtures.date("2026-03-01")).kcal == 298.9)
    }

    @Test("half-unit measures: 3 × \"0.5 container (4 oz)\" of 113 g")
    func fractionalMeasure() throws {
        let measure = HouseholdMeasure(sequence: 3, amount: 0.5, description: "container (4 oz)", grams: 113)
        #expect(measure.label == "0.5 container (4 oz)")
        #expect(measure.grams(quantity: 3) == 339)
    }
}
