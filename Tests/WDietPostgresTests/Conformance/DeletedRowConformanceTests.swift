import Foundation
import Testing
import WDietCore
import WDietPostgres
import WDietSQLite
import WDietStore
import WDietTestSupport

/// Deleted rows keep no content past the undo and replay windows (issue 21 item 8): `DeletedRowStore` on every
/// backend, with worked dates. The clock starts 2026-03-01T09:00:00Z.
@Suite struct DeletedRowConformanceTests {
    let berlin = Fixtures.zone("Europe/Berlin")
    let day: TimeInterval = 86_400

    func deletedRows(_ stores: CoachStores) -> any DeletedRowStore {
        switch stores.database {
        case .sqlite(let database): SQLiteDeletedRowStore(database: database, now: stores.clock.closure)
        case .postgres(let client): PostgresDeletedRowStore(client: client, now: stores.clock.closure)
        }
    }

    func sweep(_ stores: CoachStores) async throws -> DeletedRowSweep {
        try await deletedRows(stores).scrubDeletedRows(
            deletedBefore: stores.clock.now.addingTimeInterval(-DeletedRows.retention), limit: DeletedRows.batchSize)
    }

    func pulled(_ stores: CoachStores, _ user: UUID) async throws -> [UUID: SyncItem] {
        let items = try await stores.sync.pull(userId: user, after: 0, limit: 1_000).items
        return Dictionary(uniqueKeysWithValues: items.compactMap { item in item.id.map { ($0, item) } })
    }

    @Test(arguments: StoreBackend.allCases)
    func aMealDeleted31DaysAgoKeepsOnlyItsTombstoneAndOne29DaysAgoCanBeRestored(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let oats = Meal(
                name: "Oats", foodId: "08120", grams: 80, kcal: 303.2, protein: 10.5, carbs: 54.1, fat: 5.3, fiber: 8.0,
                source: .database, loggedAt: Fixtures.utc("2026-03-01T07:15:00Z"), slot: .breakfast)
            let soup = Meal(name: "Soup", kcal: 250, protein: 12, loggedAt: Fixtures.utc("2026-03-01T12:00:00Z"))
            let apple = Meal(name: "Apple", kcal: 95, loggedAt: Fixtures.utc("2026-03-01T15:00:00Z"))
            for meal in [oats, soup, apple] { _ = try await stores.meals.saveMeal(meal, userId: user, timeZone: berlin) }

            // Oats deleted 2026-03-01T09:00Z, the soup two days later; the sweep runs 2026-04-01T09:00Z: 31 and 29
            // days after.
            let oatsTombstone = try await stores.meals.deleteMeal(userId: user, id: oats.id)
            stores.clock.advance(seconds: 2 * day)
            _ = try await stores.meals.deleteMeal(userId: user, id: soup.id)
            stores.clock.advance(seconds: 29 * day)
            #expect(stores.clock.now == Fixtures.utc("2026-04-01T09:00:00Z"))
            let liveApple = try await stores.meals.meal(userId: user, id: apple.id)

            #expect(try await sweep(stores) == DeletedRowSweep(mealsScrubbed: 1))

            // The pull still gives the oats' tombstone, same version, dates and day, with no content.
            let items = try await pulled(stores, user)
            let scrubbed = try #require(items[oats.id])
            #expect(scrubbed.version == oatsTombstone.version)
            #expect(scrubbed.deletedAt == Fixtures.utc("2026-03-01T09:00:00Z"))
            #expect(scrubbed.updatedAt == oatsTombstone.updatedAt)
            #expect(scrubbed.localDate == Fixtures.date("2026-03-01"))
            let meal = try #require(scrubbed.meal)
            #expect(meal.name == "")
            #expect(meal.kcal == 0)
            #expect(meal.foodId == nil && meal.grams == nil && meal.slot == nil && meal.source == .manual)
            #expect(meal.protein == nil && meal.carbs == nil && meal.fat == nil && meal.fiber == nil)
            // The soup (29 days) keeps its content; the live apple is untouched.
            #expect(items[soup.id]?.meal?.name == "Soup")
            #expect(items[soup.id]?.meal?.kcal == 250)
            #expect(try await stores.meals.meal(userId: user, id: apple.id) == liveApple)
            #expect(liveApple?.meal == apple)

            // A restore of the scrubbed meal answers what a missing one answers; the soup comes back whole.
            let missing = await #expect(throws: StoreError.self) { try await stores.meals.restoreMeal(userId: user, id: UUID()) }
            let refused = await #expect(throws: StoreError.self) { try await stores.meals.restoreMeal(userId: user, id: oats.id) }
            #expect(refused == missing)
            let restored = try await stores.meals.restoreMeal(userId: user, id: soup.id)
            #expect(restored.meal == soup)
            #expect(restored.deletedAt == nil)

            // A second sweep finds nothing more to do.
            #expect(try await sweep(stores) == DeletedRowSweep())
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aWeightDeleted31DaysAgoLosesItsValueAndOne29DaysAgoCanBeRestored(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let early = WeightEntry(kg: 82.4, loggedAt: Fixtures.utc("2026-03-01T06:30:00Z"))
            let later = WeightEntry(kg: 81.9, loggedAt: Fixtures.utc("2026-03-02T06:30:00Z"))
            let kept = WeightEntry(kg: 81.5, loggedAt: Fixtures.utc("2026-03-03T06:30:00Z"))
            for entry in [early, later, kept] { _ = try await stores.weights.saveWeight(entry, userId: user, timeZone: berlin) }

            let tombstone = try await stores.weights.deleteWeight(userId: user, id: early.id)
            stores.clock.advance(seconds: 2 * day)
            _ = try await stores.weights.deleteWeight(userId: user, id: later.id)
            stores.clock.advance(seconds: 29 * day)

            #expect(try await sweep(stores) == DeletedRowSweep(weightsScrubbed: 1))

            let items = try await pulled(stores, user)
            let scrubbed = try #require(items[early.id])
            #expect(scrubbed.version == tombstone.version)
            #expect(scrubbed.deletedAt == Fixtures.utc("2026-03-01T09:00:00Z"))
            #expect(scrubbed.localDate == Fixtures.date("2026-03-01"))
            #expect(scrubbed.weight?.kg == DeletedRows.scrubbedWeightKg)
            #expect(items[later.id]?.weight?.kg == 81.9)
            #expect(items[kept.id]?.weight?.kg == 81.5)
            #expect(items[kept.id]?.deletedAt == nil)

            let missing = await #expect(throws: StoreError.self) { try await stores.weights.restoreWeight(userId: user, id: UUID()) }
            let refused = await #expect(throws: StoreError.self) { try await stores.weights.restoreWeight(userId: user, id: early.id) }
            #expect(refused == missing)
            #expect(try await stores.weights.restoreWeight(userId: user, id: later.id).entry == later)
            #expect(try await sweep(stores) == DeletedRowSweep())
        }
    }

    /// A scrubbed meal brought back by a sync upsert from the tombstone's version (the device still had it) holds
    /// what the device sent, and when it is deleted again it is scrubbed again 31 days later.
    @Test(arguments: StoreBackend.allCases)
    func aMealBroughtBackBySyncAndDeletedAgainIsScrubbedAgain(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            _ = try await stores.sync.push(
                [SyncChange(idempotencyKey: "profile", entity: .profile, op: .upsert, profile: Fixtures.profile())], userId: user)
            let soup = Meal(name: "Soup", kcal: 250, loggedAt: Fixtures.utc("2026-03-01T12:00:00Z"))
            _ = try await stores.meals.saveMeal(soup, userId: user, timeZone: berlin)
            let tombstone = try await stores.meals.deleteMeal(userId: user, id: soup.id)
            stores.clock.advance(seconds: 31 * day)
            #expect(try await sweep(stores) == DeletedRowSweep(mealsScrubbed: 1, replayResultsRemoved: 1))

            let back = try await stores.sync.push([.upsert(soup, baseVersion: tombstone.version, key: "back")], userId: user)
            #expect(back.map(\.status) == [.applied])
            #expect(try await stores.meals.meal(userId: user, id: soup.id)?.meal == soup)
            _ = try await stores.meals.deleteMeal(userId: user, id: soup.id)
            stores.clock.advance(seconds: 29 * day)
            #expect(try await sweep(stores) == DeletedRowSweep())
            #expect(try await pulled(stores, user)[soup.id]?.meal?.name == "Soup")
            stores.clock.advance(seconds: 2 * day)
            #expect(try await sweep(stores) == DeletedRowSweep(mealsScrubbed: 1, replayResultsRemoved: 1))
            #expect(try await pulled(stores, user)[soup.id]?.meal?.name == "")
        }
    }

    /// A replay result older than the replay window is removed even when its user never pushes again.
    @Test(arguments: StoreBackend.allCases)
    func replayResultsOlderThan30DaysAreRemoved(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            _ = try await stores.sync.push([.delete(.meal, id: UUID(), key: "first")], userId: user)
            stores.clock.advance(seconds: 2 * day)
            _ = try await stores.sync.push([.delete(.meal, id: UUID(), key: "second")], userId: user)
            stores.clock.advance(seconds: 29 * day)

            #expect(try await sweep(stores) == DeletedRowSweep(replayResultsRemoved: 1))
            #expect(try await sweep(stores) == DeletedRowSweep())
        }
    }

    /// Batches are bounded: three tombstones with a limit of two take two batches.
    @Test(arguments: StoreBackend.allCases)
    func aSweepScrubsInBoundedBatches(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            for hour in 0..<3 {
                let meal = Meal(name: "Snack \(hour)", kcal: 100, loggedAt: Fixtures.utc("2026-03-01T1\(hour):00:00Z"))
                _ = try await stores.meals.saveMeal(meal, userId: user, timeZone: berlin)
                _ = try await stores.meals.deleteMeal(userId: user, id: meal.id)
            }
            stores.clock.advance(seconds: 31 * day)
            let cutoff = stores.clock.now.addingTimeInterval(-DeletedRows.retention)
            let store = deletedRows(stores)
            #expect(try await store.scrubDeletedRows(deletedBefore: cutoff, limit: 2) == DeletedRowSweep(mealsScrubbed: 2))
            #expect(try await store.scrubDeletedRows(deletedBefore: cutoff, limit: 2) == DeletedRowSweep(mealsScrubbed: 1))
            #expect(try await store.scrubDeletedRows(deletedBefore: cutoff, limit: 2) == DeletedRowSweep())
            let names = try await pulled(stores, user).values.compactMap(\.meal?.name)
            #expect(names == ["", "", ""])
        }
    }
}
