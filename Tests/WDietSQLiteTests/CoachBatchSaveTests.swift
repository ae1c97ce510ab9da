import Foundation
import Testing
import WDietCore
import WDietStore
import WDietTestSupport

@Suite("Batch saves: one transaction, all or none")
struct CoachBatchSaveTests {
    @Test("a batch of meals lands in order with growing versions and counts toward its days")
    func mealsBatch() async throws {
        let stores = try CoachTestStores()
        let user = try await stores.makeUser()
        let meals = (0..<5).map { Meal(name: "M\($0)", kcal: 100 + Double($0), loggedAt: Fixtures.utc("2026-03-0\($0 + 1)T12:00:00Z")) }
        let saved = try await stores.meals.saveMeals(meals, userId: user, timeZone: .gmt)
        #expect(saved.map(\.meal) == meals)
        #expect(zip(saved, saved.dropFirst()).allSatisfy { $0.version < $1.version })
        let run = try await stores.loggedDays.latestRun(userId: user, through: Fixtures.date("2026-03-05"))
        #expect(run.count == 5)
    }

    @Test("one invalid meal refuses the whole batch with its message")
    func mealsAllOrNone() async throws {
        let stores = try CoachTestStores()
        let user = try await stores.makeUser()
        let good = Meal(name: "Good", kcal: 500, loggedAt: Fixtures.utc("2026-03-01T12:00:00Z"))
        let bad = Meal(name: "Bad", kcal: 0, loggedAt: Fixtures.utc("2026-03-01T13:00:00Z"))
        await #expect(throws: StoreError.invalid("Calories must be between 1-9999")) {
            _ = try await stores.meals.saveMeals([good, bad], userId: user, timeZone: .gmt)
        }
        #expect(try await stores.meals.meals(userId: user, on: Fixtures.date("2026-03-01")).isEmpty)
    }

    @Test("another user's id in a batch rolls back the rows written before it")
    func mealsRollBack() async throws {
        let stores = try CoachTestStores()
        let owner = try await stores.makeUser()
        let other = try await stores.makeUser()
        let theirs = try await stores.meals.saveMeal(Meal(name: "Theirs", kcal: 300, loggedAt: Fixtures.utc("2026-03-01T08:00:00Z")), userId: owner, timeZone: .gmt)
        let mine = Meal(name: "Mine", kcal: 400, loggedAt: Fixtures.utc("2026-03-01T09:00:00Z"))
        var stolen = theirs.meal
        stolen.name = "Stolen"
        await #expect(throws: StoreError.self) {
            _ = try await stores.meals.saveMeals([mine, stolen], userId: other, timeZone: .gmt)
        }
        #expect(try await stores.meals.meals(userId: other, on: Fixtures.date("2026-03-01")).isEmpty)
        #expect(try await stores.meals.meal(userId: owner, id: theirs.id)?.meal.name == "Theirs")
    }

    @Test("a batch of weights: the day's latest is its current value")
    func weightsBatch() async throws {
        let stores = try CoachTestStores()
        let user = try await stores.makeUser()
        let entries = [
            WeightEntry(kg: 80.0, loggedAt: Fixtures.utc("2026-03-01T07:00:00Z")),
            WeightEntry(kg: 79.6, loggedAt: Fixtures.utc("2026-03-01T19:00:00Z")),
            WeightEntry(kg: 79.8, loggedAt: Fixtures.utc("2026-03-02T07:00:00Z")),
        ]
        _ = try await stores.weights.saveWeights(entries, userId: user, timeZone: .gmt)
        #expect(try await stores.weights.dailyWeights(userId: user).map(\.entry.kg) == [79.6, 79.8])
        await #expect(throws: StoreError.invalid("Weight must be at least 20 kg (44 lbs)")) {
            _ = try await stores.weights.saveWeights([WeightEntry(kg: 70, loggedAt: Fixtures.utc("2026-03-03T07:00:00Z")), WeightEntry(kg: 19, loggedAt: Fixtures.utc("2026-03-03T08:00:00Z"))], userId: user, timeZone: .gmt)
        }
        #expect(try await stores.weights.weightHistory(userId: user).count == 3)
    }
}
