import Foundation
import Testing
import WDietCore
import WDietStore
import WDietTestSupport

/// Issue 17 on every backend: a meal's slot is kept as chosen (or as none), through a save, an edit, a batch, a sync
/// push and a pull; and a range of days reads newest first, without tombstones, within its limit.
@Suite struct MealSlotConformanceTests {
    let berlin = Fixtures.zone("Europe/Berlin")

    @Test(arguments: StoreBackend.allCases)
    func aChosenSlotIsKeptAndNoSlotStaysNone(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            // 07:15 UTC is 08:15 in Berlin: breakfast by the clock, logged as a snack on purpose.
            let snack = Meal(name: "Apple", kcal: 52, loggedAt: Fixtures.utc("2026-03-01T07:15:00Z"), slot: .snack)
            let plain = Meal(name: "Soup", kcal: 210, loggedAt: Fixtures.utc("2026-03-01T18:30:00Z"))

            let saved = try await stores.meals.saveMeal(snack, userId: user, timeZone: berlin)
            let savedPlain = try await stores.meals.saveMeal(plain, userId: user, timeZone: berlin)
            #expect(saved.meal.slot == .snack)
            #expect(savedPlain.meal.slot == nil)
            #expect(savedPlain.meal.slot(in: berlin) == .dinner)  // 19:30 in Berlin
            #expect(try await stores.meals.meal(userId: user, id: snack.id)?.meal.slot == .snack)
            #expect(try await stores.meals.meal(userId: user, id: plain.id)?.meal.slot == nil)

            var edited = snack
            edited.slot = .breakfast
            let resaved = try await stores.meals.saveMeal(edited, userId: user, timeZone: berlin)
            #expect(resaved.meal.slot == .breakfast)
            #expect(resaved.version > saved.version)
            let day = try await stores.meals.meals(userId: user, on: Fixtures.date("2026-03-01"))
            #expect(day.map(\.meal.slot) == [nil, .breakfast])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aSlotTravelsThroughABatchAndASyncPushAndPull(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            _ = try await stores.profiles.saveProfile(Fixtures.profile(), userId: user, expectedVersion: nil)
            let lunch = Meal(name: "Salad", kcal: 320, loggedAt: Fixtures.utc("2026-03-02T11:00:00Z"), slot: .lunch)
            let dinner = Meal(name: "Pasta", kcal: 640, loggedAt: Fixtures.utc("2026-03-02T18:00:00Z"), slot: .dinner)
            let batch = try await stores.meals.saveMeals([lunch, dinner], userId: user, timeZone: berlin)
            #expect(batch.map(\.meal.slot) == [.lunch, .dinner])

            let pushed = Meal(name: "Yoghurt", kcal: 150, loggedAt: Fixtures.utc("2026-03-02T20:30:00Z"), slot: .snack)
            var edit = dinner
            edit.slot = .lunch
            let results = try await stores.sync.push([
                .upsert(pushed, key: "k1"),
                .upsert(edit, baseVersion: batch[1].version, key: "k2"),
            ], userId: user)
            #expect(results.map(\.status) == [.applied, .applied])
            let page = try await stores.sync.pull(userId: user, after: 0, limit: 100)
            let slots = Dictionary(uniqueKeysWithValues: page.items.compactMap { item in item.meal.map { ($0.id, $0.slot) } })
            #expect(slots[lunch.id] == .lunch)
            #expect(slots[dinner.id] == .lunch)
            #expect(slots[pushed.id] == .snack)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aRangeOfDaysIsNewestFirstWithoutTombstonesWithinItsLimit(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let other = try await stores.makeUser()
            var meals: [Meal] = []
            for day in 1...5 {
                meals.append(Meal(name: "Day \(day)", kcal: Double(100 * day), loggedAt: Fixtures.utc("2026-03-0\(day)T10:00:00Z")))
            }
            _ = try await stores.meals.saveMeals(meals, userId: user, timeZone: berlin)
            _ = try await stores.meals.saveMeal(Meal(name: "Theirs", kcal: 99, loggedAt: Fixtures.utc("2026-03-03T10:00:00Z")), userId: other, timeZone: berlin)
            try await stores.meals.deleteMeal(userId: user, id: meals[2].id)

            let range = try await stores.meals.meals(userId: user, from: Fixtures.date("2026-03-02"), through: Fixtures.date("2026-03-05"), limit: 10)
            #expect(range.map(\.meal.name) == ["Day 5", "Day 4", "Day 2"])
            let limited = try await stores.meals.meals(userId: user, from: Fixtures.date("2026-03-01"), through: Fixtures.date("2026-03-05"), limit: 2)
            #expect(limited.map(\.meal.name) == ["Day 5", "Day 4"])
        }
    }
}
