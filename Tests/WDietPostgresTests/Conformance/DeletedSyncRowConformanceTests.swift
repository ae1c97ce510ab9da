import Foundation
import Testing
import WDietCore
import WDietPostgres
import WDietSQLite
import WDietStore
import WDietTestSupport

/// Deleted generic sync rows keep no content past the undo and replay windows (issue 21 item 8, second half): the
/// sweep empties the `data` of every collection's tombstones deleted more than 30 days ago, and every reader takes
/// such a tombstone for what it is. Worked dates: the rows are written 2026-03-01T09:00Z, one group deleted
/// 2026-03-02T09:00Z, the other 2026-03-02T09:02Z; the sweep runs 2026-04-01T09:01Z, 30 days and 1 minute after the
/// first group's deletion and 29 days and 23:59 after the second's.
@Suite struct DeletedSyncRowConformanceTests {
    let day: TimeInterval = 86_400
    let written = Fixtures.utc("2026-03-01T09:00:00Z")

    func deletedRows(_ stores: CoachStores) -> any DeletedRowStore {
        switch stores.database {
        case .sqlite(let database): SQLiteDeletedRowStore(database: database, now: stores.clock.closure)
        case .postgres(let client): PostgresDeletedRowStore(client: client, now: stores.clock.closure)
        }
    }

    func sweep(_ stores: CoachStores, limit: Int = DeletedRows.batchSize) async throws -> DeletedRowSweep {
        try await deletedRows(stores).scrubDeletedRows(
            deletedBefore: stores.clock.now.addingTimeInterval(-DeletedRows.retention), limit: limit)
    }

    func upsert(_ value: some Encodable, _ collection: String, _ id: UUID, key: String, base: Int64? = nil) throws -> SyncChange {
        SyncChange(idempotencyKey: key, entity: .row, op: .upsert, id: id, collection: collection, baseVersion: base,
                   data: try SyncRules.rowData(value))
    }

    func entry(_ description: String, on date: String) -> JournalEntry {
        JournalEntry(date: Fixtures.date(date), time: JournalTime("08:15")!, inputType: .text, rawInput: description,
                     processedDescription: description, createdAt: written)
    }

    /// One row of each kind of collection, in two groups (`old`, deleted first; `young`) and a live one of each.
    struct Rows {
        let challenge: Challenge
        var journal: [JournalEntry]      // old, young, live
        var favourites: [Favourite]
        var savedMeals: [SavedMeal]
        var nutrition: [ChallengeNutritionLog]
        var notes: [UUID]                // a free-form collection

        func changes(_ test: DeletedSyncRowConformanceTests) throws -> [SyncChange] {
            var changes = [try test.upsert(challenge, Challenge.collection, challenge.id, key: "challenge")]
            for i in 0..<3 {
                changes += [
                    try test.upsert(journal[i], JournalEntry.collection, journal[i].id, key: "j\(i)"),
                    try test.upsert(favourites[i], Favourite.collection, favourites[i].id, key: "f\(i)"),
                    try test.upsert(savedMeals[i], SavedMeal.collection, savedMeals[i].id, key: "s\(i)"),
                    try test.upsert(nutrition[i], ChallengeNutritionLog.collection, nutrition[i].id, key: "n\(i)"),
                    SyncChange(idempotencyKey: "x\(i)", entity: .row, op: .upsert, id: notes[i], collection: "notes",
                               data: .object(["id": .string(notes[i].uuidString), "text": .string("Private note \(i)")])),
                ]
            }
            return changes
        }

        /// (collection, id) of group `i`: 0 old, 1 young, 2 live.
        func group(_ i: Int) -> [(String, UUID)] {
            [(JournalEntry.collection, journal[i].id), (Favourite.collection, favourites[i].id),
             (SavedMeal.collection, savedMeals[i].id), (ChallengeNutritionLog.collection, nutrition[i].id), ("notes", notes[i])]
        }
    }

    func makeRows() -> Rows {
        let start = Fixtures.date("2026-02-23")
        let challenge = Challenge(startDate: start, startWeightKg: 92, goalWeightKg: 82, createdAt: written)
        return Rows(
            challenge: challenge,
            journal: [entry("Two idlis and sambar", on: "2026-02-27"), entry("Paneer tikka", on: "2026-02-28"),
                      entry("Masala chai", on: "2026-03-01")],
            favourites: [Favourite(name: "Secret snack", kcal: 420, createdAt: written), Favourite(name: "Coffee", kcal: 5, createdAt: written),
                         Favourite(name: "Bananas, raw", foodId: "09040", grams: 118, createdAt: written)],
            savedMeals: (0..<3).map { SavedMeal(name: "Porridge \($0)", items: [SavedMeal.Item(name: "Oats", foodId: "08120", grams: 60, kcal: 227.4)], createdAt: written) },
            nutrition: (0..<3).map { ChallengeNutritionLog(challengeId: challenge.id, date: start.adding(days: $0), kcal: 2_100 + Double($0), notes: "Day \($0)", createdAt: written) },
            notes: [UUID(), UUID(), UUID()])
    }

    @Test(arguments: StoreBackend.allCases)
    func rowsDeleted30DaysAnd1MinuteAgoLoseTheirDataAndThoseDeleted29DaysAnd2359AgoKeepIt(backend: StoreBackend) async throws {
        try await backend.withCoachStores(clockStart: written) { stores in
            let user = try await stores.makeUser()
            let rows = makeRows()
            let created = try await stores.sync.push(try rows.changes(self), userId: user)
            #expect(created.allSatisfy { $0.status == .applied })
            stores.clock.advance(seconds: day)
            let old = try await stores.sync.push(rows.group(0).enumerated().map { i, row in
                .delete(.row, id: row.1, collection: row.0, key: "old\(i)")
            }, userId: user)
            stores.clock.advance(seconds: 120)
            _ = try await stores.sync.push(rows.group(1).enumerated().map { i, row in
                .delete(.row, id: row.1, collection: row.0, key: "young\(i)")
            }, userId: user)
            let before = try await stores.sync.pull(userId: user, after: 0, limit: 1_000)
            let live = try await stores.sync.pull(userId: user, after: 0, limit: 1_000).items.filter { $0.deletedAt == nil }
            stores.clock.advance(seconds: 30 * day - 60)
            #expect(stores.clock.now == Fixtures.utc("2026-04-01T09:01:00Z"))

            // The old group's five rows; the replay results of the creations (16) and of the old deletions (5).
            #expect(try await sweep(stores) == DeletedRowSweep(rowsScrubbed: 5, replayResultsRemoved: 21))

            // The pull still hands out each old row as a tombstone: same collection, id, version, dates; no data.
            let after = try await stores.sync.pull(userId: user, after: 0, limit: 1_000)
            #expect(after.nextCursor == before.nextCursor)
            let pulled = Dictionary(uniqueKeysWithValues: after.items.compactMap { item in item.id.map { ($0, item) } })
            let earlier = Dictionary(uniqueKeysWithValues: before.items.compactMap { item in item.id.map { ($0, item) } })
            for ((collection, id), result) in zip(rows.group(0), old) {
                let tombstone = try #require(pulled[id])
                #expect(tombstone.entity == .row && tombstone.collection == collection)
                #expect(tombstone.version == result.version)
                #expect(tombstone.deletedAt == Fixtures.utc("2026-03-02T09:00:00Z"))
                #expect(tombstone.updatedAt == earlier[id]?.updatedAt)
                #expect(tombstone.data == .object([:]))
                #expect(tombstone.isScrubbedTombstone)
            }
            // The young group keeps its values; the live rows are untouched.
            for (_, id) in rows.group(1) {
                #expect(pulled[id] == earlier[id])
                #expect(pulled[id]?.deletedAt == Fixtures.utc("2026-03-02T09:02:00Z"))
                #expect(pulled[id]?.data != .object([:]))
                #expect(pulled[id]?.isScrubbedTombstone == false)
            }
            for item in live { #expect(pulled[try #require(item.id)] == item) }
            #expect(try SyncRules.decodeRow(Favourite.self, #require(pulled[rows.favourites[1].id]?.data)) == rows.favourites[1])
            // A device that pulled before the sweep has nothing new to pull; a second sweep does nothing.
            #expect(try await stores.sync.pull(userId: user, after: before.nextCursor, limit: 1_000).items.isEmpty)
            #expect(try await sweep(stores) == DeletedRowSweep())

            // The typed reads: the text read and the generic read give the scrubbed tombstone as it is stored.
            let texts = try await stores.sync.rowTexts(userId: user, collection: Favourite.collection, includingDeleted: true)
            #expect(texts.first { $0.id == rows.favourites[0].id }?.data == DeletedRows.scrubbedRowText)
            #expect(try await stores.sync.row(userId: user, collection: "notes", id: rows.notes[0])?.data == .object([:]))

            // The export leaves every tombstone out, scrubbed or not.
            let exported = try await stores.userData.exportUserData(userId: user)
            #expect(Set(exported.rows.map(\.id)) == Set(rows.group(2).map(\.1) + [rows.challenge.id]))
        }
    }

    /// The journal's reads and its Undo: a scrubbed entry answers as a missing one (restore and delete alike), one
    /// deleted 29 days and 23:59 ago comes back whole; the day, the count and the history never see either.
    @Test(arguments: StoreBackend.allCases)
    func theJournalTakesAScrubbedEntryForAMissingOneAndRestoresAYoungerOne(backend: StoreBackend) async throws {
        try await backend.withCoachStores(clockStart: written) { stores in
            let user = try await stores.makeUser()
            let today = Fixtures.date("2026-03-01")
            let old = entry("Two idlis and sambar", on: "2026-02-27"), young = entry("Paneer tikka", on: "2026-02-27")
            let live = entry("Masala chai", on: "2026-02-27")
            for value in [old, young, live] { try await stores.journal.save(value, baseVersion: nil, userId: user, today: today) }
            stores.clock.advance(seconds: day)
            try await stores.journal.delete(userId: user, id: old.id, baseVersion: nil)
            stores.clock.advance(seconds: 120)
            try await stores.journal.delete(userId: user, id: young.id, baseVersion: nil)
            stores.clock.advance(seconds: 30 * day - 60)
            #expect(try await sweep(stores).rowsScrubbed == 1)

            #expect(try await stores.journal.entry(userId: user, id: old.id) == nil)
            #expect(try await stores.journal.entry(userId: user, id: young.id)?.entry == young)
            #expect(try await stores.journal.entries(userId: user, from: today.adding(days: -7), through: today).map(\.entry) == [live])
            #expect(try await stores.journal.count(userId: user) == 1)
            #expect(try await stores.journal.history(userId: user).descriptions == ["Masala chai"])
            #expect(try await stores.journal.dayCounts(userId: user, from: today.adding(days: -7), through: today) == [Fixtures.date("2026-02-27"): 1])

            let missing = await #expect(throws: StoreError.self) { try await stores.journal.restore(userId: user, id: UUID()) }
            let scrubbed = await #expect(throws: StoreError.self) { try await stores.journal.restore(userId: user, id: old.id) }
            #expect(scrubbed == missing)
            #expect(try await stores.journal.delete(userId: user, id: old.id, baseVersion: nil) == nil)
            let restored = try await stores.journal.restore(userId: user, id: young.id)
            #expect(restored.entry == young)
            #expect(restored.deletedAt == nil)
            #expect(try await stores.journal.count(userId: user) == 2)
        }
    }

    /// The undo window holds before the sweep has run: an entry deleted 30 days and 1 minute ago cannot be restored
    /// though its values are still there, one deleted 29 days and 23:59 ago can.
    @Test(arguments: StoreBackend.allCases)
    func aJournalRestorePastTheWindowAnswersAsMissingBeforeTheSweep(backend: StoreBackend) async throws {
        try await backend.withCoachStores(clockStart: written) { stores in
            let user = try await stores.makeUser()
            let today = Fixtures.date("2026-03-01")
            let old = entry("Two idlis and sambar", on: "2026-02-27"), young = entry("Paneer tikka", on: "2026-02-27")
            for value in [old, young] { try await stores.journal.save(value, baseVersion: nil, userId: user, today: today) }
            try await stores.journal.delete(userId: user, id: old.id, baseVersion: nil)
            stores.clock.advance(seconds: 120)
            try await stores.journal.delete(userId: user, id: young.id, baseVersion: nil)
            stores.clock.advance(seconds: 30 * day - 60)

            #expect(try await stores.journal.entry(userId: user, id: old.id)?.entry == old)  // not swept yet
            let missing = await #expect(throws: StoreError.self) { try await stores.journal.restore(userId: user, id: UUID()) }
            let late = await #expect(throws: StoreError.self) { try await stores.journal.restore(userId: user, id: old.id) }
            #expect(late == missing)
            #expect(try await stores.journal.restore(userId: user, id: young.id).entry == young)
        }
    }

    /// The Challenge's typed reads skip a scrubbed row (it reads as a missing one), and logging that day again writes
    /// the day's row over its tombstone (a derived id: the same row).
    @Test(arguments: StoreBackend.allCases)
    func theChallengeReadsPastAScrubbedRowAndLogsItsDayAgain(backend: StoreBackend) async throws {
        try await backend.withCoachStores(clockStart: written) { stores in
            let store = ChallengeStore(sync: stores.sync)
            let user = try await stores.makeUser()
            let rows = makeRows()
            try await store.save(rows.challenge, baseVersion: nil, userId: user)
            for log in rows.nutrition { try await store.save(log, baseVersion: nil, userId: user) }
            try await store.delete(ChallengeNutritionLog.self, id: rows.nutrition[0].id, baseVersion: nil, userId: user)
            stores.clock.advance(seconds: 120)
            try await store.delete(ChallengeNutritionLog.self, id: rows.nutrition[1].id, baseVersion: nil, userId: user)
            stores.clock.advance(seconds: 30 * day - 60)
            #expect(try await sweep(stores).rowsScrubbed == 1)

            let all = try await store.rows(ChallengeNutritionLog.self, userId: user, includingDeleted: true).sorted { $0.value.date < $1.value.date }
            #expect(all.map(\.value) == [rows.nutrition[1], rows.nutrition[2]])
            #expect(all.map(\.isDeleted) == [true, false])
            #expect(try await store.row(ChallengeNutritionLog.self, userId: user, id: rows.nutrition[0].id) == nil)
            let data = try await store.data(userId: user, challenge: rows.challenge)
            #expect(data.nutrition.values.map(\.id) == [rows.nutrition[2].id])

            var again = rows.nutrition[0]
            again.kcal = 1_800
            let saved = try await store.save(again, baseVersion: nil, userId: user)
            #expect(saved.value == again)
            #expect(try await store.row(ChallengeNutritionLog.self, userId: user, id: again.id)?.value == again)
            #expect(try await store.rows(ChallengeNutritionLog.self, userId: user).map(\.value).sorted { $0.date < $1.date } == [again, rows.nutrition[2]])
        }
    }

    /// Batches are bounded for rows as for meals: three tombstones with a limit of two take two batches; a row
    /// brought back by sync and deleted again is scrubbed again after its own 30 days.
    @Test(arguments: StoreBackend.allCases)
    func rowsAreScrubbedInBoundedBatchesAndAgainAfterComingBack(backend: StoreBackend) async throws {
        try await backend.withCoachStores(clockStart: written) { stores in
            let user = try await stores.makeUser()
            let notes = (0..<3).map { _ in UUID() }
            func note(_ i: Int, _ text: String) -> SyncJSON { .object(["id": .string(notes[i].uuidString), "text": .string(text)]) }
            _ = try await stores.sync.push((0..<3).map {
                SyncChange(idempotencyKey: "c\($0)", entity: .row, op: .upsert, id: notes[$0], collection: "notes", data: note($0, "Note \($0)"))
            }, userId: user)
            let deleted = try await stores.sync.push((0..<3).map { .delete(.row, id: notes[$0], collection: "notes", key: "d\($0)") }, userId: user)
            stores.clock.advance(seconds: 31 * day)
            #expect(try await sweep(stores, limit: 2) == DeletedRowSweep(rowsScrubbed: 2, replayResultsRemoved: 2))
            #expect(try await sweep(stores, limit: 2) == DeletedRowSweep(rowsScrubbed: 1, replayResultsRemoved: 2))
            #expect(try await sweep(stores, limit: 2) == DeletedRowSweep(replayResultsRemoved: 2))
            #expect(try await sweep(stores, limit: 2) == DeletedRowSweep())

            // The device still had note 0 and brings it back from the tombstone's version.
            let back = try await stores.sync.push([
                SyncChange(idempotencyKey: "back", entity: .row, op: .upsert, id: notes[0], collection: "notes",
                           baseVersion: deleted[0].version, data: note(0, "Note 0, kept")),
            ], userId: user)
            #expect(back.map(\.status) == [.applied])
            #expect(try await stores.sync.row(userId: user, collection: "notes", id: notes[0])?.data == note(0, "Note 0, kept"))
            _ = try await stores.sync.push([.delete(.row, id: notes[0], collection: "notes", key: "again")], userId: user)
            stores.clock.advance(seconds: 29 * day)
            #expect(try await sweep(stores) == DeletedRowSweep())
            #expect(try await stores.sync.row(userId: user, collection: "notes", id: notes[0])?.data == note(0, "Note 0, kept"))
            stores.clock.advance(seconds: 2 * day)
            #expect(try await sweep(stores) == DeletedRowSweep(rowsScrubbed: 1, replayResultsRemoved: 2))
            #expect(try await stores.sync.row(userId: user, collection: "notes", id: notes[0])?.isScrubbedTombstone == true)
        }
    }

    /// The journal's sample data comes back over scrubbed sample tombstones (from their versions).
    @Test(arguments: StoreBackend.allCases)
    func sampleEntriesComeBackOverScrubbedTombstones(backend: StoreBackend) async throws {
        try await backend.withCoachStores(clockStart: written) { stores in
            let user = try await stores.makeUser()
            let today = Fixtures.date("2026-03-01")
            let added = try await stores.journal.addSampleData(userId: user, today: today, now: written)
            #expect(added > 0)
            #expect(try await stores.journal.removeSampleData(userId: user) == added)
            stores.clock.advance(seconds: 31 * day)
            var scrubbed = 0
            while true {
                let batch = try await sweep(stores)
                scrubbed += batch.rowsScrubbed
                if !batch.isFull(limit: DeletedRows.batchSize) { break }
            }
            #expect(scrubbed == added)
            #expect(try await stores.journal.count(userId: user) == 0)
            #expect(try await stores.journal.addSampleData(userId: user, today: today, now: written) == added)
            #expect(try await stores.journal.count(userId: user) == added)
        }
    }
}
