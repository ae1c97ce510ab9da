import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietTestSupport

/// Issue 17: weight entries are edited (`PUT /weights/{id}`) and deleted with Undo (`POST /weights/{id}/restore`).
/// TestApp's clock: 2026-03-01 09:00 UTC; the profile's zone is Europe/Berlin.
@Suite("Weights API: edit and restore")
struct WeightsEditAPITests {
    static func entry(_ response: TestResponse) throws -> [String: Any] {
        try #require(try response.object()["entry"] as? [String: Any])
    }

    @Test("PUT changes the weight and, when sent, the time (the entry moves to its new day); left out, the time stays", arguments: StoreBackend.allCases)
    func edit(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInWithProfile()
            let logged = try Self.entry(try await client.api(.post, "/api/v1/weights", session, json: ["kg": 80.4, "loggedAt": "2026-02-27T07:00:00Z"]))
            let id = try #require(logged["id"] as? String)
            let version = try #require(number(logged["version"]))
            _ = try await client.api(.post, "/api/v1/weights", session, json: ["kg": 79.8, "loggedAt": "2026-02-28T07:00:00Z"])

            t.clock.advance(seconds: 60)
            let changed = try await client.api(.put, "/api/v1/weights/\(id)", session, json: ["kg": 81.26])
            #expect(changed.status == .ok)
            let entry = try Self.entry(changed)
            #expect(number(entry["kg"]) == 81.3)  // to 0.1 kg
            #expect(entry["loggedAt"] as? String == "2026-02-27T07:00:00.000Z", "the time stays")
            #expect(entry["localDate"] as? String == "2026-02-27")
            #expect(try #require(number(entry["version"])) > version)
            #expect(number((try changed.object()["day"] as? [String: Any])?["kg"]) == 81.3)

            // A new time on another day: the entry is that day's now; 27 Feb has no weight left.
            let moved = try Self.entry(try await client.api(.put, "/api/v1/weights/\(id)", session, json: ["kg": 81.3, "loggedAt": "2026-02-26T06:30:00Z"]))
            #expect(moved["localDate"] as? String == "2026-02-26")
            let days = try #require(try await client.api(.get, "/api/v1/weights", session).object()["days"] as? [[String: Any]])
            #expect(days.map { $0["date"] as? String } == ["2026-02-26", "2026-02-28"])
            #expect(days.map { number($0["kg"]) } == [81.3, 79.8])
            // Nothing new was logged: still two entries.
            #expect((try await client.api(.get, "/api/v1/weights", session).object()["entries"] as? [Any])?.count == 2)
        }
    }

    @Test("PUT in pounds for a pound user; the weight's range, an unknown, deleted or someone else's entry, a bad id", arguments: StoreBackend.allCases)
    func editRules(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { _, client in
            let session = try await client.signInWithProfile(["weightUnit": "lb"])
            let id = try #require(try Self.entry(try await client.api(.post, "/api/v1/weights", session, json: ["lb": 176.4]))["id"] as? String)
            let pounds = try Self.entry(try await client.api(.put, "/api/v1/weights/\(id)", session, json: ["lb": 170]))
            #expect(number(pounds["kg"]) == 77.1 && number(pounds["lb"]) == 170)  // 170 × 0.45359237 = 77.11

            let tooHeavy = try await client.api(.put, "/api/v1/weights/\(id)", session, json: ["kg": 700])
            #expect(tooHeavy.status == .unprocessableContent)
            #expect(try tooHeavy.errorDetail().fields == ["kg": "Weight must be less than 500 kg (1102 lbs)"])
            let otherId = try await client.api(.put, "/api/v1/weights/\(id)", session, json: ["kg": 70, "id": UUID().uuidString])
            #expect(otherId.status == .unprocessableContent)
            #expect(try otherId.errorDetail().fields == ["id": "The id is in the path"])

            let mallory = try await client.signInWithProfile()
            #expect(try await client.api(.put, "/api/v1/weights/\(id)", mallory, json: ["kg": 70]).status == .notFound)
            #expect(try await client.api(.put, "/api/v1/weights/\(UUID().uuidString)", session, json: ["kg": 70]).status == .notFound)
            #expect(try await client.api(.put, "/api/v1/weights/not-an-id", session, json: ["kg": 70]).status == .badRequest)
            #expect(try await client.api(.delete, "/api/v1/weights/\(id)", session).status == .noContent)
            #expect(try await client.api(.put, "/api/v1/weights/\(id)", session, json: ["kg": 70]).status == .notFound)
        }
    }

    @Test("delete, then Undo: the entry is back under a new version, the day's weight with it; only its owner can", arguments: StoreBackend.allCases)
    func restore(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { _, client in
            let session = try await client.signInWithProfile()
            let logged = try Self.entry(try await client.api(.post, "/api/v1/weights", session, json: ["kg": 79.4]))
            let id = try #require(logged["id"] as? String)
            #expect(try await client.api(.delete, "/api/v1/weights/\(id)", session).status == .noContent)
            let dashboard = try await client.api(.get, "/api/v1/dashboard", session).object()
            #expect(number((dashboard["weightCard"] as? [String: Any])?["todayKg"]) == nil)

            let mallory = try await client.signInWithProfile()
            #expect(try await client.api(.post, "/api/v1/weights/\(id)/restore", mallory).status == .notFound)
            #expect(try await client.api(.post, "/api/v1/weights/\(UUID().uuidString)/restore", session).status == .notFound)

            let restored = try await client.api(.post, "/api/v1/weights/\(id)/restore", session)
            #expect(restored.status == .ok)
            let entry = try Self.entry(restored)
            #expect(number(entry["kg"]) == 79.4)
            #expect(try #require(number(entry["version"])) > (try #require(number(logged["version"]))) + 1, "delete and restore each draw a version")
            let again = try await client.api(.get, "/api/v1/weights", session).object()
            #expect((again["entries"] as? [[String: Any]])?.map { $0["id"] as? String } == [id])
            let day = try await client.api(.get, "/api/v1/dashboard", session).object()
            #expect(number((day["weightCard"] as? [String: Any])?["todayKg"]) == 79.4)
        }
    }
}
