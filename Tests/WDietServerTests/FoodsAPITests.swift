import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietTestSupport

@Suite("Food search API")
struct FoodsAPITests {
    @Test("raw chicken breast: per-100 g values and portions, 100 g first, a short name and the common portion")
    func chickenBreast() async throws {
        let t = try TestApp(catalog: try await ServerCatalogDatabase.shared.value)
        try await t.app.test(.router) { client in
            let session = try await client.signInAsGuest()
            // "chicken breast" alone puts the cooked ones first (docs/food-search.md).
            let response = try await client.api(.get, "/api/v1/foods/search?q=chicken%20breast%20raw&limit=10", session)
            #expect(response.status == .ok)
            let results = try #require(try response.object()["results"] as? [[String: Any]])
            #expect(!results.isEmpty && results.count <= 10)
            let chicken = try #require(results.first { $0["id"] as? String == "05062" })
            #expect(chicken["name"] as? String == "Chicken, broiler or fryers, breast, skinless, boneless, meat only, raw")
            #expect(number(chicken["kcalPer100g"]) == 120)
            #expect(number(chicken["proteinPer100g"]) == 22.5)
            #expect(number(chicken["carbsPer100g"]) == 0)
            #expect(number(chicken["fatPer100g"]) == 2.62)
            let portions = try #require(chicken["portions"] as? [[String: Any]])
            #expect(portions.map { $0["label"] as? String } == ["100 g", "3 oz", "1 piece", "1 package"])
            #expect(portions.map { number($0["grams"]) } == [100, 85, 272, 926])
            // "Chicken, breast, skinless, raw" would also name the one "with added solution" on this page: both keep
            // every part that is not noise.
            #expect(chicken["shortName"] as? String == "Chicken, breast, skinless, boneless, raw")
            // No medium one: USDA's first measure, 3 oz = 85 g, 120 kcal/100 g × 0.85 = 102 kcal.
            let common = try #require(chicken["commonPortion"] as? [String: Any])
            #expect(common["label"] as? String == "3 oz")
            #expect(common["shortLabel"] as? String == "3 oz")
            #expect(number(common["grams"]) == 85)
            #expect(number(common["kcal"]) == 102)
        }
    }

    @Test("banana: the medium one is the common portion (118 g, 105 kcal), the name is already short")
    func bananaCommonPortion() async throws {
        let t = try TestApp(catalog: try await ServerCatalogDatabase.shared.value)
        try await t.app.test(.router) { client in
            let session = try await client.signInAsGuest()
            let response = try await client.api(.get, "/api/v1/foods/search?q=bananna&limit=3", session)
            let results = try #require(try response.object()["results"] as? [[String: Any]])
            let banana = try #require(results.first)
            #expect(banana["id"] as? String == "09040", "a typo finds the banana")
            #expect(banana["name"] as? String == "Bananas, raw")
            #expect(banana["shortName"] as? String == "Bananas, raw")
            let common = try #require(banana["commonPortion"] as? [String: Any])
            #expect(common["shortLabel"] as? String == "1 medium")
            #expect(number(common["grams"]) == 118)
            // 89 kcal/100 g × 1.18 = 105.02 → 105.
            #expect(number(common["kcal"]) == 105)
        }
    }

    @Test("q is required; limit is 1–50 (default 20)")
    func parameters() async throws {
        let t = try TestApp(catalog: try await ServerCatalogDatabase.shared.value)
        try await t.app.test(.router) { client in
            let session = try await client.signInAsGuest()
            let missing = try await client.api(.get, "/api/v1/foods/search", session)
            #expect(missing.status == .badRequest)
            #expect(try missing.errorDetail().fields?["q"] != nil)
            #expect(try await client.api(.get, "/api/v1/foods/search?q=%20%20", session).status == .badRequest)
            for limit in ["0", "51", "ten", "-3"] {
                let response = try await client.api(.get, "/api/v1/foods/search?q=apple&limit=\(limit)", session)
                #expect(response.status == .badRequest, "limit=\(limit)")
                #expect(try response.errorDetail().fields?["limit"] != nil)
            }
            let five = try await client.api(.get, "/api/v1/foods/search?q=apple&limit=5", session).object()
            #expect((five["results"] as? [Any])?.count == 5)
            let standard = try await client.api(.get, "/api/v1/foods/search?q=apple", session).object()
            #expect((standard["results"] as? [Any])?.count == 20)
        }
    }

    @Test("without a catalog: 503 catalog_missing, and manual meals still work")
    func catalogMissing() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile()
            let search = try await client.api(.get, "/api/v1/foods/search?q=apple", session)
            #expect(search.status == .serviceUnavailable)
            #expect(try search.errorDetail().code == "catalog_missing")
            let meal = try await client.api(.post, "/api/v1/meals", session, json: ["foodId": "05062", "grams": 150])
            #expect(meal.status == .serviceUnavailable)
            #expect(try meal.errorDetail().code == "catalog_missing")
            #expect(try await client.api(.post, "/api/v1/meals", session, json: ["calories": 300]).status == .created)
        }
    }

    @Test("search needs a session")
    func unauthorized() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let response = try await client.api(.get, "/api/v1/foods/search?q=apple", nil)
            #expect(response.status == .unauthorized)
        }
    }
}
