import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietCore
import WDietStore
import WDietTestSupport
@testable import WDietServer

/// Settings → Data's "Seed Demo Data" and "Remove Demo Data" (web forms; `ChallengeDemo.swift`) on both backends.
/// The demo's rows have ids derived from the user and the day, so after a removal their tombstones hold those ids:
/// seeding again must write over them (each row from its tombstone's version), not push creates that lose to them.
/// The clock: Tuesday 1 December 2026, 09:00 UTC; the demo starts 11 weeks before that week's Monday (14 September).
@Suite("Challenge demo data")
struct ChallengeDemoTests {
    static let clock = Fixtures.utc("2026-12-01T09:00:00Z")

    static func post(_ client: some TestClientProtocol, _ session: WebDashboardSession, _ path: String) async throws -> String? {
        let response = try await client.execute(
            uri: path, method: .post,
            headers: [.cookie: session.cookie, .contentType: "application/x-www-form-urlencoded"],
            body: ByteBuffer(string: "_csrf=\(session.csrf)"))
        #expect(response.status == .seeOther, "\(response.text)")
        return response.headers[.location]
    }

    @Test("seeding again after Remove Demo Data brings the whole demo back", arguments: StoreBackend.allCases)
    func seedAgainAfterRemoval(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend, clockStart: Self.clock) { t, client in
            let session = try await WebDashboardSession.withProfile(client)
            let token = String(session.cookie.dropFirst("wdiet_session=".count))
            let userId = try #require(try await t.services.accounts.session(tokenHash: SessionToken.hash(token))?.userId)
            let store = ChallengeStore(sync: t.services.sync)
            let demoId = ChallengeDemoData.challengeId(userId: userId)
            let expected = ChallengeDemoData.rows(userId: userId, today: Fixtures.date("2026-12-01"), now: Self.clock)
            // 11 weeks and a day before today: 78 days of nutrition and habits; every week's weigh-in up to this one.
            #expect(expected.nutrition.count == 78 && expected.habits.count == 78)

            #expect(try await Self.post(client, session, "/challenge/demo") == "/challenge?saved=demo")
            let first = try #require(try await store.current(userId: userId))
            #expect(first.id == demoId)
            let seeded = try await store.read(userId: userId, challenge: first.value)
            #expect(seeded.data.nutrition.count == 78 && seeded.data.habits.count == 78)
            #expect(seeded.data.workouts.count == expected.workouts.count && seeded.data.weighIns.count == expected.weighIns.count)
            // A drawn photo each week up to this one (week 12's Monday, 30 November, has passed), week 5's late; each
            // stored in the media store as an upload is (a 600 × 800 display JPEG and a thumbnail).
            let photoIds = (1...12).map { ChallengeDemoData.photoMediaId(userId: userId, week: $0) }
            #expect(seeded.data.photos.keys.sorted() == Array(1...12))
            #expect(seeded.data.photos.values.map(\.mediaId).sorted { $0.uuidString < $1.uuidString } == photoIds.sorted { $0.uuidString < $1.uuidString })
            #expect(seeded.data.photos[5]?.isLate(in: first.value) == true && seeded.data.photos[4]?.isLate(in: first.value) == false)
            for id in photoIds {
                let item = try #require(try await t.services.media.media(id: id, userId: userId))
                #expect(item.kind == .photo && item.contentType == "image/jpeg" && item.width == 600 && item.height == 800)
                #expect((item.thumbnailBytes ?? 0) > 0)
            }
            let progress = try await session.get(client, "/challenge/progress?tab=photos")
            #expect(progress.text.components(separatedBy: "?size=thumb").count - 1 == 12)

            #expect(try await Self.post(client, session, "/challenge/demo/remove") == "/challenge/settings?saved=demoRemoved")
            #expect(try await store.current(userId: userId) == nil)
            #expect(try await session.get(client, "/api/v1/challenge").status == .notFound)
            // The demo's photos went with it.
            for id in photoIds { #expect(try await t.services.media.media(id: id, userId: userId) == nil) }

            // Again: the same challenge with every row, over the tombstones.
            #expect(try await Self.post(client, session, "/challenge/demo") == "/challenge?saved=demo")
            let again = try #require(try await store.current(userId: userId))
            #expect(again.value == first.value)
            #expect(again.version > first.version)
            let reseeded = try await store.read(userId: userId, challenge: again.value)
            #expect(reseeded.data == seeded.data)
            for id in photoIds { #expect(try await t.services.media.media(id: id, userId: userId) != nil) }
            let home = try await session.get(client, "/api/v1/challenge")
            #expect(home.status == .ok, "\(home.text)")
            #expect(ChallengeHomeCacheTests.object(try home.object()["challenge"])["id"] as? String == demoId.uuidString.lowercased())
            let page = try await session.get(client, "/challenge").text
            #expect(page.contains("Week 12 of 17"), "\(page)")
        }
    }
}
