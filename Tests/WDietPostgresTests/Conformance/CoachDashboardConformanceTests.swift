import Foundation
import Testing
import WDietCore
import WDietStore
import WDietTestSupport

/// `DashboardStore` on every backend, through `DashboardReader`: the same day's dashboard from the same logs.
@Suite struct CoachDashboardConformanceTests {
    /// A session's token hash as the stores keep it: 64 lowercase hex digits.
    static let tokenHash = String(repeating: "5e", count: 32)

    @Test(arguments: StoreBackend.allCases)
    func aHundredDayStreakInKiritimatiTodaysMealsAndTheLastWeekOfWeights(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let profile = Fixtures.profile(timeZone: "Pacific/Kiritimati", planStart: "2026-01-01")
            _ = try await stores.profiles.saveProfile(profile, userId: user, expectedVersion: nil)
            let zone = profile.timeZone
            let today = Fixtures.date("2026-04-10")  // plan day 100: index 99 → phase 7 (diet), day 2
            // One meal a day at 08:00 local for 100 days, ending today; then two more meals today.
            let breakfasts = (0..<100).map { back in
                Meal(name: "Breakfast", kcal: 500, protein: 30, carbs: 60, fat: 15,
                     loggedAt: today.adding(days: -back).startInstant(in: zone).addingTimeInterval(8 * 3_600))
            }
            _ = try await stores.meals.saveMeals(breakfasts, userId: user, timeZone: zone)
            let noon = today.startInstant(in: zone).addingTimeInterval(12 * 3_600)
            _ = try await stores.meals.saveMeal(
                Meal(name: "Lunch", kcal: 700, protein: 50, carbs: 70, fat: 20, loggedAt: noon), userId: user, timeZone: zone)
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
            let inputs = try #require(try await stores.dashboard.dashboardInputs(userId: user, now: now))
            #expect(inputs.today == today)
            #expect(inputs.todaysMeals.map(\.name) == ["Snack", "Lunch", "Breakfast"])
            #expect(inputs.recentWeights.count == 8)
            #expect(inputs.recentWeights.first?.date == today.adding(days: -7))
            #expect(inputs.latestRun.count == 100)

            let day = try await DashboardReader(store: stores.dashboard).dashboard(userId: user, now: now)
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
            // The previous 7 days average (78.6 + 78.8 + … + 79.8) / 7 = 79.2 → −0.26: 📉
            #expect(day.weightCard.trend == .down)
            // The targets use the latest weight before today began, yesterday's 78.6 kg: 2.0 × 78.6 = 157.2 → 157.
            #expect(day.targets.proteinGrams == 157)
            #expect(!day.showsWeightPrompt)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aGoalChangeKeepsTodaysTargetsUntilMidnightAndSoDoesAWeightLoggedToday(backend: StoreBackend) async throws {
        try await backend.withCoachStores(clockStart: Fixtures.utc("2026-01-10T09:00:00Z")) { stores in
            let user = try await stores.makeUser()
            _ = try await stores.profiles.saveProfile(Fixtures.profile(), userId: user, expectedVersion: nil)
            stores.clock.set(Fixtures.utc("2026-01-20T14:00:00Z"))
            _ = try await stores.profiles.saveProfile(Fixtures.profile(goal: .maintain), userId: user, expectedVersion: nil)
            let reader = DashboardReader(store: stores.dashboard)

            // Day 20 of the plan, a diet day: still TDEE 2,759 − 500.
            let today = try await reader.dashboard(userId: user, now: Fixtures.utc("2026-01-20T16:00:00Z"))
            #expect(today.targets.calories == 2_259)
            #expect(today.targets.cycle?.label == "Day 6 of 14 · Diet phase")
            #expect(today.targets.proteinGrams == 160)
            #expect(today.planUpdatesOn == Fixtures.date("2026-01-21"))

            // A weight logged the same evening waits for midnight too: today stays on the profile's 80 kg.
            _ = try await stores.weights.saveWeight(
                WeightEntry(kg: 79, loggedAt: Fixtures.utc("2026-01-20T17:00:00Z")), userId: user, timeZone: Fixtures.zone("Europe/Berlin"))
            let weighed = try await reader.dashboard(userId: user, now: Fixtures.utc("2026-01-20T18:00:00Z"))
            #expect(weighed.targets.calories == 2_259)
            #expect(weighed.targets.proteinGrams == 160)
            #expect(weighed.planUpdatesOn == Fixtures.date("2026-01-21"))

            // 00:30 on the 21st in Berlin (still the 20th in UTC): maintenance from the 79 kg, 2,743.5 → 2,744.
            let tomorrow = try await reader.dashboard(userId: user, now: Fixtures.utc("2026-01-20T23:30:00Z"))
            #expect(tomorrow.date == Fixtures.date("2026-01-21"))
            #expect(tomorrow.targets.calories == 2_744)
            #expect(tomorrow.targets.cycle == nil)
            #expect(tomorrow.targets.proteinGrams == 126)
            #expect(tomorrow.planUpdatesOn == nil)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func noProfileYetIsReportedNotGuessed(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            #expect(try await stores.dashboard.dashboardInputs(userId: user, now: Fixtures.utc("2026-04-10T12:00:00Z")) == nil)
            await #expect(throws: StoreError.notFound("No profile yet: finish onboarding first.")) {
                try await DashboardReader(store: stores.dashboard).dashboard(userId: user, now: Fixtures.utc("2026-04-10T12:00:00Z"))
            }
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aBrokenStreakCountsForNothingAndADeletedMealLeavesTheDay(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            _ = try await stores.profiles.saveProfile(Fixtures.profile(timeZone: "UTC"), userId: user, expectedVersion: nil)
            for back in 2..<10 {
                _ = try await stores.weights.saveWeight(
                    WeightEntry(kg: 80, loggedAt: Fixtures.utc("2026-02-20T07:00:00Z").addingTimeInterval(Double(-back) * 86_400)),
                    userId: user, timeZone: .gmt)
            }
            let reader = DashboardReader(store: stores.dashboard)
            let day = try await reader.dashboard(userId: user, now: Fixtures.utc("2026-02-20T09:00:00Z"))
            #expect(day.streak.days == 0)
            #expect(day.showsWeightPrompt)
            #expect(day.weightCard.todayKg == nil)

            // A meal today starts a new streak of 1; deleting it takes the day away again.
            let meal = try await stores.meals.saveMeal(
                Meal(name: "Eggs", kcal: 300, loggedAt: Fixtures.utc("2026-02-20T08:00:00Z")), userId: user, timeZone: .gmt)
            #expect(try await reader.dashboard(userId: user, now: Fixtures.utc("2026-02-20T09:00:00Z")).streak.days == 1)
            try await stores.meals.deleteMeal(userId: user, id: meal.id)
            let after = try await reader.dashboard(userId: user, now: Fixtures.utc("2026-02-20T09:00:00Z"))
            #expect(after.streak.days == 0)
            #expect(after.totals.mealCount == 0)
        }
    }

    /// The kept inputs (both backends keep each user's inputs per process): on PostgreSQL they are tagged with the
    /// user's `last_version`, which the session lookup reads; every write that changes the dashboard must move it,
    /// or another process's write would stay unseen. SQLite reads no version (its process sees every write).
    @Test(arguments: StoreBackend.allCases)
    func theSessionLookupsDataVersionMovesWithEveryWriteTheDashboardShows(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let zone = TimeZone(identifier: "UTC")!
            _ = try await stores.profiles.saveProfile(Fixtures.profile(timeZone: "UTC"), userId: user, expectedVersion: nil)
            let now = stores.clock.now
            try await stores.accounts.createSession(AccountSession(
                tokenHash: Self.tokenHash, userId: user, kind: .api, createdAt: now,
                expiresAt: now.addingTimeInterval(86_400), lastUsedAt: now))
            func dataVersion() async throws -> Int64? {
                try await stores.accounts.session(tokenHash: Self.tokenHash)?.dataVersion
            }
            func inputs(_ version: Int64?) async throws -> DashboardInputs {
                try #require(try await stores.dashboard.dashboardInputs(userId: user, now: now, dataVersion: version))
            }

            let first = try await dataVersion()
            #expect(try await inputs(first).todaysMeals.isEmpty)
            _ = try await stores.meals.saveMeal(Meal(name: "Porridge", kcal: 320, loggedAt: now.addingTimeInterval(-600)), userId: user, timeZone: zone)
            let afterMeal = try await dataVersion()
            switch backend {
            case .sqlite:
                #expect(try await inputs(first).todaysMeals.map(\.name) == ["Porridge"], "SQLite needs no version")
            case .postgres:
                // The inputs really are kept: asked at the version they were read at, the process answers its copy.
                // (A caller only ever passes the version its own session lookup has just read.)
                #expect(try await inputs(first).todaysMeals.isEmpty)
            }
            #expect(try await inputs(afterMeal).todaysMeals.map(\.name) == ["Porridge"])
            _ = try await stores.weights.saveWeight(WeightEntry(kg: 71.4, loggedAt: now.addingTimeInterval(-300)), userId: user, timeZone: zone)
            let afterWeight = try await dataVersion()
            #expect(try await inputs(afterWeight).recentWeights.last?.kg == 71.4)
            var stored = try #require(try await stores.profiles.profile(userId: user))
            stored.profile.mealsPerDay = 5
            _ = try await stores.profiles.saveProfile(stored.profile, userId: user, expectedVersion: stored.version)
            let afterProfile = try await dataVersion()
            #expect(try await inputs(afterProfile).profile.profile.mealsPerDay == 5)

            switch backend {
            case .sqlite:
                #expect(first == nil && afterProfile == nil)
            case .postgres:
                let versions = [first, afterMeal, afterWeight, afterProfile].compactMap { $0 }
                #expect(versions.count == 4 && versions == versions.sorted() && Set(versions).count == 4, "\(versions)")
            }
        }
    }

    /// The profile a meal or weight save reads comes from the process's copy when the session lookup saw its
    /// version (PostgreSQL). What another process saves must be read at once: here a second store on the same
    /// database stands for the other process, and the first store, which kept the old profile, must answer the new.
    @Test(arguments: StoreBackend.allCases)
    func theProfileReadWithTheSessionIsNeverOlderThanTheLookup(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let now = stores.clock.now
            try await stores.accounts.createSession(AccountSession(
                tokenHash: Self.tokenHash, userId: user, kind: .api, createdAt: now,
                expiresAt: now.addingTimeInterval(86_400), lastUsedAt: now))
            func seen() async throws -> ProfileSeen? { try await stores.accounts.session(tokenHash: Self.tokenHash)?.profileSeen }

            // No profile yet: the lookup says so, and no read is needed to answer "none".
            let before = try await seen()
            #expect(try await stores.profiles.profile(userId: user, seen: before) == nil)

            let first = try await stores.profiles.saveProfile(Fixtures.profile(timeZone: "UTC"), userId: user, expectedVersion: nil)
            let seenFirst = try await seen()
            #expect(try await stores.profiles.profile(userId: user, seen: seenFirst) == first)

            // "Another process" saves a change through its own store (its own cache) on the same database.
            let other = try await stores.anotherProcessProfiles()
            var changed = first.profile
            changed.mealsPerDay = 5
            let second = try await other.saveProfile(changed, userId: user, expectedVersion: first.version)
            if backend == .postgres {
                // The copy is really kept: asked with the version it was read at, the first store answers it unread.
                // (A caller only ever passes what its own session lookup has just seen.)
                #expect(try await stores.profiles.profile(userId: user, seen: seenFirst) == first)
            }
            let seenSecond = try await seen()
            let answered = try #require(try await stores.profiles.profile(userId: user, seen: seenSecond))
            #expect(answered == second)
            #expect(answered.profile.mealsPerDay == 5)

            switch backend {
            case .sqlite:
                #expect(before == nil && seenFirst == nil && seenSecond == nil, "SQLite's lookup does not read the profile")
            case .postgres:
                #expect(before == ProfileSeen.none)
                #expect(seenFirst == .version(first.version))
                #expect(seenSecond == .version(second.version))
                #expect(second.version > first.version)
            }
        }
    }
}
