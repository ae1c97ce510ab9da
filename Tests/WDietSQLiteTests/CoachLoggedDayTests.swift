import Foundation
import Testing
import WDietCore
import WDietStore
import WDietTestSupport

@Suite struct CoachLoggedDayTests {
    @Test func aDayCountsWithAMealOrAWeightButNotWithADeletedOne() async throws {
        let stores = try CoachTestStores()
        let berlin = Fixtures.zone("Europe/Berlin")
        let user = try await stores.makeUser()
        let other = try await stores.makeUser()
        _ = try await stores.meals.saveMeal(
            Meal(name: "Breakfast", kcal: 400, loggedAt: Fixtures.utc("2026-03-01T07:00:00Z")), userId: user, timeZone: berlin)
        // 23:30 UTC on the 1st is 00:30 on the 2nd in Berlin.
        _ = try await stores.meals.saveMeal(
            Meal(name: "Midnight snack", kcal: 200, loggedAt: Fixtures.utc("2026-03-01T23:30:00Z")), userId: user, timeZone: berlin)
        _ = try await stores.meals.saveMeal(
            Meal(name: "Not mine", kcal: 500, loggedAt: Fixtures.utc("2026-03-03T12:00:00Z")), userId: other, timeZone: berlin)
        _ = try await stores.weights.saveWeight(
            WeightEntry(kg: 80, loggedAt: Fixtures.utc("2026-03-04T06:00:00Z")), userId: user, timeZone: berlin)
        let deleted = try await stores.meals.saveMeal(
            Meal(name: "Deleted", kcal: 300, loggedAt: Fixtures.utc("2026-03-05T12:00:00Z")), userId: user, timeZone: berlin)
        try await stores.meals.deleteMeal(userId: user, id: deleted.id)

        let all = try await stores.loggedDays.loggedDays(userId: user, in: Fixtures.date("2026-02-28")...Fixtures.date("2026-03-06"))
        #expect(all == [Fixtures.date("2026-03-01"), Fixtures.date("2026-03-02"), Fixtures.date("2026-03-04")])

        // Both ends of the range are included.
        let inner = try await stores.loggedDays.loggedDays(userId: user, in: Fixtures.date("2026-03-02")...Fixtures.date("2026-03-04"))
        #expect(inner == [Fixtures.date("2026-03-02"), Fixtures.date("2026-03-04")])

        // The missed 3rd breaks the run: on the 4th the streak is 1 day, on the 2nd it was 2.
        #expect(Streak(loggedDays: all, today: Fixtures.date("2026-03-04")).days == 1)
        #expect(Streak(loggedDays: all, today: Fixtures.date("2026-03-02")).days == 2)
    }

    @Test func aMealAndAWeightOnTheSameDayCountOnce() async throws {
        let stores = try CoachTestStores()
        let utc = Fixtures.zone("UTC")
        let user = try await stores.makeUser()
        _ = try await stores.meals.saveMeal(Meal(name: "Lunch", kcal: 500, loggedAt: Fixtures.utc("2026-03-01T12:00:00Z")), userId: user, timeZone: utc)
        _ = try await stores.weights.saveWeight(WeightEntry(kg: 70, loggedAt: Fixtures.utc("2026-03-01T07:00:00Z")), userId: user, timeZone: utc)

        let days = try await stores.loggedDays.loggedDays(userId: user, in: Fixtures.date("2026-03-01")...Fixtures.date("2026-03-01"))
        #expect(days == [Fixtures.date("2026-03-01")])
    }
}
