import Foundation
import Testing
import WDietCore
import WDietStore
import WDietTestSupport

/// `LoggedDayStore` on every backend: the days kept in step with every meal and weight write.
@Suite struct CoachLoggedDayConformanceTests {
    static let berlin = Fixtures.zone("Europe/Berlin")

    static func at(_ date: String, hour: Double = 9) -> Date {
        Fixtures.date(date).startInstant(in: berlin).addingTimeInterval(hour * 3_600)
    }

    @Test(arguments: StoreBackend.allCases)
    func aDayCountsWithAMealOrAWeightButNotWithADeletedOne(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let other = try await stores.makeUser()
            _ = try await stores.meals.saveMeal(
                Meal(name: "Breakfast", kcal: 400, loggedAt: Fixtures.utc("2026-03-01T07:00:00Z")), userId: user, timeZone: Self.berlin)
            // 23:30 UTC on the 1st is 00:30 on the 2nd in Berlin.
            _ = try await stores.meals.saveMeal(
                Meal(name: "Midnight snack", kcal: 200, loggedAt: Fixtures.utc("2026-03-01T23:30:00Z")), userId: user, timeZone: Self.berlin)
            _ = try await stores.meals.saveMeal(
                Meal(name: "Not mine", kcal: 500, loggedAt: Fixtures.utc("2026-03-03T12:00:00Z")), userId: other, timeZone: Self.berlin)
            _ = try await stores.weights.saveWeight(
                WeightEntry(kg: 80, loggedAt: Fixtures.utc("2026-03-04T06:00:00Z")), userId: user, timeZone: Self.berlin)
            let deleted = try await stores.meals.saveMeal(
                Meal(name: "Deleted", kcal: 300, loggedAt: Fixtures.utc("2026-03-05T12:00:00Z")), userId: user, timeZone: Self.berlin)
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
    }

    @Test(arguments: StoreBackend.allCases)
    func aDayFollowsItsEntriesThroughMovesAndDeletes(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let march = Fixtures.date("2026-03-01")...Fixtures.date("2026-03-31")
            let lunch = Meal(name: "Lunch", kcal: 600, loggedAt: Self.at("2026-03-10", hour: 12))
            _ = try await stores.meals.saveMeal(lunch, userId: user, timeZone: Self.berlin)
            let weight = try await stores.weights.saveWeight(
                WeightEntry(kg: 80, loggedAt: Self.at("2026-03-10")), userId: user, timeZone: Self.berlin)

            // The meal moves to the 9th; the weight keeps the 10th.
            var moved = lunch
            moved.loggedAt = Self.at("2026-03-09", hour: 12)
            _ = try await stores.meals.saveMeal(moved, userId: user, timeZone: Self.berlin)
            #expect(try await stores.loggedDays.loggedDays(userId: user, in: march) == Set(["2026-03-09", "2026-03-10"].map(Fixtures.date)))

            try await stores.meals.deleteMeal(userId: user, id: lunch.id)
            #expect(try await stores.loggedDays.loggedDays(userId: user, in: march) == [Fixtures.date("2026-03-10")])
            try await stores.weights.deleteWeight(userId: user, id: weight.id)
            #expect(try await stores.loggedDays.loggedDays(userId: user, in: march).isEmpty)
            _ = try await stores.meals.restoreMeal(userId: user, id: lunch.id)
            #expect(try await stores.loggedDays.loggedDays(userId: user, in: march) == [Fixtures.date("2026-03-09")])
        }
    }

    /// A sync push writes its meals and weights as batches (one statement per kind on PostgreSQL), so the days must
    /// be counted per row of a batch: a day stays while one live entry is left on it, whatever else the batch did.
    @Test(arguments: StoreBackend.allCases)
    func aDayFollowsItsEntriesThroughSyncBatches(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            _ = try await stores.sync.push(
                [SyncChange(idempotencyKey: "profile", entity: .profile, op: .upsert, profile: Fixtures.profile())], userId: user)
            let march = Fixtures.date("2026-03-01")...Fixtures.date("2026-03-31")
            func days() async throws -> Set<LocalDate> { try await stores.loggedDays.loggedDays(userId: user, in: march) }
            func meal(_ name: String, _ instant: String) -> Meal { Meal(name: name, kcal: 400, loggedAt: Fixtures.utc(instant)) }
            var a = meal("A", "2026-03-01T11:00:00Z"), b = meal("B", "2026-03-01T12:00:00Z")
            let c = meal("C", "2026-03-02T12:00:00Z"), d = meal("D", "2026-03-03T12:00:00Z")
            var w1 = WeightEntry(kg: 80, loggedAt: Fixtures.utc("2026-03-03T06:00:00Z"))
            let w2 = WeightEntry(kg: 79.8, loggedAt: Fixtures.utc("2026-03-04T06:00:00Z"))

            let created = try await stores.sync.push([
                .upsert(a, key: "a"), .upsert(b, key: "b"), .upsert(c, key: "c"), .upsert(d, key: "d"),
                .upsert(w1, key: "w1"), .upsert(w2, key: "w2"),
            ], userId: user)
            #expect(created.allSatisfy { $0.status == .applied })
            #expect(try await days() == Set(["2026-03-01", "2026-03-02", "2026-03-03", "2026-03-04"].map(Fixtures.date)))
            let version = Dictionary(uniqueKeysWithValues: created.map { ($0.idempotencyKey, $0.version!) })

            // Edits in place (A, W1) leave their days alone; B moves to the 5th; C and W2 become tombstones.
            a.kcal = 450
            b.loggedAt = Fixtures.utc("2026-03-05T12:00:00Z")
            w1.kg = 79.9
            let edited = try await stores.sync.push([
                .upsert(a, baseVersion: version["a"], key: "a2"), .upsert(b, baseVersion: version["b"], key: "b2"),
                .delete(.meal, id: c.id, baseVersion: version["c"], key: "c2"), .upsert(w1, baseVersion: version["w1"], key: "w1-2"),
                .delete(.weight, id: w2.id, baseVersion: version["w2"], key: "w2-2"),
            ], userId: user)
            #expect(edited.allSatisfy { $0.status == .applied })
            #expect(try await days() == Set(["2026-03-01", "2026-03-03", "2026-03-05"].map(Fixtures.date)))

            // C comes back from its tombstone; A, the 1st's last entry, goes: the 1st is no longer a logged day.
            let cTombstone = edited.first { $0.idempotencyKey == "c2" }!.version
            let aEdited = edited.first { $0.idempotencyKey == "a2" }!.version
            let last = try await stores.sync.push(
                [.upsert(c, baseVersion: cTombstone, key: "c3"), .delete(.meal, id: a.id, baseVersion: aEdited, key: "a3")], userId: user)
            #expect(last.map(\.status) == [.applied, .applied])
            #expect(try await days() == Set(["2026-03-02", "2026-03-03", "2026-03-05"].map(Fixtures.date)))
            // The 3rd has D and W1: one of them gone leaves it logged.
            _ = try await stores.meals.deleteMeal(userId: user, id: d.id)
            #expect(try await days() == Set(["2026-03-02", "2026-03-03", "2026-03-05"].map(Fixtures.date)))
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func theLatestRunStopsAtTheFirstGapAndIgnoresLaterDays(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let other = try await stores.makeUser()
            for day in ["2026-03-01", "2026-03-02", "2026-03-04", "2026-03-05", "2026-03-06", "2026-03-08"] {
                _ = try await stores.meals.saveMeal(Meal(name: "M", kcal: 100, loggedAt: Self.at(day)), userId: user, timeZone: Self.berlin)
            }
            _ = try await stores.meals.saveMeal(Meal(name: "M", kcal: 100, loggedAt: Self.at("2026-03-03")), userId: other, timeZone: Self.berlin)

            let run = try await stores.loggedDays.latestRun(userId: user, through: Fixtures.date("2026-03-07"))
            #expect(run == ["2026-03-06", "2026-03-05", "2026-03-04"].map(Fixtures.date))
            #expect(Streak(loggedDays: run, today: Fixtures.date("2026-03-07")).days == 3)
            #expect(try await stores.loggedDays.latestRun(userId: user, through: Fixtures.date("2026-03-08")) == [Fixtures.date("2026-03-08")])
            #expect(try await stores.loggedDays.latestRun(userId: user, through: Fixtures.date("2026-02-28")).isEmpty)
            // Another user's 3rd does not bridge the gap.
            #expect(try await stores.loggedDays.latestRun(userId: other, through: Fixtures.date("2026-03-07")) == [Fixtures.date("2026-03-03")])
        }
    }

    /// A streak across a year boundary and a DST change, in a zone far from UTC.
    @Test(arguments: StoreBackend.allCases)
    func aLongRunAcrossAYearAndAClockChange(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let auckland = Fixtures.zone("Pacific/Auckland")  // NZDT → NZST on 2026-04-05
            let last = Fixtures.date("2026-04-10")
            let meals = (0..<120).map { back in
                Meal(name: "Day", kcal: 300, loggedAt: last.adding(days: -back).startInstant(in: auckland).addingTimeInterval(30 * 60))
            }
            _ = try await stores.meals.saveMeals(meals, userId: user, timeZone: auckland)

            let run = try await stores.loggedDays.latestRun(userId: user, through: last)
            #expect(run.count == 120)
            #expect(run.first == last)
            #expect(run.last == Fixtures.date("2025-12-12"))
        }
    }
}
