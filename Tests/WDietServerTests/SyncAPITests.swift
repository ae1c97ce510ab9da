import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietCore
import WDietStore
import WDietTestSupport

/// `POST /api/v1/sync/push` and `GET /api/v1/sync/pull` over HTTP: statuses, bodies, replays, bad input. The store
/// rules themselves are pinned on both backends by `SyncConformanceTests`.
@Suite("Sync API")
struct SyncAPITests {
    /// The ```json blocks of docs/sync.md, in order: the protocol's examples, which these tests send and decode so
    /// that the document stays exact.
    static let documentExamples: [String] = {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/sync.md")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.components(separatedBy: "```json\n").dropFirst().map { $0.components(separatedBy: "```").first ?? "" }
    }()

    struct ConflictBody: Decodable {
        struct Detail: Decodable {
            var code: String
            var message: String
            var conflict: SyncProfileConflict
        }
        var error: Detail
    }

    @Test("the document's examples decode as the wire types")
    func documentExamplesDecode() throws {
        let examples = Self.documentExamples
        try #require(examples.count == 6)
        let push = try SyncCoding.decoder.decode(SyncPushRequest.self, from: Data(examples[0].utf8))
        #expect(push.changes.map(\.entity) == [.meal, .meal, .weight, .weight, .event, .row])
        #expect(push.changes[1].meal?.grams == 150)
        let profilePush = try SyncCoding.decoder.decode(SyncPushRequest.self, from: Data(examples[1].utf8))
        #expect(profilePush.changes.first?.profile?.eatingWindow.startMinute == 720)
        let response = try SyncCoding.decoder.decode(SyncPushResponse.self, from: Data(examples[2].utf8))
        #expect(response.results.map(\.status) == [.applied, .lost, .ignored, .applied, .applied, .applied])
        #expect(response.results[1].server?.meal?.kcal == 330)
        let conflict = try SyncCoding.decoder.decode(ConflictBody.self, from: Data(examples[3].utf8))
        #expect(conflict.error.conflict.server?.version == 15)
        let pull = try SyncCoding.decoder.decode(SyncPullResponse.self, from: Data(examples[4].utf8))
        #expect(pull.items.map(\.entity) == [.profile, .tip, .meal, .weight, .row])
        #expect(pull.items[3].deletedAt != nil)
        #expect(pull.nextCursor == 59)
        // Issue 17: a favourite and a saved meal as generic rows, valid by the rules of their collections.
        let rows = try SyncCoding.decoder.decode(SyncPushRequest.self, from: Data(examples[5].utf8))
        #expect(rows.changes.map(\.collection) == ["favourite", "saved_meal"])
        try SyncRules.validate(rows.changes)
        let porridge = try SyncRules.decodeRow(SavedMeal.self, try #require(rows.changes[1].data))
        #expect(porridge.perServing.kcal == 458.2)
    }

    @Test("SyncCoding writes instants to the millisecond, rounded, and reads them back as the stores build them")
    func instants() throws {
        // 0.123 s is not exact in binary: truncating the milliseconds would write .122.
        let instant = Date(timeIntervalSince1970: 1_772_355_600.123)
        #expect(SyncCoding.instantText(instant) == "2026-03-01T09:00:00.123Z")
        #expect(SyncCoding.instant(from: "2026-03-01T09:00:00.123Z") == Date(timeIntervalSince1970: Double(1_772_355_600_123) / 1_000))
        #expect(SyncCoding.instant(from: "2026-03-01T09:00:00Z") == Date(timeIntervalSince1970: 1_772_355_600))
        #expect(SyncCoding.instantText(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59.500Z")
        #expect(SyncCoding.instant(from: "yesterday") == nil)
        let meal = Meal(id: UUID(), name: "Tea", kcal: 2, loggedAt: instant)
        let decoded = try SyncCoding.decoder.decode(Meal.self, from: SyncCoding.encoder.encode(meal))
        #expect(decoded.loggedAt == Date(timeIntervalSince1970: Double(1_772_355_600_123) / 1_000))
    }

    @Test("the document's push is applied, answered per change, and a replay answers the same bytes")
    func pushAndReplay() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile()
            // The journal entry's recording is uploaded first, as a client does (the push refuses media it has not).
            let recording = try await MediaAPITests.put(client, "f6a7b8c9-5555-4e6f-9a7b-8c9d0e1f2a3b", MediaAPITests.webm, type: "audio/webm", session)
            #expect(recording.status == .created)
            let body = Self.documentExamples[0]
            let first = try await client.api(.post, "/api/v1/sync/push", session, body: body)
            #expect(first.status == .ok, "\(first.text)")
            #expect(first.headers[.contentType] == "application/json; charset=utf-8")
            let results = try #require(try first.object()["results"] as? [[String: Any]])
            // The second meal's base (41) is of a meal this server never had: a create. The weight delete names
            // an id the server does not have: ignored.
            #expect(results.map { $0["status"] as? String } == ["applied", "applied", "ignored", "applied", "applied", "applied"])
            #expect(results.map { number($0["version"]) } == [3, 4, nil, 5, nil, 7])
            #expect(results[2]["message"] as? String == "Not on the server: nothing to delete")

            let replay = try await client.api(.post, "/api/v1/sync/push", session, body: body)
            #expect(replay.status == .ok)
            #expect(replay.text == first.text)

            let pull = try await client.api(.get, "/api/v1/sync/pull?cursor=2&limit=2", session)
            #expect(pull.status == .ok)
            let page = try SyncCoding.decoder.decode(SyncPullResponse.self, from: Data(buffer: pull.body))
            #expect(page.items.map(\.entity) == [.meal, .meal])
            #expect(page.items.first?.meal?.name == "Porridge")
            #expect(page.nextCursor == 4)
            #expect(page.hasMore)
            let rest = try await client.api(.get, "/api/v1/sync/pull?cursor=4", session)
            let restPage = try SyncCoding.decoder.decode(SyncPullResponse.self, from: Data(buffer: rest.body))
            #expect(restPage.items.map(\.version) == [5, 7])
            let journal = try SyncRules.decodeRow(JournalEntry.self, try #require(restPage.items.last?.data))
            #expect(journal.processedDescription == "Two idlis and sambar")
            #expect(journal.mediaIds == [UUID(uuidString: "f6a7b8c9-5555-4e6f-9a7b-8c9d0e1f2a3b")!])
            #expect(journal.updatedAt == nil)
            #expect(restPage.hasMore == false)
            // What sync wrote, the normal API reads.
            let meals = try await client.api(.get, "/api/v1/meals?date=2026-03-01", session).object()
            #expect((meals["meals"] as? [Any])?.count == 2)
        }
    }

    @Test("a stale profile base is 409 with the base, local and server copies, and nothing of the push is applied")
    func profileConflict() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile()
            // The document's profile push, from base 12: this server's profile is at version 2.
            var changes = try #require(try JSONSerialization.jsonObject(with: Data(Self.documentExamples[1].utf8)) as? [String: Any])
            var list = try #require(changes["changes"] as? [[String: Any]])
            var profileChange = list[0]
            profileChange["baseProfile"] = profileChange["profile"]
            let mealId = UUID().uuidString
            list = [[
                "idempotencyKey": "meal-first", "entity": "meal", "op": "upsert", "id": mealId,
                "meal": ["id": mealId, "name": "Lunch", "kcal": 600, "source": "manual", "loggedAt": "2026-03-01T11:00:00Z"],
            ], profileChange]
            changes["changes"] = list
            let response = try await client.api(.post, "/api/v1/sync/push", session, json: changes)
            #expect(response.status == .conflict)
            let body = try SyncCoding.decoder.decode(ConflictBody.self, from: Data(buffer: response.body))
            #expect(body.error.code == "profile_conflict")
            #expect(body.error.message == "Change 1 (5f0c1b1e-6a43-4e4e-9d9b-7c1f7a3f0010): your profile was changed on another device")
            #expect(body.error.conflict.baseVersion == 12)
            #expect(body.error.conflict.base?.weightKg == 74.5)
            #expect(body.error.conflict.local.weightKg == 74.5)
            #expect(body.error.conflict.local.sex == .female)
            #expect(body.error.conflict.server?.version == 2)
            #expect(body.error.conflict.server?.profile?.weightKg == 80)
            // The meal before it was not applied; the profile is the server's.
            let pull = try await client.api(.get, "/api/v1/sync/pull?cursor=0", session)
            let page = try SyncCoding.decoder.decode(SyncPullResponse.self, from: Data(buffer: pull.body))
            #expect(page.items.map(\.entity) == [.profile])

            // "Keep Local": the same change from the server's version, in its own push.
            profileChange["baseVersion"] = 2
            profileChange["idempotencyKey"] = "keep-local"
            let kept = try await client.api(.post, "/api/v1/sync/push", session, json: ["changes": [profileChange]])
            #expect(kept.status == .ok, "\(kept.text)")
            let profile = try await client.api(.get, "/api/v1/profile", session).object()
            #expect(number(profile["weightKg"]) == 74.5)
        }
    }

    @Test("bad pushes: 422 naming the change, 413 over 1,000 changes, 400 for JSON of another shape, 409 before a profile")
    func badPushes() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let guest = try await client.signInAsGuest()
            func meal(_ key: String, kcal: Int) -> [String: Any] {
                let id = UUID().uuidString
                return [
                    "idempotencyKey": key, "entity": "meal", "op": "upsert", "id": id,
                    "meal": ["id": id, "name": "M", "kcal": kcal, "source": "manual", "loggedAt": "2026-03-01T11:00:00Z"],
                ]
            }
            let noProfile = try await client.api(.post, "/api/v1/sync/push", guest, json: ["changes": [meal("m", kcal: 300)]])
            #expect(noProfile.status == .conflict)
            #expect(try noProfile.errorDetail().code == "profile_missing")

            let session = try await client.signInWithProfile()
            let invalid = try await client.api(.post, "/api/v1/sync/push", session, json: ["changes": [meal("good", kcal: 300), meal("bad", kcal: 0)]])
            #expect(invalid.status == .unprocessableContent)
            let detail = try invalid.errorDetail()
            #expect(detail.code == "invalid_change")
            #expect(detail.message == "Change 1 (bad): Calories must be between 1-9999")
            #expect(detail.fields == ["changes.1": "Calories must be between 1-9999"])

            let many = (0...1_000).map { meal("k\($0)", kcal: 300) }
            let tooMany = try await client.api(.post, "/api/v1/sync/push", session, json: ["changes": many])
            #expect(tooMany.status == .contentTooLarge)
            #expect(try tooMany.errorDetail().code == "batch_too_large")

            let unknown = try await client.api(.post, "/api/v1/sync/push", session, body: #"{"changes": [{"idempotencyKey": "x", "entity": "journal", "op": "upsert"}]}"#)
            #expect(unknown.status == .badRequest)
            #expect(try unknown.errorDetail().fields?["changes.0.entity"] != nil)
            #expect(try await client.api(.post, "/api/v1/sync/push", session, body: "not json").status == .badRequest)
            #expect(try await client.api(.post, "/api/v1/sync/push", session, body: "").status == .badRequest)

            // Nothing of the refused pushes was applied: the pull holds the profile only.
            let pull = try await client.api(.get, "/api/v1/sync/pull?cursor=0", session)
            let page = try SyncCoding.decoder.decode(SyncPullResponse.self, from: Data(buffer: pull.body))
            #expect(page.items.map(\.entity) == [.profile])
        }
    }

    @Test("bad cursors and limits are 400 invalid_cursor with a clear message")
    func badCursors() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile()
            for query in ["", "?cursor=-1", "?cursor=abc", "?cursor=1.5", "?cursor=%201", "?cursor=99", "?cursor=0&limit=0",
                          "?cursor=0&limit=1001", "?cursor=0&limit=ten"] {
                let response = try await client.api(.get, "/api/v1/sync/pull\(query)", session)
                #expect(response.status == .badRequest, "\(query)")
                #expect(try response.errorDetail().code == "invalid_cursor", "\(query)")
            }
            let ahead = try await client.api(.get, "/api/v1/sync/pull?cursor=99", session)
            #expect(try ahead.errorDetail().message == "The cursor 99 is ahead of this account's latest change (2); pull again from 0")
            let negative = try await client.api(.get, "/api/v1/sync/pull?cursor=-1", session)
            #expect(try negative.errorDetail().message == "The cursor is a whole number of 0 or more, the nextCursor of your last pull")
            // The latest version itself is a good cursor: nothing new.
            let latest = try await client.api(.get, "/api/v1/sync/pull?cursor=2", session)
            #expect(latest.status == .ok)
            #expect(latest.text == #"{"hasMore":false,"items":[],"nextCursor":2}"#)
        }
    }
}

@Suite("Sync and the profile rate limit")
struct SyncProfileRateLimitTests {
    func push(_ client: some TestClientProtocol, _ session: APISession, _ changes: [SyncChange]) async throws -> TestResponse {
        let body = String(decoding: try SyncCoding.encoder.encode(SyncPushRequest(changes: changes)), as: UTF8.self)
        return try await client.api(.post, "/api/v1/sync/push", session, body: body)
    }

    @Test("profile changes pushed by sync count with PUT's: the 11th change in an hour is 429 with Retry-After, meals still sync")
    func pushedProfilesCount() async throws {
        let start = Fixtures.utc("2026-03-01T09:00:00Z")
        let t = try TestApp(clockStart: start)
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile()
            let pulled = try await client.api(.get, "/api/v1/sync/pull?cursor=0", session)
            let page = try SyncCoding.decoder.decode(SyncPullResponse.self, from: Data(buffer: pulled.body))
            var profile = try #require(page.items.first { $0.entity == .profile }?.profile)
            var version = try #require(page.items.first { $0.entity == .profile }?.version)

            // Five changes by sync and five by PUT, a minute apart: ten changes, all allowed.
            for minute in 0..<10 {
                t.clock.set(start.addingTimeInterval(Double(minute) * 60))
                profile.mealsPerDay = 4 + minute % 2
                if minute % 2 == 0 {
                    let response = try await push(client, session, [
                        SyncChange(idempotencyKey: "p\(minute)", entity: .profile, op: .upsert, baseVersion: version, profile: profile),
                    ])
                    #expect(response.status == .ok, "change \(minute + 1): \(response.text)")
                    let results = try SyncCoding.decoder.decode(SyncPushResponse.self, from: Data(buffer: response.body)).results
                    version = try #require(results.first?.version)
                } else {
                    let response = try await client.api(.put, "/api/v1/profile", session, json: APIFixtures.profile(["mealsPerDay": profile.mealsPerDay]))
                    #expect(response.status == .ok, "change \(minute + 1): \(response.text)")
                    version = Int64(try #require(number(try response.object()["version"])))
                }
            }

            // 09:10:00.5: the 11th change, pushed, is refused until the 09:00 change leaves the hour (2,999.5 s: 3,000).
            t.clock.set(start.addingTimeInterval(600.5))
            profile.mealsPerDay = 7
            let limited = try await push(client, session, [
                SyncChange(idempotencyKey: "p10", entity: .profile, op: .upsert, baseVersion: version, profile: profile),
            ])
            #expect(limited.status == .tooManyRequests)
            #expect(limited.headers[.retryAfter] == "3000")
            let error = try #require(try limited.object()["error"] as? [String: Any])
            #expect(error["code"] as? String == "rate_limited")
            #expect(try await client.api(.get, "/api/v1/profile", session).object()["mealsPerDay"].flatMap(number) == 5, "not applied")

            // A push without a profile change is never limited.
            let meal = Meal(name: "Lunch", kcal: 600, loggedAt: start.addingTimeInterval(600))
            #expect(try await push(client, session, [SyncChange.upsert(meal, key: "m1")]).status == .ok)

            // At 10:00:00 the first change has left the window: the pushed change applies.
            t.clock.set(start.addingTimeInterval(3_600))
            let later = try await push(client, session, [
                SyncChange(idempotencyKey: "p10b", entity: .profile, op: .upsert, baseVersion: version, profile: profile),
            ])
            #expect(later.status == .ok, "\(later.text)")
            #expect(try await client.api(.get, "/api/v1/profile", session).object()["mealsPerDay"].flatMap(number) == 7)
        }
    }
}
