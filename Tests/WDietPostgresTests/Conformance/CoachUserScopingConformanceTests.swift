import Foundation
import Testing
import WDietCore
import WDietStore
import WDietTestSupport

/// On every backend, another user's ids are neither read nor modified, through any store.
@Suite struct CoachUserScopingConformanceTests {
    static let zone = Fixtures.zone("Europe/Berlin")
    static let day = Fixtures.date("2026-03-01")

    @Test(arguments: StoreBackend.allCases)
    func anotherUsersMealIsInvisibleAndUntouchable(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let alice = try await stores.makeUser(), mallory = try await stores.makeUser()
            let meal = Meal(name: "Alice's lunch", kcal: 640, loggedAt: Fixtures.utc("2026-03-01T11:00:00Z"))
            let original = try await stores.meals.saveMeal(meal, userId: alice, timeZone: Self.zone)

            #expect(try await stores.meals.meal(userId: mallory, id: meal.id) == nil)
            #expect(try await stores.meals.meals(userId: mallory, on: Self.day).isEmpty)
            #expect(try await stores.meals.dailyTotals(userId: mallory, on: Self.day) == .zero)

            var forged = meal
            forged.kcal = 1
            await #expect(throws: StoreError.conflict("This id is already in use")) {
                try await stores.meals.saveMeal(forged, userId: mallory, timeZone: Self.zone)
            }
            await #expect(throws: StoreError.notFound("Meal not found")) {
                try await stores.meals.deleteMeal(userId: mallory, id: meal.id)
            }
            await #expect(throws: StoreError.notFound("Meal not found")) {
                try await stores.meals.restoreMeal(userId: mallory, id: meal.id)
            }
            #expect(try await stores.meals.meal(userId: alice, id: meal.id) == original)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func anotherUsersDeletedMealCannotBeRestored(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let alice = try await stores.makeUser(), mallory = try await stores.makeUser()
            let saved = try await stores.meals.saveMeal(
                Meal(name: "Gone", kcal: 200, loggedAt: Fixtures.utc("2026-03-01T11:00:00Z")), userId: alice, timeZone: Self.zone)
            let tombstone = try await stores.meals.deleteMeal(userId: alice, id: saved.id)
            await #expect(throws: StoreError.notFound("Meal not found")) {
                try await stores.meals.restoreMeal(userId: mallory, id: saved.id)
            }
            // Still Alice's tombstone: her own undo finds it unchanged.
            #expect(try await stores.meals.restoreMeal(userId: alice, id: saved.id).version == tombstone.version + 1)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func anotherUsersWeightIsInvisibleAndUntouchable(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let alice = try await stores.makeUser(), mallory = try await stores.makeUser()
            let entry = WeightEntry(kg: 64.2, loggedAt: Fixtures.utc("2026-03-01T06:00:00Z"))
            let original = try await stores.weights.saveWeight(entry, userId: alice, timeZone: Self.zone)

            #expect(try await stores.weights.weightHistory(userId: mallory).isEmpty)
            #expect(try await stores.weights.dailyWeights(userId: mallory).isEmpty)
            #expect(try await stores.weights.recentDailyWeights(userId: mallory, through: Self.day, days: 8).isEmpty)
            #expect(try await stores.weights.latestWeight(userId: mallory) == nil)
            #expect(try await stores.loggedDays.loggedDays(userId: mallory, in: Self.day...Self.day).isEmpty)
            #expect(try await stores.loggedDays.latestRun(userId: mallory, through: Self.day).isEmpty)

            await #expect(throws: StoreError.conflict("This id is already in use")) {
                try await stores.weights.saveWeight(WeightEntry(id: entry.id, kg: 120, loggedAt: entry.loggedAt), userId: mallory, timeZone: Self.zone)
            }
            await #expect(throws: StoreError.notFound("Weight entry not found")) {
                try await stores.weights.deleteWeight(userId: mallory, id: entry.id)
            }
            #expect(try await stores.weights.weightHistory(userId: alice) == [original])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func anotherUsersProfileAndDashboardAreInvisibleAndUntouchable(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let alice = try await stores.makeUser(), mallory = try await stores.makeUser()
            let profile = try await stores.profiles.saveProfile(Fixtures.profile(), userId: alice, expectedVersion: nil)

            #expect(try await stores.profiles.profile(userId: mallory) == nil)
            #expect(try await stores.dashboard.dashboardInputs(userId: mallory, now: Fixtures.utc("2026-03-01T12:00:00Z")) == nil)
            // Mallory's own profile is a separate row; Alice's is unchanged.
            _ = try await stores.profiles.saveProfile(Fixtures.profile(weightKg: 120), userId: mallory, expectedVersion: nil)
            #expect(try await stores.profiles.profile(userId: alice) == profile)
        }
    }
}
