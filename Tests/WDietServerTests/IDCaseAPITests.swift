import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietTestSupport

/// The store keeps ids in lowercase; the API writes them the same way (Swift's `uuidString` is uppercase) and
/// takes either case from clients.
@Suite("API ids: lowercase out, either case in")
struct IDCaseAPITests {
    static func isLowercaseUUID(_ value: Any?) -> Bool {
        guard let text = value as? String else { return false }
        return UUID(uuidString: text) != nil && text == text.lowercased()
    }

    @Test("a guest's user id is lowercase")
    func userId() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let response = try await client.execute(uri: "/api/v1/auth/guest", method: .post)
            let user = try #require(try response.object()["user"] as? [String: Any])
            #expect(Self.isLowercaseUUID(user["id"]))
        }
    }

    @Test("a meal sent with an uppercase id comes back lowercase, in the body, the Location and the day's list; paths take either case")
    func meals() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile()
            let upper = "6F1C2B8E-4A7D-4C1B-9E3A-2D5F8A7B6C01"
            let lower = upper.lowercased()

            let created = try await client.api(.post, "/api/v1/meals", session, json: ["id": upper, "name": "Pasta", "calories": 650])
            #expect(created.status == .created)
            #expect(try created.object()["id"] as? String == lower)
            #expect(created.headers[.location] == "/api/v1/meals/\(lower)")

            // The same id in the other case is the same meal: the retry logs nothing twice.
            let retry = try await client.api(.post, "/api/v1/meals", session, json: ["id": lower, "name": "Pasta", "calories": 650])
            #expect(retry.status == .created)
            #expect(number(try retry.object()["version"]) == number(try created.object()["version"]))

            let generated = try await client.api(.post, "/api/v1/meals", session, json: ["name": "Apple", "calories": 95])
            let generatedId = try generated.object()["id"]
            #expect(Self.isLowercaseUUID(generatedId))
            #expect(generated.headers[.location] == "/api/v1/meals/\(generatedId as? String ?? "?")")

            let day = try await client.api(.get, "/api/v1/meals", session).object()
            let ids = (day["meals"] as? [[String: Any]] ?? []).map { $0["id"] as? String }
            #expect(ids.count == 2)
            #expect(ids.contains(lower))
            #expect(ids.allSatisfy { Self.isLowercaseUUID($0) })

            let patched = try await client.api(.patch, "/api/v1/meals/\(upper)", session, json: ["calories": 700])
            #expect(patched.status == .ok)
            #expect(try patched.object()["id"] as? String == lower)
            #expect(try await client.api(.delete, "/api/v1/meals/\(upper)", session).status == .noContent)
            let restored = try await client.api(.post, "/api/v1/meals/\(lower)/restore", session)
            #expect(restored.status == .ok)
            #expect(try restored.object()["id"] as? String == lower)
        }
    }

    @Test("a weight sent with an uppercase id comes back lowercase and is deleted by it in either case")
    func weights() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile()
            let upper = "0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D"
            let lower = upper.lowercased()

            let created = try await client.api(.post, "/api/v1/weights", session, json: ["id": upper, "kg": 80])
            #expect(created.status == .created)
            let entry = try #require(try created.object()["entry"] as? [String: Any])
            #expect(entry["id"] as? String == lower)
            #expect(created.headers[.location] == "/api/v1/weights/\(lower)")

            let history = try await client.api(.get, "/api/v1/weights", session).object()
            let ids = (history["entries"] as? [[String: Any]] ?? []).map { $0["id"] as? String }
            #expect(ids == [lower])

            #expect(try await client.api(.delete, "/api/v1/weights/\(upper)", session).status == .noContent)
            #expect((try await client.api(.get, "/api/v1/weights", session).object()["entries"] as? [Any])?.isEmpty == true)
        }
    }
}
