import Foundation
import Testing
import WDietCore
import WDietStore
import WDietTestSupport

/// The sync protocol's store rules (docs/sync.md) on every backend: push, replay, conflicts, scoping, pull paging.
/// Versions are per user on PostgreSQL and database-wide on SQLite; with one user they are the same numbers (the
/// user's row is 1, the next change 2, …), so the tests pin them.
@Suite struct SyncConformanceTests {
    static func meal(_ name: String, kcal: Double = 400, at instant: String = "2026-03-01T12:00:00Z", id: UUID = UUID()) -> Meal {
        Meal(id: id, name: name, kcal: kcal, loggedAt: Fixtures.utc(instant))
    }

    /// A user with a profile in Europe/Berlin, pushed as version 2.
    static func userWithProfile(_ stores: CoachStores) async throws -> UUID {
        let user = try await stores.makeUser()
        let results = try await stores.sync.push(
            [SyncChange(idempotencyKey: "profile-1", entity: .profile, op: .upsert, profile: Fixtures.profile())], userId: user)
        #expect(results.map(\.version) == [2])
        return user
    }

    @Test(arguments: StoreBackend.allCases)
    func aPushAppliesEveryKindAndThePullHandsThemOutInVersionOrder(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            // 23:30 UTC is 00:30 the next day in Berlin: the server dates the meal in the profile's zone.
            let meal = Self.meal("Late snack", kcal: 250, at: "2026-03-01T23:30:00Z")
            let weight = WeightEntry(kg: 81.4, loggedAt: Fixtures.utc("2026-03-01T06:55:00Z"))
            let event = AnalyticsEvent(name: .mealLogged, properties: ["source": "manual"], occurredAt: Fixtures.utc("2026-03-01T23:30:02Z"))
            let rowId = UUID()
            let changes = [
                SyncChange(idempotencyKey: "k0", entity: .profile, op: .upsert, profile: Fixtures.profile()),
                SyncChange.upsert(meal, key: "k1"),
                SyncChange.upsert(weight, key: "k2"),
                SyncChange(idempotencyKey: "k3", entity: .event, op: .upsert, id: event.id, event: event),
                SyncChange(
                    idempotencyKey: "k4", entity: .row, op: .upsert, id: rowId, collection: "diary",
                    data: .object(["mood": .number(4), "note": .string("Slept well")])),
            ]
            let results = try await stores.sync.push(changes, userId: user)
            #expect(results.map(\.status) == [.applied, .applied, .applied, .applied, .applied])
            #expect(results.map(\.version) == [2, 3, 4, nil, 6])
            #expect(results.map(\.idempotencyKey) == ["k0", "k1", "k2", "k3", "k4"])

            let page = try await stores.sync.pull(userId: user, after: 0, limit: 100)
            #expect(page.items.map(\.entity) == [.profile, .meal, .weight, .row])
            #expect(page.items.map(\.version) == [2, 3, 4, 6])
            #expect(page.nextCursor == 6)
            #expect(page.hasMore == false)
            #expect(page.items[0].profile == Fixtures.profile())
            #expect(page.items[1].meal == meal)
            #expect(page.items[1].localDate == Fixtures.date("2026-03-02"))
            #expect(page.items[2].weight == weight)
            #expect(page.items[3].collection == "diary")
            #expect(page.items[3].data == .object(["mood": .number(4), "note": .string("Slept well")]))
            // The event is recorded (for the metrics), never pulled.
            #expect(try await stores.analytics.events(userId: user) == [event])
            // The meal is in the normal API's reads too.
            #expect(try await stores.meals.meal(userId: user, id: meal.id)?.version == 3)

            let empty = try await stores.sync.pull(userId: user, after: 6, limit: 100)
            #expect(empty.items.isEmpty)
            #expect(empty.nextCursor == 6)
            #expect(empty.hasMore == false)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aReplayedPushChangesNothingAndAnswersTheFirstResults(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await Self.userWithProfile(stores)
            let meal = Self.meal("Porridge", kcal: 320)
            let push = [SyncChange.upsert(meal, key: "a"), SyncChange.delete(.weight, id: UUID(), key: "b")]
            let first = try await stores.sync.push(push, userId: user)
            #expect(first.map(\.status) == [.applied, .ignored])
            #expect(first[0].version == 3)

            // Another device edits the meal; then the first push arrives again (its answer was lost).
            var edited = meal
            edited.kcal = 350
            let saved = try await stores.meals.saveMeal(edited, userId: user, timeZone: .gmt)
            #expect(saved.version == 4)
            let replay = try await stores.sync.push(push, userId: user)
            #expect(replay == first)
            #expect(try await stores.meals.meal(userId: user, id: meal.id)?.meal.kcal == 350)
            #expect(try await stores.sync.pull(userId: user, after: 4, limit: 10).items.isEmpty)

            // A push mixing a replayed key with a new one applies only the new one.
            let later = Self.meal("Apple", kcal: 95)
            let mixed = try await stores.sync.push([push[0], SyncChange.upsert(later, key: "c")], userId: user)
            #expect(mixed[0] == first[0])
            #expect(mixed[1].status == .applied)
            #expect(mixed[1].version == 5)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func resultsAreKeptThirtyDaysThenAReplayIsJudgedAgain(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await Self.userWithProfile(stores)
            let meal = Self.meal("Soup")
            _ = try await stores.sync.push([SyncChange.upsert(meal, key: "create")], userId: user)
            let delete = [SyncChange.delete(.meal, id: meal.id, baseVersion: 3, key: "delete")]
            let first = try await stores.sync.push(delete, userId: user)
            #expect(first[0].status == .applied)
            #expect(first[0].version == 4)

            stores.clock.advance(seconds: 29 * 86_400)
            #expect(try await stores.sync.push(delete, userId: user) == first)
            // Past 30 days the stored answer is gone: the delete is judged again, against the tombstone.
            stores.clock.advance(seconds: 2 * 86_400)
            let again = try await stores.sync.push(delete, userId: user)
            #expect(again[0].status == .ignored)
            #expect(again[0].version == 4)
            #expect(again[0].server?.deletedAt != nil)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func anEditFromAnOlderBaseLosesAndIsToldTheServersCopy(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await Self.userWithProfile(stores)
            let meal = Self.meal("Chicken", kcal: 248)
            _ = try await stores.sync.push([SyncChange.upsert(meal, key: "create")], userId: user)

            // Both devices edit from version 3; the first to arrive wins.
            var phone = meal
            phone.kcal = 330
            var tablet = meal
            tablet.kcal = 200
            let won = try await stores.sync.push([SyncChange.upsert(phone, baseVersion: 3, key: "phone")], userId: user)
            #expect(won[0].status == .applied)
            #expect(won[0].version == 4)
            let lost = try await stores.sync.push([SyncChange.upsert(tablet, baseVersion: 3, key: "tablet")], userId: user)
            #expect(lost[0].status == .lost)
            #expect(lost[0].version == 4)
            #expect(lost[0].server?.meal == phone)
            #expect(lost[0].server?.version == 4)
            #expect(lost[0].message == "This meal was changed on another device; the other change was kept")
            #expect(try await stores.meals.meal(userId: user, id: meal.id)?.meal.kcal == 330)

            // The same values from the old base lose nothing: applied, no new version.
            let same = try await stores.sync.push([SyncChange.upsert(phone, baseVersion: 3, key: "phone-again")], userId: user)
            #expect(same[0].status == .applied)
            #expect(same[0].version == 4)
            // A create of an existing id is an update.
            var recreated = meal
            recreated.name = "Chicken breast"
            let update = try await stores.sync.push([SyncChange.upsert(recreated, key: "recreate")], userId: user)
            #expect(update[0].status == .applied)
            #expect(update[0].version == 5)
            #expect(try await stores.meals.meal(userId: user, id: meal.id)?.meal.name == "Chicken breast")
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aDeleteAndAnEditNeverResurrectOrLoseARowSilently(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await Self.userWithProfile(stores)
            let first = Self.meal("First")
            let second = Self.meal("Second")
            _ = try await stores.sync.push([SyncChange.upsert(first, key: "c1"), SyncChange.upsert(second, key: "c2")], userId: user)

            // Delete first, then an edit from before the delete: the edit is lost, the row stays deleted.
            let deleted = try await stores.sync.push([SyncChange.delete(.meal, id: first.id, baseVersion: 3, key: "d1")], userId: user)
            #expect(deleted[0].status == .applied)
            #expect(deleted[0].version == 5)
            var edit = first
            edit.kcal = 500
            let resurrect = try await stores.sync.push([SyncChange.upsert(edit, baseVersion: 3, key: "e1")], userId: user)
            #expect(resurrect[0].status == .lost)
            #expect(resurrect[0].server?.deletedAt == stores.clock.now)
            #expect(resurrect[0].server?.meal == first)
            #expect(resurrect[0].message == "This meal was deleted on another device; your change was not applied")
            #expect(try await stores.meals.meal(userId: user, id: first.id) == nil)
            // A create (no base) does not bring it back either.
            #expect(try await stores.sync.push([SyncChange.upsert(edit, key: "e2")], userId: user)[0].status == .lost)

            // Edit second, then a delete from before the edit: the delete is lost, the edited row stays.
            var edited = second
            edited.kcal = 420
            #expect(try await stores.sync.push([SyncChange.upsert(edited, baseVersion: 4, key: "e3")], userId: user)[0].version == 6)
            let staleDelete = try await stores.sync.push([SyncChange.delete(.meal, id: second.id, baseVersion: 4, key: "d2")], userId: user)
            #expect(staleDelete[0].status == .lost)
            #expect(staleDelete[0].server?.meal == edited)
            #expect(try await stores.meals.meal(userId: user, id: second.id)?.meal == edited)

            // Deletes of a tombstone and of an unknown id are ignored.
            let ignored = try await stores.sync.push(
                [SyncChange.delete(.meal, id: first.id, key: "d3"), SyncChange.delete(.meal, id: UUID(), key: "d4")], userId: user)
            #expect(ignored.map(\.status) == [.ignored, .ignored])
            #expect(ignored[0].server?.version == 5)
            #expect(ignored[1].server == nil)
            #expect(ignored[1].message == "Not on the server: nothing to delete")

            // Undo: an upsert from the tombstone's own version brings the row back.
            let undo = try await stores.sync.push([SyncChange.upsert(first, baseVersion: 5, key: "undo")], userId: user)
            #expect(undo[0].status == .applied)
            #expect(undo[0].version == 7)
            #expect(try await stores.meals.meal(userId: user, id: first.id)?.meal == first)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func genericRowsFollowTheSameRules(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let id = UUID()
            func upsert(_ mood: Double, base: Int64?, key: String) -> SyncChange {
                SyncChange(
                    idempotencyKey: key, entity: .row, op: .upsert, id: id, collection: "diary", baseVersion: base,
                    data: .object(["mood": .number(mood)]))
            }
            #expect(try await stores.sync.push([upsert(3, base: nil, key: "a")], userId: user)[0].version == 2)
            #expect(try await stores.sync.push([upsert(4, base: 2, key: "b")], userId: user)[0].version == 3)
            let lost = try await stores.sync.push([upsert(5, base: 2, key: "c")], userId: user)[0]
            #expect(lost.status == .lost)
            #expect(lost.server?.data == .object(["mood": .number(4)]))
            // The same id in another collection is another row.
            let other = SyncChange(
                idempotencyKey: "d", entity: .row, op: .upsert, id: id, collection: "notes", data: .object(["text": .string("hi")]))
            #expect(try await stores.sync.push([other], userId: user)[0].version == 4)
            let deleted = try await stores.sync.push(
                [SyncChange.delete(.row, id: id, collection: "diary", baseVersion: 3, key: "e")], userId: user)[0]
            #expect(deleted.status == .applied)
            #expect(deleted.version == 5)
            let items = try await stores.sync.pull(userId: user, after: 0, limit: 10).items
            #expect(items.map(\.collection) == ["notes", "diary"])
            #expect(items.map(\.version) == [4, 5])
            #expect(items[1].deletedAt != nil)
            #expect(items[1].data == .object(["mood": .number(4)]))
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func oneInvalidChangeRefusesTheWholePushNamingIt(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await Self.userWithProfile(stores)
            let good = Self.meal("Good")
            let bad = Self.meal("Bad", kcal: 0)
            await #expect(throws: SyncRejection.invalidChange(index: 1, key: "bad", message: "Calories must be between 1-9999")) {
                _ = try await stores.sync.push([SyncChange.upsert(good, key: "good"), SyncChange.upsert(bad, key: "bad")], userId: user)
            }
            let heavy = WeightEntry(kg: 900, loggedAt: Fixtures.utc("2026-03-01T07:00:00Z"))
            await #expect(throws: SyncRejection.invalidChange(index: 0, key: "w", message: "Weight must be less than 500 kg (1102 lbs)")) {
                _ = try await stores.sync.push([SyncChange.upsert(heavy, key: "w")], userId: user)
            }
            await #expect(throws: SyncRejection.invalidChange(index: 1, key: "again", message: "This meal is changed twice in this push; send one change per row")) {
                _ = try await stores.sync.push([SyncChange.upsert(good, key: "once"), SyncChange.upsert(good, key: "again")], userId: user)
            }
            await #expect(throws: SyncRejection.invalidChange(index: 1, key: "k", message: "This idempotency key is used twice in this push")) {
                _ = try await stores.sync.push([SyncChange.upsert(good, key: "k"), SyncChange.upsert(Self.meal("Other"), key: "k")], userId: user)
            }
            let tooMany = (0...SyncLimits.maxChangesPerPush).map { SyncChange.upsert(Self.meal("M\($0)"), key: "m\($0)") }
            await #expect(throws: SyncRejection.tooManyChanges(1_001)) {
                _ = try await stores.sync.push(tooMany, userId: user)
            }
            // Nothing of any refused push was written.
            #expect(try await stores.sync.pull(userId: user, after: 2, limit: 10).items.isEmpty)
            #expect(try await stores.meals.meal(userId: user, id: good.id) == nil)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aMealBeforeAnyProfileIsRefusedUnlessTheSamePushCreatesOne(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let meal = Self.meal("Breakfast")
            await #expect(throws: SyncRejection.profileRequired(index: 0, key: "m")) {
                _ = try await stores.sync.push([SyncChange.upsert(meal, key: "m")], userId: user)
            }
            // Onboarding offline, then a meal: one push.
            let results = try await stores.sync.push([
                SyncChange(idempotencyKey: "p", entity: .profile, op: .upsert, profile: Fixtures.profile(timeZone: "Pacific/Kiritimati")),
                SyncChange.upsert(Self.meal("Breakfast", at: "2026-03-01T12:00:00Z", id: meal.id), key: "m"),
            ], userId: user)
            #expect(results.map(\.version) == [2, 3])
            // Noon UTC is 02:00 the next day at UTC+14.
            #expect(try await stores.sync.pull(userId: user, after: 2, limit: 1).items.first?.localDate == Fixtures.date("2026-03-02"))
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aStaleProfileBaseRefusesThePushWithTheThreeCopies(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await Self.userWithProfile(stores)
            let base = Fixtures.profile()
            var phone = base
            phone.activity = .light
            var tablet = base
            tablet.weightKg = 78
            #expect(try await stores.sync.push(
                [SyncChange(idempotencyKey: "phone", entity: .profile, op: .upsert, baseVersion: 2, profile: phone)], userId: user
            )[0].version == 3)

            let meal = Self.meal("Waits for nothing")
            let stale = SyncChange(
                idempotencyKey: "tablet", entity: .profile, op: .upsert, baseVersion: 2, profile: tablet, baseProfile: base)
            do {
                _ = try await stores.sync.push([SyncChange.upsert(meal, key: "meal"), stale], userId: user)
                Issue.record("a stale profile base was applied")
            } catch let SyncRejection.profileConflict(conflict) {
                #expect(conflict.index == 1)
                #expect(conflict.idempotencyKey == "tablet")
                #expect(conflict.baseVersion == 2)
                #expect(conflict.base == base)
                #expect(conflict.local == tablet)
                #expect(conflict.server?.profile == phone)
                #expect(conflict.server?.version == 3)
            }
            // All or nothing: the meal before it was not applied either.
            #expect(try await stores.meals.meal(userId: user, id: meal.id) == nil)
            #expect(try await stores.profiles.profile(userId: user)?.profile == phone)

            // "Keep Local": the same edit from the server's version.
            var keep = stale
            keep.idempotencyKey = "tablet-keep"
            keep.baseVersion = 3
            #expect(try await stores.sync.push([keep], userId: user)[0].version == 4)
            #expect(try await stores.profiles.profile(userId: user)?.profile == tablet)
            // A profile created offline while the server has one is a conflict too (no base).
            var fresh = stale
            fresh.idempotencyKey = "fresh"
            fresh.baseVersion = nil
            fresh.profile = phone
            await #expect(throws: SyncRejection.self) { _ = try await stores.sync.push([fresh], userId: user) }
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aPushNeverTouchesAnotherUsersRows(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let owner = try await Self.userWithProfile(stores)
            let intruder = try await stores.makeUser()
            _ = try await stores.sync.push(
                [SyncChange(idempotencyKey: "p", entity: .profile, op: .upsert, profile: Fixtures.profile())], userId: intruder)
            let theirs = try await stores.meals.saveMeal(Self.meal("Theirs"), userId: owner, timeZone: .gmt)
            var stolen = theirs.meal
            stolen.name = "Stolen"
            await #expect(throws: SyncRejection.idInUse(index: 0, key: "steal")) {
                _ = try await stores.sync.push([SyncChange.upsert(stolen, baseVersion: theirs.version, key: "steal")], userId: intruder)
            }
            // A delete of their id is an id this user does not have: ignored, nothing shown.
            let delete = try await stores.sync.push(
                [SyncChange.delete(.meal, id: theirs.id, baseVersion: theirs.version, key: "del")], userId: intruder)
            #expect(delete[0].status == .ignored)
            #expect(delete[0].server == nil)
            #expect(delete[0].version == nil)
            #expect(try await stores.meals.meal(userId: owner, id: theirs.id) == theirs)
            // Their event id and their rows' ids in a collection are theirs too.
            let event = AnalyticsEvent(name: .screenView, occurredAt: Fixtures.utc("2026-03-01T10:00:00Z"))
            try await stores.analytics.recordEvent(event, userId: owner)
            await #expect(throws: SyncRejection.idInUse(index: 0, key: "ev")) {
                _ = try await stores.sync.push(
                    [SyncChange(idempotencyKey: "ev", entity: .event, op: .upsert, id: event.id, event: event)], userId: intruder)
            }
            // The intruder's pull shows only their own profile; the owner's shows theirs.
            let intruderItems = try await stores.sync.pull(userId: intruder, after: 0, limit: 100).items
            #expect(intruderItems.map(\.entity) == [.profile])
            #expect(try await stores.sync.pull(userId: owner, after: 0, limit: 100).items.contains { $0.id == theirs.id })
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aPullPagesInVersionOrderWithEachRowInItsLatestState(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await Self.userWithProfile(stores)
            let meals = (0..<6).map { Self.meal("M\($0)") }
            _ = try await stores.sync.push(meals.enumerated().map { SyncChange.upsert($1, key: "c\($0)") }, userId: user)  // 3...8
            var edited = meals[0]
            edited.kcal = 111
            _ = try await stores.sync.push([SyncChange.upsert(edited, baseVersion: 3, key: "e")], userId: user)  // 9
            try await stores.tips.dismissTip(.learnWelcome, userId: user)  // 10

            var cursor: Int64 = 0
            var pages: [[Int64]] = []
            var hasMore = true
            while hasMore {
                let page = try await stores.sync.pull(userId: user, after: cursor, limit: 3)
                pages.append(page.items.map(\.version))
                cursor = page.nextCursor
                hasMore = page.hasMore
            }
            // Meal 0 changed after the cursor passed it: it comes once, at 9, in its latest state.
            #expect(pages == [[2, 4, 5], [6, 7, 8], [9, 10]])
            #expect(cursor == 10)
            let last = try await stores.sync.pull(userId: user, after: 8, limit: 3).items
            #expect(last[0].meal == edited)
            #expect(last[1].entity == .tip)
            #expect(last[1].tip == "learn-welcome")

            await #expect(throws: SyncRejection.cursorAhead(cursor: 11, latest: 10)) {
                _ = try await stores.sync.pull(userId: user, after: 11, limit: 3)
            }
        }
    }

    /// Many writers for one user — sync pushes and the normal API's saves, concurrently — while a puller loops
    /// `pull` with a small page. If a version could become visible after a larger one was pulled (a transaction
    /// that drew its version early and committed late), the cursor would pass over it and the puller would end
    /// without that row's final state. Every pulled version must be new (nothing twice), and the puller's copy must
    /// equal the server's final state row for row.
    @Test(arguments: StoreBackend.allCases)
    func aPullerNeverMissesARowThatCommittedLate(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await Self.userWithProfile(stores)
            let shared = (0..<6).map { Self.meal("Shared \($0)", id: UUID()) }
            _ = try await stores.sync.push(shared.enumerated().map { SyncChange.upsert($1, key: "s\($0)") }, userId: user)

            let writers = 8, rounds = 15
            let done = Flag()
            async let pulled: [SyncItem] = {
                var seen: [SyncItem] = []
                var cursor: Int64 = 0
                while true {
                    // A writer that failed ends the test through the group below; stop pulling then, never spin on.
                    try Task.checkCancellation()
                    let finished = done.isSet
                    let page = try await stores.sync.pull(userId: user, after: cursor, limit: 7)
                    seen += page.items
                    cursor = page.nextCursor
                    // Stop only after a pull that began once every writer had finished came back complete.
                    if finished, !page.hasMore { return seen }
                    if !page.hasMore { await Task.yield() }
                }
            }()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<writers {
                    group.addTask {
                        for round in 0..<rounds {
                            if writer % 2 == 0 {
                                // A push: two new meals and an edit of a shared one from the first version (may be lost).
                                var edit = shared[(writer + round) % shared.count]
                                edit.kcal = Double(100 + writer * 100 + round)
                                _ = try await stores.sync.push([
                                    SyncChange.upsert(Self.meal("W\(writer)-\(round)a"), key: "w\(writer)-\(round)a"),
                                    SyncChange.upsert(Self.meal("W\(writer)-\(round)b"), key: "w\(writer)-\(round)b"),
                                    SyncChange.upsert(edit, key: "w\(writer)-\(round)e"),
                                ], userId: user)
                            } else {
                                // The normal API's writes: a save, an edit of a shared meal, sometimes a delete.
                                let saved = try await stores.meals.saveMeal(Self.meal("A\(writer)-\(round)"), userId: user, timeZone: .gmt)
                                var edit = shared[(writer * 3 + round) % shared.count]
                                edit.kcal = Double(5_000 + writer * 100 + round)
                                _ = try? await stores.meals.saveMeal(edit, userId: user, timeZone: .gmt)
                                if round % 3 == 0 { try await stores.meals.deleteMeal(userId: user, id: saved.id) }
                            }
                        }
                    }
                }
                do {
                    try await group.waitForAll()
                } catch {
                    done.set()
                    throw error
                }
            }
            done.set()
            let seen = try await pulled

            let versions = seen.map(\.version)
            #expect(versions == versions.sorted(), "pulled out of version order")
            #expect(Set(versions).count == versions.count, "a version was pulled twice")
            var copy: [String: SyncItem] = [:]
            for item in seen { copy["\(item.entity)/\(item.id?.uuidString ?? item.tip ?? "")"] = item }

            var final: [String: SyncItem] = [:]
            var cursor: Int64 = 0
            var hasMore = true
            while hasMore {
                let page = try await stores.sync.pull(userId: user, after: cursor, limit: 1_000)
                for item in page.items { final["\(item.entity)/\(item.id?.uuidString ?? item.tip ?? "")"] = item }
                cursor = page.nextCursor
                hasMore = page.hasMore
            }
            // 1 profile, 6 shared meals, 4 pushing writers × 15 rounds × 2 meals, 4 saving writers × 15 meals.
            #expect(final.count == 187)
            // Named rather than compared whole, so that a failure lists what the puller missed or holds stale.
            let missed = final.keys.filter { copy[$0] == nil }.sorted()
            let stale = final.keys.filter { copy[$0] != nil && copy[$0] != final[$0] }.sorted()
            #expect(missed == [], "rows the puller never saw")
            #expect(stale == [], "rows the puller holds in an older state")
            #expect(copy.count == final.count)
            #expect(final.values.filter { $0.deletedAt != nil }.count == 4 * 5)
        }
    }
}

/// A flag one task sets and another reads.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
