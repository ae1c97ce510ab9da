import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietTestSupport

@Suite("API scoping: another user's ids")
struct CrossUserAPITests {
    @Test("user A tries user B's meal and weight ids on every meal and weight endpoint: 404 (409 on create), nothing changes")
    func otherUsersIds() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let a = try await client.signInWithProfile()
            let b = try await client.signInWithProfile()
            let bMeal = try await client.api(.post, "/api/v1/meals", b, json: ["name": "B's dinner", "calories": 700, "protein": 40]).object()
            let bMealId = try #require(bMeal["id"] as? String)
            let bWeight = try await client.api(.post, "/api/v1/weights", b, json: ["kg": 70]).object()
            let bWeightId = try #require((bWeight["entry"] as? [String: Any])?["id"] as? String)
            let before = try await client.api(.get, "/api/v1/meals", b).text
            let weightsBefore = try await client.api(.get, "/api/v1/weights", b).text

            // Every endpoint that takes an id, with B's ids, as A.
            let patch = try await client.api(.patch, "/api/v1/meals/\(bMealId)", a, json: ["calories": 1])
            #expect(patch.status == .notFound)
            #expect(try patch.errorDetail().message == "Meal not found")
            #expect(try await client.api(.delete, "/api/v1/meals/\(bMealId)", a).status == .notFound)
            #expect(try await client.api(.delete, "/api/v1/weights/\(bWeightId)", a).status == .notFound)
            // Creating with an id that is taken is refused without touching or showing B's row.
            let create = try await client.api(.post, "/api/v1/meals", a, json: ["id": bMealId, "calories": 5])
            #expect(create.status == .conflict)
            #expect(!create.text.contains("B's dinner"))
            let createWeight = try await client.api(.post, "/api/v1/weights", a, json: ["id": bWeightId, "kg": 120])
            #expect(createWeight.status == .conflict)
            // The weight id on the meal routes and the meal id on the weight route: unknown to A either way.
            #expect(try await client.api(.delete, "/api/v1/meals/\(bWeightId)", a).status == .notFound)
            #expect(try await client.api(.delete, "/api/v1/weights/\(bMealId)", a).status == .notFound)

            // A's reads show none of B's rows.
            let aMeals = try await client.api(.get, "/api/v1/meals", a).object()
            #expect((aMeals["meals"] as? [Any])?.isEmpty == true)
            let aWeights = try await client.api(.get, "/api/v1/weights", a).object()
            #expect((aWeights["entries"] as? [Any])?.isEmpty == true)
            let aDashboard = try await client.api(.get, "/api/v1/dashboard", a).object()
            #expect(number((aDashboard["totals"] as? [String: Any])?["calories"]) == 0)
            #expect(aDashboard["showsWeightPrompt"] as? Bool == true)

            // A's export holds none of B's rows; B's holds B's.
            let aExport = try await client.api(.get, "/api/v1/export", a)
            #expect(aExport.status == .ok)
            #expect(!aExport.text.contains("B's dinner") && !aExport.text.contains(bMealId) && !aExport.text.contains(bWeightId))
            #expect(try await client.api(.get, "/api/v1/export", b).text.contains(bMealId))

            // Sync: a push that names B's meal is refused whole and shows nothing of it; deletes of B's ids are
            // ids A does not have (ignored); A's pull holds none of B's rows.
            let steal = try await client.api(.post, "/api/v1/sync/push", a, json: ["changes": [[
                "idempotencyKey": "steal", "entity": "meal", "op": "upsert", "id": bMealId, "baseVersion": 1,
                "meal": ["id": bMealId, "name": "Stolen", "kcal": 5, "source": "manual", "loggedAt": "2026-03-01T08:00:00Z"],
            ]]])
            #expect(steal.status == .conflict)
            #expect(try steal.errorDetail().code == "id_in_use")
            #expect(!steal.text.contains("B's dinner"))
            let deletes = try await client.api(.post, "/api/v1/sync/push", a, json: ["changes": [
                ["idempotencyKey": "d1", "entity": "meal", "op": "delete", "id": bMealId],
                ["idempotencyKey": "d2", "entity": "weight", "op": "delete", "id": bWeightId],
            ]])
            #expect(deletes.status == .ok)
            let results = try #require(try deletes.object()["results"] as? [[String: Any]])
            #expect(results.map { $0["status"] as? String } == ["ignored", "ignored"])
            #expect(results.allSatisfy { $0["server"] == nil })
            let aPull = try await client.api(.get, "/api/v1/sync/pull?cursor=0", a)
            #expect(aPull.status == .ok)
            // Sync bodies spell ids as Foundation's UUID coding does (uppercase): compare without case.
            let aPullText = aPull.text.lowercased()
            #expect(!aPullText.contains(bMealId.lowercased()) && !aPullText.contains(bWeightId.lowercased()))
            #expect(!aPull.text.contains("B's dinner"))

            // B's rows are exactly as they were.
            #expect(try await client.api(.get, "/api/v1/meals", b).text == before)
            #expect(try await client.api(.get, "/api/v1/weights", b).text == weightsBefore)
        }
    }

    @Test("every user route without a session is 401")
    func signedOut() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let id = UUID().uuidString
            let routes: [(HTTPRequest.Method, String)] = [
                (.get, "/api/v1/profile"), (.put, "/api/v1/profile"), (.get, "/api/v1/plan"), (.get, "/api/v1/dashboard"),
                (.get, "/api/v1/foods/search?q=apple"), (.post, "/api/v1/meals"), (.get, "/api/v1/meals"),
                (.patch, "/api/v1/meals/\(id)"), (.delete, "/api/v1/meals/\(id)"), (.post, "/api/v1/weights"),
                (.get, "/api/v1/weights"), (.delete, "/api/v1/weights/\(id)"),
                (.get, "/api/v1/export"), (.get, "/api/v1/export?format=csv"), (.post, "/api/v1/import"), (.delete, "/api/v1/account"),
                (.post, "/api/v1/sync/push"), (.get, "/api/v1/sync/pull?cursor=0"),
            ]
            for (method, path) in routes {
                let response = try await client.api(method, path, nil, body: "{}")
                #expect(response.status == .unauthorized, "\(method) \(path)")
                #expect(try response.errorDetail().code == "unauthorized")
            }
            let forged = APISession(token: "not-a-token", userId: UUID())
            #expect(try await client.api(.get, "/api/v1/meals", forged).status == .unauthorized)
        }
    }
}
