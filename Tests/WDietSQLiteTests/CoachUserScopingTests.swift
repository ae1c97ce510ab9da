import Foundation
import Testing
import WDietCore
import WDietStore
import WDietTestSupport

/// Another user's ids are neither read nor modified, through any store.
@Suite struct CoachUserScopingTests {
    let stores: CoachTestStores
    let zone = Fixtures.zone("Europe/Berlin")
    let day = Fixtures.date("2026-03-01")

    init() throws {
        stores = try CoachTestStores()
    }

    @Test func anotherUsersMealIsInvisibleAndUntouchable() async throws {
        let alice = try await stores.makeUser(), mallory = try await stores.makeUser()
        let meal = Meal(name: "Alice's lunch", kcal: 640, loggedAt: Fixtures.utc("2026-03-01T11:00:00Z"))
        let original = try await stores.meals.saveMeal(meal, userId: alice, timeZone: zone)

        #expect(try await stores.meals.meal(userId: mallory, id: meal.id) == nil)
        #expect(try await stores.meals.meals(userId: mallory, on: day).isEmpty)
        #expect(try await stores.meals.dailyTotals(userId: mallory, on: day) == .zero)

        var forged = meal
        forged.kcal = 1
        await #expect(throws: StoreError.conflict("This id is already in use")) {
            try await stores.meals.saveMeal(forged, userId: mallory, timeZone: zone)
        }
        await #expect(throws: StoreError.notFound("Meal not found")) {
            try await stores.meals.deleteMeal(userId: mallory, id: meal.id)
        }

        #expect(try await stores.meals.meal(userId: alice, id: meal.id) == original)
    }

    @Test func anotherUsersWeightIsInvisibleAndUntouchable() async throws {
        let alice = try await stores.makeUser(), mallory = try await stores.makeUser()
        let entry = WeightEntry(kg: 64.2, loggedAt: Fixtures.utc("2026-03-01T06:00:00Z"))
        let original = try await stores.weights.saveWeight(entry, userId: alice, timeZone: zone)

        #expect(try await stores.weights.weightHistory(userId: mallory).isEmpty)
        #expect(try await stores.weights.dailyWeights(userId: mallory).isEmpty)
        #expect(try await stores.weights.latestWeight(userId: mallory) == nil)
        #expect(try await stores.loggedDays.loggedDays(userId: mallory, in: day...day).isEmpty)

        await #expect(throws: StoreError.conflict("This id is already in use")) {
            try await stores.weights.saveWeight(WeightEntry(id: entry.id, kg: 120, loggedAt: entry.loggedAt), userId: mallory, timeZone: zone)
        }
        await #expect(throws: StoreError.notFound("Weight entry not found")) {
            try await stores.weights.deleteWeight(userId: mallory, id: entry.id)
        }

        #expect(try await stores.weights.weightHistory(userId: alice) == [original])
    }

    @Test func anotherUsersProfileAndEventsAreInvisibleAndUntouchable() async throws {
        let alice = try await stores.makeUser(), mallory = try await stores.makeUser()
        let profile = try await stores.profiles.saveProfile(Fixtures.profile(), userId: alice, expectedVersion: nil)
        let event = AnalyticsEvent(name: .sessionStart, occurredAt: Fixtures.utc("2026-03-01T08:00:00Z"))
        try await stores.analytics.recordEvent(event, userId: alice)

        #expect(try await stores.profiles.profile(userId: mallory) == nil)
        #expect(try await stores.analytics.events(userId: mallory).isEmpty)
        await #expect(throws: StoreError.conflict("This id is already in use")) {
            try await stores.analytics.recordEvent(event, userId: mallory)
        }
        // Mallory's own profile is a separate row; Alice's is unchanged.
        _ = try await stores.profiles.saveProfile(Fixtures.profile(weightKg: 120), userId: mallory, expectedVersion: nil)

        #expect(try await stores.profiles.profile(userId: alice) == profile)
        #expect(try await stores.analytics.events(userId: alice) == [event])
    }
}
