import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietTestSupport

@Suite("Meals API: delete with undo")
struct MealRestoreAPITests {
    @Test("delete, then undo: the meal, its totals and its streak day are back under a new version", arguments: StoreBackend.allCases)
    func deleteThenRestore(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInWithProfile()
            let saved = try await client.api(.post, "/api/v1/meals", session, json: ["name": "Pasta", "calories": 650])
            let meal = try saved.object()
            let id = try #require(meal["id"] as? String)
            let firstVersion = try #require(number(meal["version"]))

            #expect(try await client.api(.delete, "/api/v1/meals/\(id)", session).status == .noContent)
            let emptyDay = try await client.api(.get, "/api/v1/dashboard", session).object()
            #expect(number((emptyDay["totals"] as? [String: Any])?["calories"]) == 0)
            #expect(number((emptyDay["streak"] as? [String: Any])?["days"]) == 0)

            let restored = try await client.api(.post, "/api/v1/meals/\(id)/restore", session)
            #expect(restored.status == .ok)
            #expect(try restored.object()["name"] as? String == "Pasta")
            #expect(try #require(number(try restored.object()["version"])) > firstVersion)
            let day = try await client.api(.get, "/api/v1/dashboard", session).object()
            #expect(number((day["totals"] as? [String: Any])?["calories"]) == 650)
            #expect(number((day["streak"] as? [String: Any])?["days"]) == 1)

            // Restoring a live meal changes nothing.
            let again = try await client.api(.post, "/api/v1/meals/\(id)/restore", session)
            #expect(number(try again.object()["version"]) == number(try restored.object()["version"]))
        }
    }

    @Test("another user's meal cannot be restored: 404 and it stays deleted", arguments: StoreBackend.allCases)
    func otherUsersMeal(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let owner = try await client.signInWithProfile()
            let other = try await client.signInWithProfile()
            let id = try #require(try await client.api(.post, "/api/v1/meals", owner, json: ["calories": 300]).object()["id"] as? String)
            _ = try await client.api(.delete, "/api/v1/meals/\(id)", owner)
            #expect(try await client.api(.post, "/api/v1/meals/\(id)/restore", other).status == .notFound)
            #expect(try await client.api(.post, "/api/v1/meals/\(UUID().uuidString)/restore", owner).status == .notFound)
            #expect(try await client.api(.post, "/api/v1/meals/not-a-uuid/restore", owner).status == .badRequest)
            let list = try await client.api(.get, "/api/v1/meals", owner).object()
            #expect((list["meals"] as? [Any])?.isEmpty == true)
        }
    }
}
