import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietTestSupport

/// Undo has a window (issue 21 item 8, docs/operations.md "Deleted rows"): a meal or weight deleted more than 30
/// days ago cannot be restored and answers as a missing one; one deleted 29 days ago comes back whole. The clock
/// starts 2026-03-01T09:00:00Z; the sessions live 30 days, so the person signs in again.
@Suite("Restore after the undo window")
struct DeletedRowRestoreAPITests {
    @Test("a meal and a weight deleted 31 days ago answer 404 as missing ones; 29 days ago they come back", arguments: StoreBackend.allCases)
    func restoreWindow(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let email = "undo-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            let account = try await client.register(email)
            var session = APISession(token: account.token, userId: account.user.id)
            #expect(try await client.api(.put, "/api/v1/profile", session, json: APIFixtures.profile()).status == .created)
            func saved(_ path: String, _ json: [String: Any]) async throws -> String {
                let object = try await client.api(.post, path, session, json: json).object()
                let body = (object["entry"] as? [String: Any]) ?? object  // a weight answers {"entry", "day"}
                return try #require(body["id"] as? String)
            }
            let oats = try await saved("/api/v1/meals", ["name": "Oats", "calories": 303])
            let soup = try await saved("/api/v1/meals", ["name": "Soup", "calories": 250])
            let early = try await saved("/api/v1/weights", ["kg": 82.4])
            let later = try await saved("/api/v1/weights", ["kg": 81.9])

            #expect(try await client.api(.delete, "/api/v1/meals/\(oats)", session).status == .noContent)
            #expect(try await client.api(.delete, "/api/v1/weights/\(early)", session).status == .noContent)
            t.clock.advance(seconds: 2 * 86_400)
            #expect(try await client.api(.delete, "/api/v1/meals/\(soup)", session).status == .noContent)
            #expect(try await client.api(.delete, "/api/v1/weights/\(later)", session).status == .noContent)
            t.clock.advance(seconds: 29 * 86_400)

            let login = try await client.login(email)
            #expect(login.status == .ok)
            session = APISession(token: try login.json(SignedInBody.self).token, userId: account.user.id)

            for kind in ["meals", "weights"] {
                let missing = try await client.api(.post, "/api/v1/\(kind)/\(UUID().uuidString.lowercased())/restore", session)
                let scrubbed = try await client.api(.post, "/api/v1/\(kind)/\(kind == "meals" ? oats : early)/restore", session)
                #expect(missing.status == .notFound)
                #expect(scrubbed.status == .notFound)
                #expect(String(buffer: scrubbed.body) == String(buffer: missing.body))
            }
            let meal = try await client.api(.post, "/api/v1/meals/\(soup)/restore", session)
            #expect(meal.status == .ok)
            #expect(try meal.object()["name"] as? String == "Soup")
            #expect(number(try meal.object()["calories"]) == 250)
            let weight = try await client.api(.post, "/api/v1/weights/\(later)/restore", session)
            #expect(weight.status == .ok)
            #expect(String(buffer: weight.body).contains("81.9"))
        }
    }
}
