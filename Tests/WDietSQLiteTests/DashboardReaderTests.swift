import Foundation
import Testing
import WDietCore
import WDietSQLite
import WDietStore
import WDietTestSupport

@Suite("Dashboard reader: a day's dashboard from the SQLite stores")
struct DashboardReaderTests {
    static func reader(_ s: CoachTestStores) -> DashboardReader {
        DashboardReader(store: SQLiteDashboardStore(database: s.database))
    }

    @Test("a 100-day streak in Kiritimati (UTC+14), today's meals and the last week of weights")
    func longHistoryFarFromUTC() async throws {
        let stores = try CoachTestStores()
        let user = try await stores.makeUser()
        let profile = Fixtures.profile(timeZone: "Pacific/Kiritimati", planStart: "2026-01-01")
        _ = try await stores.profiles.saveProfile(profile, userId: user, expectedVersion: nil)
        let zone = profile.timeZone
        let today = Fixtures.date("2026-04-10") // plan day 100: index 99 → phase 7 (diet), day 2
        // One meal a day at 08:00 local for 100 days, ending today; then two more meals today.
        for back in 0..<100 {
            let at = today.adding(days: -back).startInstant(in: zone).addingTimeInterval(8 * 3_600)
            _ = try await stores.meals.saveMeal(Meal(name: "Breakfast", kcal: 500, protein: 30, carbs: 60, fat: 15, loggedAt: at), userId: user, timeZone: zone)
        }
        let noon = today.startInstant(in: zone).addingTimeInterval(12 * 3_600)
        _ = try await stores.meals.saveMeal(Meal(name: "Lunch", kcal: 700, protein: 50, carbs: 70, fat: 20, loggedAt: noon), userId: user, timeZone: zone)
        _ = try await stores.meals.saveMeal(Meal(name: "Snack", kcal: 200, loggedAt: noon.addingTimeInterval(3_600)), userId: user, timeZone: zone)
        // Weights for the last 9 days, 80.0 down by 0.2 a day, with a corrected second entry today.
        for back in 0..<9 {
            let at = today.adding(days: -back).startInstant(in: zone).addingTimeInterval(7 * 3_600)
            _ = try await stores.weights.saveWeight(WeightEntry(kg: 78.4 + Double(back) * 0.2, loggedAt: at), userId: user, timeZone: zone)
        }
        _ = try await stores.weights.saveWeight(WeightEntry(kg: 78.0, loggedAt: noon), userId: user, timeZone: zone)

        // 2026-04-10 13:30 in Kiritimati is 2026-04-09T23:30Z: still "yesterday" in UTC.
        let now = noon.addingTimeInterval(5_400)
        #expect(Fixtures.utc("2026-04-09T23:30:00Z") == now)
        let day = try await Self.reader(stores).dashboard(userId: user, now: now)

        #expect(day.date == today)
        #expect(day.streak.days == 100)
        #expect(day.streak.isActiveToday)
        #expect(day.totals.kcal == 1_400)
        #expect(day.totals.mealCount == 3)
        #expect(day.targets.cycle?.label == "Day 2 of 14 · Diet phase")
        // Today's current weight is the later 78.0 kg; the average is of the last 7 daily values:
        // 78.0, 78.6, 78.8, 79.0, 79.2, 79.4, 79.6 → 552.6 / 7 = 78.94.
        #expect(day.weightCard.todayKg == 78.0)
        #expect(abs((day.weightCard.averageKg ?? 0) - 78.942_857) < 1e-5)
        #expect(day.weightCard.belowAverageKg == -0.9)
        // Previous average 79.0 + ... : (78.6 + 78.8 + 79.0 + 79.2 + 79.4 + 79.6 + 79.8) / 7 = 79.2 → −0.26: 📉
        #expect(day.weightCard.trend == .down)
        // The targets use the latest weight before today began, yesterday's 78.6 kg: 2.0 × 78.6 = 157.2 → 157.
        #expect(day.targets.proteinGrams == 157)
        #expect(!day.showsWeightPrompt)
    }

    @Test("a goal change saved at 15:00 in Berlin keeps today's targets and reaches them at Berlin's midnight; so does a weight logged today")
    func goalChangeAppliesTomorrow() async throws {
        let stores = try CoachTestStores(clockStart: Fixtures.utc("2026-01-10T09:00:00Z"))
        let user = try await stores.makeUser()
        _ = try await stores.profiles.saveProfile(Fixtures.profile(), userId: user, expectedVersion: nil)
        stores.clock.set(Fixtures.utc("2026-01-20T14:00:00Z"))
        _ = try await stores.profiles.saveProfile(Fixtures.profile(goal: .maintain), userId: user, expectedVersion: nil)
        let reader = Self.reader(stores)

        // Day 20 of the plan, a diet day: still TDEE 2,759 − 500.
        let today = try await reader.dashboard(userId: user, now: Fixtures.utc("2026-01-20T16:00:00Z"))
        #expect(today.targets.calories == 2_259)
        #expect(today.targets.cycle?.label == "Day 6 of 14 · Diet phase")
        #expect(today.targets.proteinGrams == 160) // 2.0 g/kg while losing
        #expect(today.planUpdatesOn == Fixtures.date("2026-01-21"))

        // A weight logged the same evening waits for midnight too: today stays on the profile's 80 kg.
        _ = try await stores.weights.saveWeight(WeightEntry(kg: 79, loggedAt: Fixtures.utc("2026-01-20T17:00:00Z")), userId: user, timeZone: Fixtures.zone("Europe/Berlin"))
        let weighed = try await reader.dashboard(userId: user, now: Fixtures.utc("2026-01-20T18:00:00Z"))
        #expect(weighed.targets.calories == 2_259)
        #expect(weighed.planUpdatesOn == Fixtures.date("2026-01-21"))

        // 00:30 on the 21st in Berlin (still the 20th in UTC): maintenance from the 79 kg, 2,743.5 → 2,744.
        let tomorrow = try await reader.dashboard(userId: user, now: Fixtures.utc("2026-01-20T23:30:00Z"))
        #expect(tomorrow.date == Fixtures.date("2026-01-21"))
        #expect(tomorrow.targets.calories == 2_744)
        #expect(tomorrow.targets.cycle == nil)
        #expect(tomorrow.targets.proteinGrams == 126) // 1.6 g/kg maintaining
        #expect(tomorrow.planUpdatesOn == nil)
    }

    @Test("no profile yet is reported, not guessed")
    func noProfile() async throws {
        let stores = try CoachTestStores()
        let user = try await stores.makeUser()
        await #expect(throws: StoreError.self) {
            try await Self.reader(stores).dashboard(userId: user, now: Fixtures.utc("2026-04-10T12:00:00Z"))
        }
    }

    @Test("a broken streak: logs until two days ago count for nothing")
    func brokenStreak() async throws {
        let stores = try CoachTestStores()
        let user = try await stores.makeUser()
        let profile = Fixtures.profile(timeZone: "UTC")
        _ = try await stores.profiles.saveProfile(profile, userId: user, expectedVersion: nil)
        for back in 2..<10 {
            _ = try await stores.weights.saveWeight(WeightEntry(kg: 80, loggedAt: Fixtures.utc("2026-02-20T07:00:00Z").addingTimeInterval(Double(-back) * 86_400)), userId: user, timeZone: .gmt)
        }
        let day = try await Self.reader(stores).dashboard(userId: user, now: Fixtures.utc("2026-02-20T09:00:00Z"))
        #expect(day.streak.days == 0)
        #expect(day.showsWeightPrompt)
        #expect(day.weightCard.todayKg == nil)
    }
}
