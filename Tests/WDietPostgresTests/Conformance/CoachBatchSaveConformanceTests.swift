import Foundation
import Testing
import WDietCore
import WDietStore
import WDietTestSupport

/// Batch saves on every backend: one transaction, all or none.
@Suite struct CoachBatchSaveConformanceTests {
    @Test(arguments: StoreBackend.allCases)
    func aBatchOfMealsLandsInOrderWithConsecutiveVersions(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let meals = (0..<5).map { Meal(name: "M\($0)", kcal: 100 + Double($0), loggedAt: Fixtures.utc("2026-03-0\($0 + 1)T12:00:00Z")) }
            let saved = try await stores.meals.saveMeals(meals, userId: user, timeZone: .gmt)
            #expect(saved.map(\.meal) == meals)
            #expect(saved.map(\.version) == [2, 3, 4, 5, 6])
            let run = try await stores.loggedDays.latestRun(userId: user, through: Fixtures.date("2026-03-05"))
            #expect(run.count == 5)

            // Saved again with one changed: only that one takes a version.
            var edited = meals
            edited[2].kcal = 150
            let again = try await stores.meals.saveMeals(edited, userId: user, timeZone: .gmt)
            #expect(again.map(\.version) == [2, 3, 7, 5, 6])
            #expect(again[2].meal.kcal == 150)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func oneInvalidMealRefusesTheWholeBatchWithItsMessage(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let good = Meal(name: "Good", kcal: 500, loggedAt: Fixtures.utc("2026-03-01T12:00:00Z"))
            let bad = Meal(name: "Bad", kcal: 0, loggedAt: Fixtures.utc("2026-03-01T13:00:00Z"))
            await #expect(throws: StoreError.invalid("Calories must be between 1-9999")) {
                _ = try await stores.meals.saveMeals([good, bad], userId: user, timeZone: .gmt)
            }
            #expect(try await stores.meals.meals(userId: user, on: Fixtures.date("2026-03-01")).isEmpty)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func anotherUsersIdInABatchRollsBackTheRowsWrittenBeforeIt(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let owner = try await stores.makeUser()
            let other = try await stores.makeUser()
            let theirs = try await stores.meals.saveMeal(
                Meal(name: "Theirs", kcal: 300, loggedAt: Fixtures.utc("2026-03-01T08:00:00Z")), userId: owner, timeZone: .gmt)
            let mine = Meal(name: "Mine", kcal: 400, loggedAt: Fixtures.utc("2026-03-01T09:00:00Z"))
            var stolen = theirs.meal
            stolen.name = "Stolen"
            await #expect(throws: StoreError.conflict("This id is already in use")) {
                _ = try await stores.meals.saveMeals([mine, stolen], userId: other, timeZone: .gmt)
            }
            #expect(try await stores.meals.meals(userId: other, on: Fixtures.date("2026-03-01")).isEmpty)
            #expect(try await stores.loggedDays.latestRun(userId: other, through: Fixtures.date("2026-03-01")).isEmpty)
            #expect(try await stores.meals.meal(userId: owner, id: theirs.id) == theirs)
            // The rolled-back batch took no versions: the next save of the other user is the one after theirs.
            let next = try await stores.meals.saveMeal(mine, userId: other, timeZone: .gmt)
            let otherUser = try #require(try await stores.users.user(id: other))
            #expect(next.version == otherUser.version + (backend == .sqlite ? 2 : 1))
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aBatchOfWeightsKeepsTheDaysLatestAsItsValue(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let entries = [
                WeightEntry(kg: 80.0, loggedAt: Fixtures.utc("2026-03-01T07:00:00Z")),
                WeightEntry(kg: 79.6, loggedAt: Fixtures.utc("2026-03-01T19:00:00Z")),
                WeightEntry(kg: 79.8, loggedAt: Fixtures.utc("2026-03-02T07:00:00Z")),
            ]
            let saved = try await stores.weights.saveWeights(entries, userId: user, timeZone: .gmt)
            #expect(saved.map(\.version) == [2, 3, 4])
            #expect(try await stores.weights.dailyWeights(userId: user).map(\.entry.kg) == [79.6, 79.8])
            await #expect(throws: StoreError.invalid("Weight must be at least 20 kg (44 lbs)")) {
                _ = try await stores.weights.saveWeights([
                    WeightEntry(kg: 70, loggedAt: Fixtures.utc("2026-03-03T07:00:00Z")),
                    WeightEntry(kg: 19, loggedAt: Fixtures.utc("2026-03-03T08:00:00Z")),
                ], userId: user, timeZone: .gmt)
            }
            #expect(try await stores.weights.weightHistory(userId: user).count == 3)
        }
    }

    /// One user's concurrent writers are serialised on the user: every version is taken once, none is skipped.
    @Test(arguments: StoreBackend.allCases)
    func concurrentSavesOfOneUserTakeDistinctConsecutiveVersions(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let meals = stores.meals
            let versions = try await withThrowingTaskGroup(of: Int64.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        let meal = Meal(name: "M\(index)", kcal: 100, loggedAt: Fixtures.utc("2026-03-01T12:00:00Z"))
                        return try await meals.saveMeal(meal, userId: user, timeZone: .gmt).version
                    }
                }
                return try await group.reduce(into: [Int64]()) { $0.append($1) }
            }
            #expect(versions.sorted() == Array(2...21))
            #expect(try await stores.meals.meals(userId: user, on: Fixtures.date("2026-03-01")).count == 20)
        }
    }
}
