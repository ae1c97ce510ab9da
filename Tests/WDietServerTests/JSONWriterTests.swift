import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WDietCore
import WDietTestSupport
@testable import WDietServer

/// The hand-written JSON of the dashboard and of a meal must be byte for byte what `JSONEncoder` writes.
@Suite("Hand-written JSON")
struct JSONWriterTests {
    static func encoded(_ value: some Encodable) throws -> String {
        String(decoding: try APICoding.encoder.encode(value), as: UTF8.self)
    }

    @Test("the dashboard, empty and after meals and a weight, in and outside a cycle")
    func dashboard() async throws {
        for variant in [[:], ["goal": "maintain"], ["planStartDate": "2026-02-20"]] as [[String: String]] {
            let t = try TestApp()
            try await t.app.test(.router) { client in
                let session = try await client.signInWithProfile(variant)
                let now = t.clock.closure()
                let empty = try await t.services.dashboards.dashboard(userId: session.userId, now: now)
                #expect(String(decoding: DashboardJSON(empty).jsonBytes(), as: UTF8.self) == (try Self.encoded(DashboardJSON(empty))))

                _ = try await client.api(.post, "/api/v1/meals", session, json: ["name": "Pasta \"al forno\" / 🍝", "calories": 650, "protein": 22.5, "carbs": 80, "fat": 20.25])
                _ = try await client.api(.post, "/api/v1/meals", session, json: ["name": "Apple\n", "calories": 95])
                _ = try await client.api(.post, "/api/v1/weights", session, json: ["kg": 79.4])
                let full = try await t.services.dashboards.dashboard(userId: session.userId, now: now)
                let written = String(decoding: DashboardJSON(full).jsonBytes(), as: UTF8.self)
                #expect(written == (try Self.encoded(DashboardJSON(full))))
                let served = try await client.api(.get, "/api/v1/dashboard", session)
                #expect(served.headers[.contentType] == "application/json; charset=utf-8")
                #expect(String(buffer: served.body) == written)
            }
        }
    }

    @Test("a meal: manual with and without macros, outside the window with its warning, escaped text")
    func meal() async throws {
        let t = try TestApp(clockStart: Fixtures.utc("2026-03-01T03:00:00Z"))
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile()
            let profile = try #require(try await t.services.profiles.profile(userId: session.userId)?.profile)
            for body in [
                ["name": "Tab\there, \"quotes\", back\\slash, a/b, line\nbreak, café 🍎", "calories": 95],
                ["name": "Pasta", "calories": 650, "protein": 22.5, "carbs": 80.125, "fat": 20, "fiber": 0.1],
            ] as [[String: Any]] {
                let response = try await client.api(.post, "/api/v1/meals", session, json: body)
                #expect(response.status == .created)
                let idText = try #require(try response.object()["id"] as? String)
                let id = try #require(UUID(uuidString: idText))
                let stored = try #require(try await t.services.meals.meal(userId: session.userId, id: id))
                let json = MealJSON(stored, profile: profile)
                #expect(String(buffer: response.body) == (try Self.encoded(json)))
                #expect(String(decoding: json.jsonBytes(), as: UTF8.self) == (try Self.encoded(json)))
            }
        }
    }

    @Test("search pages over SR28: every food's members, portions with and without a common one, quotes and slashes")
    func searchPages() async throws {
        let t = try TestApp(catalog: try await ServerCatalogDatabase.shared.value)
        let queries = [
            "banana", "bananna", "chicken breast", "oatmeal", "milk", "cheese", "salmon", "rice", "fries", "soda",
            "ketchup", "hamburger", "egg", "bread", "apple", "yoghurt", "brocoli", "beef", "pasta", "a", "xyzzy",
        ]
        var foods = 0
        var withCommon = 0
        for query in queries {
            for limit in [1, 20, 50] {
                let results = try await t.services.foods.searchFoods(query, limit: limit)
                foods += results.count
                let page = FoodSearchJSON(results)
                withCommon += page.results.filter { $0.commonPortion != nil }.count
                #expect(String(decoding: page.jsonBytes(), as: UTF8.self) == (try Self.encoded(page)), "\(query) \(limit)")
            }
        }
        // The pages hold real foods: hundreds of them, with and without a common portion.
        #expect(foods > 900)
        #expect(withCommon > 100 && withCommon < foods)
        try await t.app.test(.router) { client in
            let session = try await client.signInAsGuest()
            let served = try await client.api(.get, "/api/v1/foods/search?q=banana&limit=5", session)
            let page = FoodSearchJSON(try await t.services.foods.searchFoods("banana", limit: 5))
            #expect(String(buffer: served.body) == (try Self.encoded(page)))
        }
    }
}
