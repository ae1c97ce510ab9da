import Foundation
import Testing
import WDietCore
import WDietPostgres
import WDietSQLite
import WDietStore
import WDietTestSupport

/// Media no row names are deleted a grace period after (docs/media.md "Media no row names"), on SQLite (the media
/// file judged against the main file's rows) and PostgreSQL (one statement). Worked dates: everything is uploaded
/// 2026-03-01T09:00Z (T0) unless said; the grace is 7 days; a deleted row names its media for 30 days.
@Suite("Media sweep conformance")
struct MediaSweepConformanceTests {
    let day: TimeInterval = 86_400
    let t0 = Fixtures.utc("2026-03-01T09:00:00Z")

    static func sweeper(_ stores: CoachStores) -> any UnreferencedMediaStore {
        switch stores.database {
        case .sqlite(let database): SQLiteMediaStore(database: database, now: stores.clock.closure)
        case .postgres(let client): PostgresMediaStore(client: client, now: stores.clock.closure)
        }
    }

    /// Sweeps everything at `now` in batches of `limit`; answers the totals and how many batches it took.
    static func sweep(_ stores: CoachStores, at now: Date, limit: Int = MediaRetention.batchSize) async throws -> (MediaSweepBatch, batches: Int) {
        let store = sweeper(stores)
        var total = MediaSweepBatch()
        var batches = 0
        var cursor: MediaSweepCursor?
        while true {
            let batch = try await store.sweepUnreferencedMedia(after: cursor, now: now, limit: limit)
            batches += 1
            total.examined += batch.examined
            total.marked += batch.marked
            total.unmarked += batch.unmarked
            total.deleted += batch.deleted
            cursor = batch.last
            if batch.examined < limit { break }
        }
        total.last = nil
        return (total, batches)
    }

    func upload(_ stores: CoachStores, _ user: UUID) async throws -> UUID {
        let id = UUID()
        _ = try await MediaStoreConformanceTests.media(stores).saveMedia(MediaStoreConformanceTests.photo(id), userId: user)
        return id
    }

    func upsert(_ value: some Encodable, _ collection: String, _ id: UUID, key: String, base: Int64? = nil) throws -> SyncChange {
        SyncChange(idempotencyKey: key, entity: .row, op: .upsert, id: id, collection: collection, baseVersion: base,
                   data: try SyncRules.rowData(value))
    }

    func entry(_ description: String, mediaIds: [UUID]) -> JournalEntry {
        JournalEntry(date: Fixtures.date("2026-03-01"), time: JournalTime("08:15")!, inputType: .photo, rawInput: description,
                     processedDescription: description, mediaIds: mediaIds, createdAt: t0)
    }

    func exists(_ stores: CoachStores, _ id: UUID, _ user: UUID) async throws -> Bool {
        try await MediaStoreConformanceTests.media(stores).media(id: id, userId: user) != nil
    }

    @Test("never named: deleted 7 days after the upload; named by a live entry: kept; a replaced challenge photo: 7 days after the sweep found it unnamed; an entry's photo: 30 days after the entry's deletion, then 7 more",
          arguments: StoreBackend.allCases)
    func lifecycle(_ backend: StoreBackend) async throws {
        try await backend.withCoachStores(clockStart: t0) { stores in
            let ana = try await stores.makeUser()
            let bob = try await stores.makeUser()
            let never = try await upload(stores, ana), live = try await upload(stores, ana)
            let ofDeleted = try await upload(stores, ana), replaced = try await upload(stores, ana)
            let challenge = Challenge(startDate: Fixtures.date("2026-02-23"), startWeightKg: 92, goalWeightKg: 82, createdAt: t0)
            let liveEntry = entry("Dosa", mediaIds: [live]), goneEntry = entry("Idli", mediaIds: [ofDeleted])
            let photo = ChallengePhoto(challengeId: challenge.id, week: 1, mediaId: replaced, takenOn: Fixtures.date("2026-03-01"), createdAt: t0)
            let pushed = try await stores.sync.push([
                try upsert(challenge, Challenge.collection, challenge.id, key: "c"),
                try upsert(liveEntry, JournalEntry.collection, liveEntry.id, key: "live"),
                try upsert(goneEntry, JournalEntry.collection, goneEntry.id, key: "gone"),
                try upsert(photo, ChallengePhoto.collection, photo.id, key: "p"),
            ], userId: ana)
            #expect(pushed.allSatisfy { $0.status == .applied })
            // Bob's entry names Ana's never-named item: another user's row names nothing of hers.
            let bobs = entry("Not hers", mediaIds: [never])
            _ = try await stores.sync.push([try upsert(bobs, JournalEntry.collection, bobs.id, key: "b")], userId: bob)

            // T0 + 1 h: the three named items are unmarked (an upload is marked at its upload), `never` stays marked.
            var (done, _) = try await Self.sweep(stores, at: t0.addingTimeInterval(3_600))
            #expect(done == MediaSweepBatch(examined: 4, unmarked: 3))

            // 2026-03-02T09:00Z: the entry is deleted, the week's photo replaced by a new upload.
            stores.clock.advance(seconds: day)
            let newer = try await upload(stores, ana)
            let replacement = ChallengePhoto(challengeId: challenge.id, week: 1, mediaId: newer, takenOn: Fixtures.date("2026-03-02"), createdAt: t0, updatedAt: stores.clock.now)
            let changed = try await stores.sync.push([
                .delete(.row, id: goneEntry.id, collection: JournalEntry.collection, key: "del"),
                try upsert(replacement, ChallengePhoto.collection, photo.id, key: "p2", base: pushed[3].version),
            ], userId: ana)
            #expect(changed.allSatisfy { $0.status == .applied })

            // 2026-03-02T10:00Z: the replaced photo is marked; the new one unmarked; the deleted entry still names its photo.
            (done, _) = try await Self.sweep(stores, at: Fixtures.utc("2026-03-02T10:00:00Z"))
            #expect(done == MediaSweepBatch(examined: 5, marked: 1, unmarked: 1))

            // 2026-03-08T09:00Z, 7 days after the upload: the never-named item goes, nothing else.
            (done, _) = try await Self.sweep(stores, at: Fixtures.utc("2026-03-08T09:00:00Z"))
            #expect(done == MediaSweepBatch(examined: 5, deleted: 1))
            #expect(try await exists(stores, never, ana) == false)
            #expect(try await exists(stores, replaced, ana))

            // The replaced photo: 6 days 23:59:59 after it was marked kept, 7 days after deleted.
            (done, _) = try await Self.sweep(stores, at: Fixtures.utc("2026-03-09T09:59:59Z"))
            #expect(done == MediaSweepBatch(examined: 4))
            (done, _) = try await Self.sweep(stores, at: Fixtures.utc("2026-03-09T10:00:00Z"))
            #expect(done == MediaSweepBatch(examined: 4, deleted: 1))
            #expect(try await exists(stores, replaced, ana) == false)

            // The deleted entry's photo: named while the entry can come back (30 days: until 2026-04-01T09:00Z), then
            // marked, and deleted 7 days later.
            (done, _) = try await Self.sweep(stores, at: Fixtures.utc("2026-04-01T09:00:00Z"))
            #expect(done == MediaSweepBatch(examined: 3))
            (done, _) = try await Self.sweep(stores, at: Fixtures.utc("2026-04-01T09:01:00Z"))
            #expect(done == MediaSweepBatch(examined: 3, marked: 1))
            (done, _) = try await Self.sweep(stores, at: Fixtures.utc("2026-04-08T09:00:59Z"))
            #expect(done == MediaSweepBatch(examined: 3))
            (done, _) = try await Self.sweep(stores, at: Fixtures.utc("2026-04-08T09:01:00Z"))
            #expect(done == MediaSweepBatch(examined: 3, deleted: 1))
            #expect(try await exists(stores, ofDeleted, ana) == false)

            // What live rows name stays, a year on.
            (done, _) = try await Self.sweep(stores, at: Fixtures.utc("2027-03-01T09:00:00Z"))
            #expect(done == MediaSweepBatch(examined: 2))
            #expect(try await exists(stores, live, ana))
            #expect(try await exists(stores, newer, ana))
        }
    }

    @Test("named again before the grace ends: unmarked and kept", arguments: StoreBackend.allCases)
    func namedAgain(_ backend: StoreBackend) async throws {
        try await backend.withCoachStores(clockStart: t0) { stores in
            let ana = try await stores.makeUser()
            let late = try await upload(stores, ana)
            // Saved with a row 6 days after the upload (a device offline for a week).
            let saved = entry("Late", mediaIds: [late])
            _ = try await stores.sync.push([try upsert(saved, JournalEntry.collection, saved.id, key: "late")], userId: ana)
            var (done, _) = try await Self.sweep(stores, at: Fixtures.utc("2026-03-07T09:00:00Z"))
            #expect(done == MediaSweepBatch(examined: 1, unmarked: 1))
            (done, _) = try await Self.sweep(stores, at: Fixtures.utc("2026-06-01T09:00:00Z"))
            #expect(done == MediaSweepBatch(examined: 1))
            #expect(try await exists(stores, late, ana))
        }
    }

    @Test("bounded batches: 5 never-named items in batches of 2 (2, 2, 1), every one deleted; two sweeps at once delete each once",
          arguments: StoreBackend.allCases)
    func batches(_ backend: StoreBackend) async throws {
        try await backend.withCoachStores(clockStart: t0) { stores in
            let ana = try await stores.makeUser(), bob = try await stores.makeUser()
            for _ in 0..<3 { _ = try await upload(stores, ana) }
            for _ in 0..<2 { _ = try await upload(stores, bob) }
            let due = Fixtures.utc("2026-03-08T09:00:00Z")
            let (done, batches) = try await Self.sweep(stores, at: due, limit: 2)
            #expect(done == MediaSweepBatch(examined: 5, deleted: 5))
            #expect(batches == 3)
            #expect(try await MediaStoreConformanceTests.media(stores).allMedia(userId: ana).isEmpty)
            #expect(try await Self.sweep(stores, at: due).0 == MediaSweepBatch())

            // Two processes at once over six items: each item deleted exactly once.
            for _ in 0..<6 { _ = try await upload(stores, ana) }
            async let first = Self.sweep(stores, at: due, limit: 2)
            async let second = Self.sweep(stores, at: due, limit: 2)
            let (a, b) = try await (first, second)
            #expect(a.0.deleted + b.0.deleted == 6)
            #expect(try await MediaStoreConformanceTests.media(stores).allMedia(userId: ana).isEmpty)
        }
    }
}
