import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietCore
import WDietStore
import WDietTestSupport

/// Issue 18/20 (docs/media.md, "References"): a journal entry's `mediaIds` and a challenge photo's `mediaId` name
/// only the user's own uploads, through the JSON API and the sync push (a refused change is parked by the client).
/// TestApp's clock: 2026-03-01 09:00 UTC.
@Suite("Media references: rows name only the user's own uploads")
struct MediaReferenceTests {
    static func upload(_ client: any TestClientProtocol, _ session: APISession) async throws -> String {
        let id = MediaAPITests.newId()
        let response = try await MediaAPITests.put(client, id, MediaAPITests.webm, type: "audio/webm", session)
        #expect(response.status == .created, "\(response.text)")
        return id
    }

    static func missing(_ id: String) -> String {
        "Photo or recording \(id) is not among this account's uploads. Upload it first, then save again"
    }

    static func voiceEntry(_ mediaIds: [String]) -> [String: Any] {
        ["processedDescription": "Two idlis and sambar", "inputType": "voice", "rawInput": "two idlis", "mediaIds": mediaIds]
    }

    @Test("the API: another user's and an unknown media id are 422 and nothing is saved; its own is saved; an edit checks only ids it adds",
          arguments: StoreBackend.allCases)
    func journalAPI(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { _, client in
            let ana = try await client.signInWithProfile()
            let bob = try await client.signInWithProfile()
            let anas = try await Self.upload(client, ana)
            let bobs = try await Self.upload(client, bob)
            let unknown = MediaAPITests.newId()

            let others = try await client.api(.post, "/api/v1/journal/entries", ana, json: Self.voiceEntry([bobs]))
            #expect(others.status == .unprocessableContent, "\(others.text)")
            #expect(try others.errorDetail().fields == ["mediaIds": Self.missing(bobs)])
            // One of its own beside an unknown one: the unknown one is named, the whole entry refused.
            let mixed = try await client.api(.post, "/api/v1/journal/entries", ana, json: Self.voiceEntry([anas, unknown]))
            #expect(mixed.status == .unprocessableContent)
            #expect(try mixed.errorDetail().fields == ["mediaIds": Self.missing(unknown)])
            let listed = try await client.api(.get, "/api/v1/journal/entries", ana)
            #expect(try JournalAPITests.entries(listed).isEmpty)

            let saved = try await client.api(.post, "/api/v1/journal/entries", ana, json: Self.voiceEntry([anas]))
            #expect(saved.status == .created, "\(saved.text)")
            let entry = try JournalAPITests.entry(saved)
            let id = try #require(entry["id"] as? String)
            #expect(entry["mediaIds"] as? [String] == [anas])
            // Bob's upload is still his alone: an entry of his may name it.
            #expect(try await client.api(.post, "/api/v1/journal/entries", bob, json: Self.voiceEntry([bobs])).status == .created)

            // The recording deleted afterwards: the entry's words can still change without it...
            #expect(try await client.api(.delete, "/api/v1/media/\(anas)", ana).status == .noContent)
            let reworded = try await client.api(.put, "/api/v1/journal/entries/\(id)", ana, json: ["processedDescription": "Three idlis"])
            #expect(reworded.status == .ok, "\(reworded.text)")
            #expect(try JournalAPITests.entry(reworded)["mediaIds"] as? [String] == [anas])
            // ...but an id the edit adds must be there.
            let added = try await client.api(.put, "/api/v1/journal/entries/\(id)", ana, json: ["mediaIds": [anas, bobs]])
            #expect(added.status == .unprocessableContent)
            #expect(try added.errorDetail().fields == ["mediaIds": Self.missing(bobs)])
            let shown = try await client.api(.get, "/api/v1/journal/entries/\(id)", ana)
            #expect(try JournalAPITests.entry(shown)["processedDescription"] as? String == "Three idlis")
            #expect(try JournalAPITests.entry(shown)["mediaIds"] as? [String] == [anas])
        }
    }

    @Test("deleting the challenge deletes its weekly photos from the media store, but not one a journal entry also shows",
          arguments: StoreBackend.allCases)
    func deletedChallengeTakesItsPhotos(_ backend: StoreBackend) async throws {
        // Tuesday 1 December 2026; the challenge starts on Monday 30 November (as ChallengeAPITests).
        try await TestApp.test(backend, clockStart: Fixtures.utc("2026-12-01T09:00:00Z")) { _, client in
            let session = try await client.signInWithProfile()
            for keptByJournal in [false, true] {
                let started = try await client.api(.post, "/api/v1/challenge", session, json: ["startDate": "2026-11-30", "goalWeight": 75, "startWeight": 80])
                #expect(started.status == .created, "\(started.text)")
                let photoId = MediaAPITests.newId()
                let upload = try await MediaAPITests.put(client, photoId, try await MediaFixtures.photo(width: 64, height: 64), type: "image/jpeg", session)
                #expect(upload.status == .created, "\(upload.text)")
                let photo = try await client.api(.put, "/api/v1/challenge/weeks/1/photo", session, json: ["mediaId": photoId])
                #expect(photo.status == .ok, "\(photo.text)")
                if keptByJournal {
                    let entry = try await client.api(.post, "/api/v1/journal/entries", session, json: [
                        "processedDescription": "Week one", "inputType": "photo", "mediaIds": [photoId],
                    ])
                    #expect(entry.status == .created, "\(entry.text)")
                }
                #expect(try await MediaAPITests.get(client, "/api/v1/media/\(photoId)", session).status == .ok)
                #expect(try await client.api(.delete, "/api/v1/challenge", session).status == .noContent)
                let after = try await MediaAPITests.get(client, "/api/v1/media/\(photoId)", session)
                #expect(after.status == (keptByJournal ? .ok : .notFound), "journal entry: \(keptByJournal)")
            }
        }
    }

    static func journalRow(id: UUID, mediaIds: [String]) -> String {
        """
        {"idempotencyKey": "\(UUID().uuidString)", "entity": "row", "op": "upsert", "collection": "journal", "id": "\(id.uuidString)",
         "data": {"id": "\(id.uuidString)", "date": "2026-03-01", "time": "08:15", "inputType": "voice", "rawInput": "two idlis",
                  "processedDescription": "Two idlis and sambar", "category": "breakfast", "mediaIds": \(mediaIds),
                  "createdAt": "2026-03-01T07:16:02.000Z", "updatedAt": null}}
        """
    }

    static func push(_ changes: [String]) -> String { #"{"changes": ["# + changes.joined(separator: ",") + "]}" }

    @Test("the sync push: a journal entry or challenge photo naming media the user has not uploaded is refused by name, nothing applied",
          arguments: StoreBackend.allCases)
    func syncPush(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let ana = try await client.signInWithProfile()
            let bob = try await client.signInWithProfile()
            let anas = try await Self.upload(client, ana)
            let bobs = try await Self.upload(client, bob)
            let first = UUID(), second = UUID()

            // The second change names Bob's recording: the push is refused at that change, the first not applied.
            let refused = try await client.api(.post, "/api/v1/sync/push", ana, body: Self.push([
                Self.journalRow(id: first, mediaIds: [anas]), Self.journalRow(id: second, mediaIds: [bobs]),
            ]))
            #expect(refused.status == .unprocessableContent, "\(refused.text)")
            let detail = try refused.errorDetail()
            #expect(detail.code == "invalid_change")
            #expect(detail.fields == ["changes.1": Self.missing(bobs)])
            #expect(try await t.services.journal.allEntries(userId: ana.userId).isEmpty)

            // A challenge photo naming an unknown item: the same refusal.
            let challengeId = UUID(), unknown = UUID()
            let photo = ChallengePhoto(challengeId: challengeId, week: 1, mediaId: unknown, takenOn: try #require(LocalDate(year: 2026, month: 3, day: 2)),
                                       createdAt: Date(timeIntervalSince1970: 1_772_355_600))
            let change = SyncChange(idempotencyKey: "photo-1", entity: .row, op: .upsert, id: photo.id,
                                    collection: ChallengePhoto.collection, data: try SyncRules.rowData(photo))
            let photoPush = String(decoding: try SyncCoding.encoder.encode(SyncPushRequest(changes: [change])), as: UTF8.self)
            let photoRefused = try await client.api(.post, "/api/v1/sync/push", ana, body: photoPush)
            #expect(photoRefused.status == .unprocessableContent, "\(photoRefused.text)")
            #expect(try photoRefused.errorDetail().fields == ["changes.0": Self.missing(unknown.uuidString.lowercased())])

            // Its own recording: applied, and an edit that keeps the ids is applied after the recording is gone.
            let applied = try await client.api(.post, "/api/v1/sync/push", ana, body: Self.push([Self.journalRow(id: first, mediaIds: [anas])]))
            #expect(applied.status == .ok, "\(applied.text)")
            let result = try #require(try applied.object()["results"] as? [[String: Any]]).first
            #expect(result?["status"] as? String == "applied")
            let version = try #require(number(result?["version"]).map { Int($0) })
            #expect(try await t.services.journal.allEntries(userId: ana.userId).map(\.mediaIds) == [[UUID(uuidString: anas)!]])
            #expect(try await client.api(.delete, "/api/v1/media/\(anas)", ana).status == .noContent)
            var edit = Self.journalRow(id: first, mediaIds: [anas])
            edit = edit.replacingOccurrences(of: "Two idlis and sambar", with: "Three idlis")
                .replacingOccurrences(of: #""op": "upsert","#, with: #""op": "upsert", "baseVersion": \#(version),"#)
            let edited = try await client.api(.post, "/api/v1/sync/push", ana, body: Self.push([edit]))
            #expect(edited.status == .ok, "\(edited.text)")
            #expect(try await t.services.journal.allEntries(userId: ana.userId).map(\.processedDescription) == ["Three idlis"])
        }
    }

    static func photoPush(_ photo: ChallengePhoto, key: String, baseVersion: Int64?) throws -> String {
        let change = SyncChange(idempotencyKey: key, entity: .row, op: .upsert, id: photo.id, collection: ChallengePhoto.collection,
                                baseVersion: baseVersion, data: try SyncRules.rowData(photo))
        return String(decoding: try SyncCoding.encoder.encode(SyncPushRequest(changes: [change])), as: UTF8.self)
    }

    @Test("the sync push: a challenge photo's edit that keeps its media id is applied after the item was deleted; a new id is checked",
          arguments: StoreBackend.allCases)
    func syncPushChallengePhotoChecksOnlyAnAddedId(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let ana = try await client.signInWithProfile()
            let anas = try #require(UUID(uuidString: try await Self.upload(client, ana)))
            let started = try await client.api(.post, "/api/v1/challenge", ana, json: ["goalWeight": 75, "startDate": "2026-02-23"])
            #expect(started.status == .created, "\(started.text)")
            let challengeId = try #require(try await ChallengeStore(sync: t.services.sync).current(userId: ana.userId)?.id)
            let monday = try #require(LocalDate(year: 2026, month: 2, day: 23))
            var photo = ChallengePhoto(challengeId: challengeId, week: 1, mediaId: anas, takenOn: monday,
                                       createdAt: Date(timeIntervalSince1970: 1_771_837_200))
            let applied = try await client.api(.post, "/api/v1/sync/push", ana, body: try Self.photoPush(photo, key: "photo-a", baseVersion: nil))
            #expect(applied.status == .ok, "\(applied.text)")
            let version = try #require(number((try applied.object()["results"] as? [[String: Any]])?.first?["version"]).map { Int64($0) })

            // The item deleted, then the row edited on a device (a day later, the same photo): applied.
            #expect(try await client.api(.delete, "/api/v1/media/\(anas.uuidString.lowercased())", ana).status == .noContent)
            photo.takenOn = try #require(LocalDate(year: 2026, month: 2, day: 24))
            photo.updatedAt = Date(timeIntervalSince1970: 1_771_923_600)
            let kept = try await client.api(.post, "/api/v1/sync/push", ana, body: try Self.photoPush(photo, key: "photo-b", baseVersion: version))
            #expect(kept.status == .ok, "\(kept.text)")
            #expect((try kept.object()["results"] as? [[String: Any]])?.first?["status"] as? String == "applied")
            let stored = try #require(try await ChallengeStore(sync: t.services.sync).row(ChallengePhoto.self, userId: ana.userId, id: photo.id))
            #expect(stored.value.takenOn == photo.takenOn && stored.value.mediaId == anas)

            // A new media id in the same row is asked about: unknown, refused by name, the row unchanged.
            let unknown = UUID()
            photo.mediaId = unknown
            let refused = try await client.api(.post, "/api/v1/sync/push", ana, body: try Self.photoPush(photo, key: "photo-c", baseVersion: stored.version))
            #expect(refused.status == .unprocessableContent, "\(refused.text)")
            #expect(try refused.errorDetail().fields == ["changes.0": Self.missing(unknown.uuidString.lowercased())])
            #expect(try await ChallengeStore(sync: t.services.sync).row(ChallengePhoto.self, userId: ana.userId, id: photo.id)?.value.mediaId == anas)
        }
    }
}
