import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietTestSupport

@Suite("Meals API")
struct MealsAPITests {
    @Test("a manual meal with invalid then valid calories", arguments: StoreBackend.allCases)
    func invalidThenValidCalories(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInWithProfile()
            for calories in [0, 10_000, -5] as [Any] + ["abc", NSNull()] {
                let response = try await client.api(.post, "/api/v1/meals", session, json: ["name": "Pasta", "calories": calories])
                #expect(response.status == .unprocessableContent, "calories \(calories)")
                let error = try response.errorDetail()
                #expect(error.code == "invalid")
                #expect(error.message == "Calories must be between 1-9999")
                #expect(error.fields == ["calories": "Calories must be between 1-9999"])
            }
            let noCalories = try await client.api(.post, "/api/v1/meals", session, json: ["name": "Pasta"])
            #expect(try noCalories.errorDetail().fields == ["calories": "Calories must be between 1-9999"])
            #expect(number((try await client.api(.get, "/api/v1/meals", session).object()["totals"] as? [String: Any])?["mealCount"]) == 0)

            let saved = try await client.api(.post, "/api/v1/meals", session, json: ["name": "Pasta", "calories": 650, "protein": 22.5])
            #expect(saved.status == .created)
            let meal = try saved.object()
            #expect(meal["name"] as? String == "Pasta")
            #expect(number(meal["calories"]) == 650)
            #expect(number(meal["protein"]) == 22.5)
            #expect(meal["carbs"] == nil)
            #expect(meal["source"] as? String == "manual")
            #expect(meal["localDate"] as? String == "2026-03-01")
            #expect(meal["loggedAt"] as? String == "2026-03-01T09:00:00.000Z")
            #expect(number(meal["version"]) != nil)
            #expect(meal["window"] as? String == "grace")
        }
    }

    @Test("macro messages are the form's; a manual meal without a name is a Quick add", arguments: StoreBackend.allCases)
    func manualDetails(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInWithProfile()
            let bad = try await client.api(.post, "/api/v1/meals", session, json: [
                "calories": 200, "protein": -1, "fat": "lots", "name": String(repeating: "a", count: 101),
            ])
            #expect(try bad.errorDetail().fields == [
                "protein": "Protein must be between 0-999 g", "fat": "Fat must be between 0-999 g",
                "name": "Meal name must be 100 characters or fewer",
            ])
            let quick = try await client.api(.post, "/api/v1/meals", session, json: ["calories": "120,5"])
            #expect(quick.status == .created)
            #expect(try quick.object()["name"] as? String == "Quick add")
            #expect(number(try quick.object()["calories"]) == 120.5)
        }
    }

    @Test("150 g of chicken breast from the catalog: 180 kcal; by portion: 2 × 3 oz = 170 g")
    func catalogMeal() async throws {
        let t = try TestApp(catalog: try await ServerCatalogDatabase.shared.value)
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile()
            let response = try await client.api(.post, "/api/v1/meals", session, json: [
                "foodId": "05062", "grams": 150, "loggedAt": "2026-03-01T11:30:00Z",
            ])
            #expect(response.status == .created)
            let meal = try response.object()
            #expect(meal["source"] as? String == "database")
            #expect(meal["foodId"] as? String == "05062")
            #expect(meal["name"] as? String == "Chicken, broiler or fryers, breast, skinless, boneless, meat only, raw")
            #expect(number(meal["grams"]) == 150)
            #expect(number(meal["calories"]) == 180)
            #expect(number(meal["protein"]) == 33.8)  // 22.5 × 1.5 = 33.75
            #expect(number(meal["carbs"]) == 0)
            #expect(number(meal["fat"]) == 3.9)  // 2.62 × 1.5 = 3.93
            #expect(meal["window"] as? String == "inside")  // 12:30 in Berlin

            let portion = try await client.api(.post, "/api/v1/meals", session, json: ["foodId": "05062", "portion": "3 OZ", "quantity": 2])
            #expect(portion.status == .created)
            #expect(number(try portion.object()["grams"]) == 170)
            #expect(number(try portion.object()["calories"]) == 204)

            let day = try await client.api(.get, "/api/v1/dashboard", session).object()
            #expect(number((day["totals"] as? [String: Any])?["calories"]) == 384)

            // A new amount rescales from the catalog.
            let id = try #require(meal["id"] as? String)
            let patched = try await client.api(.patch, "/api/v1/meals/\(id)", session, json: ["grams": 300])
            #expect(patched.status == .ok)
            #expect(number(try patched.object()["calories"]) == 360)
            #expect(number(try patched.object()["protein"]) == 67.5)
            // A catalog meal's values come from the food.
            let direct = try await client.api(.patch, "/api/v1/meals/\(id)", session, json: ["calories": 100])
            #expect(direct.status == .unprocessableContent)
            #expect(try direct.errorDetail().fields?["calories"] != nil)
        }
    }

    @Test("catalog meals: unknown food, bad amounts and unknown portions are 422 on the member sent")
    func catalogErrors() async throws {
        let t = try TestApp(catalog: try await ServerCatalogDatabase.shared.value)
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile()
            let cases: [([String: Any], [String: String])] = [
                (["foodId": "99999", "grams": 100], ["foodId": "This food is not in the catalog"]),
                (["foodId": "05062", "grams": 0], ["grams": "Amount must be between 0.1-5000 g"]),
                (["foodId": "05062", "grams": 6_000], ["grams": "Amount must be between 0.1-5000 g"]),
                (["foodId": "05062", "portion": "1 bucket"], ["portion": "Please choose one of this food's portions"]),
                (["foodId": "05062", "portion": "1 package", "quantity": 6], ["quantity": "Amount must be between 0.1-5000 g"]),
                (["foodId": "05062", "portion": "3 oz", "quantity": 0], ["quantity": "Please enter a valid number"]),
                (["foodId": "05062"], ["grams": "Please choose a food and an amount"]),
                (["foodId": "", "grams": 100], ["foodId": "Please choose a food and an amount"]),
                (["foodId": "05062", "grams": 100, "calories": 5], ["calories": "A food's values come from the catalog: change the amount instead"]),
            ]
            for (body, fields) in cases {
                let response = try await client.api(.post, "/api/v1/meals", session, json: body)
                #expect(response.status == .unprocessableContent, "\(body)")
                #expect(try response.errorDetail().fields == fields, "\(body)")
            }
        }
    }

    @Test("create, list newest first with totals, patch, delete", arguments: StoreBackend.allCases)
    func lifecycle(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInWithProfile()
            let breakfast = try await client.api(.post, "/api/v1/meals", session, json: [
                "name": "Oats", "calories": 350, "protein": 12, "carbs": 60, "fat": 7, "loggedAt": "2026-03-01T07:00:00Z",
            ]).object()
            let lunch = try await client.api(.post, "/api/v1/meals", session, json: [
                "name": "Salad", "calories": 420, "loggedAt": "2026-03-01T11:15:00Z",
            ]).object()
            let lunchId = try #require(lunch["id"] as? String)

            let list = try await client.api(.get, "/api/v1/meals", session)
            #expect(list.status == .ok)
            let day = try list.object()
            #expect(day["date"] as? String == "2026-03-01")
            let meals = try #require(day["meals"] as? [[String: Any]])
            #expect(meals.map { $0["name"] as? String } == ["Salad", "Oats"])
            let totals = try #require(day["totals"] as? [String: Any])
            #expect(number(totals["calories"]) == 770)
            #expect(number(totals["protein"]) == 12)

            // Partial update: only what is sent changes; the version moves.
            let patched = try await client.api(.patch, "/api/v1/meals/\(lunchId)", session, json: ["calories": 480, "protein": 30])
            #expect(patched.status == .ok)
            let after = try patched.object()
            #expect(after["name"] as? String == "Salad")
            #expect(number(after["calories"]) == 480)
            #expect(number(after["protein"]) == 30)
            #expect(try #require(number(after["version"])) > (try #require(number(lunch["version"]))))

            // Same validation as creation; nothing changes on a refusal.
            let refused = try await client.api(.patch, "/api/v1/meals/\(lunchId)", session, json: ["calories": 0])
            #expect(try refused.errorDetail().fields == ["calories": "Calories must be between 1-9999"])
            // null clears an optional macro.
            let cleared = try await client.api(.patch, "/api/v1/meals/\(lunchId)", session, json: ["protein": NSNull()]).object()
            #expect(cleared["protein"] == nil)
            #expect(number(cleared["calories"]) == 480)
            // Moving a meal to yesterday moves it between days.
            let moved = try await client.api(.patch, "/api/v1/meals/\(lunchId)", session, json: ["loggedAt": "2026-02-28T18:00:00Z"]).object()
            #expect(moved["localDate"] as? String == "2026-02-28")
            let yesterday = try await client.api(.get, "/api/v1/meals?date=2026-02-28", session).object()
            #expect((yesterday["meals"] as? [Any])?.count == 1)

            let deleted = try await client.api(.delete, "/api/v1/meals/\(lunchId)", session)
            #expect(deleted.status == .noContent)
            #expect(deleted.body.readableBytes == 0)
            let remaining = try await client.api(.get, "/api/v1/meals?date=2026-02-28", session).object()
            #expect((remaining["meals"] as? [Any])?.isEmpty == true)
            #expect(try await client.api(.patch, "/api/v1/meals/\(lunchId)", session, json: ["calories": 100]).status == .notFound)
            let unknown = try await client.api(.delete, "/api/v1/meals/\(UUID().uuidString)", session)
            #expect(unknown.status == .notFound)
            #expect(try unknown.errorDetail().message == "Meal not found")
            _ = breakfast
        }
    }

    @Test("a client id makes creation idempotent: the retry returns the same meal", arguments: StoreBackend.allCases)
    func idempotent(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInWithProfile()
            let id = UUID().uuidString
            let first = try await client.api(.post, "/api/v1/meals", session, json: ["id": id, "calories": 300])
            #expect(first.status == .created)
            t.clock.advance(seconds: 30)
            let retry = try await client.api(.post, "/api/v1/meals", session, json: ["id": id, "calories": 300])
            #expect(retry.status == .created)
            let a = try first.object(), b = try retry.object()
            #expect(a["id"] as? String == id.lowercased())
            #expect(b["id"] as? String == id.lowercased())
            #expect(number(a["version"]) == number(b["version"]))
            #expect(a["loggedAt"] as? String == b["loggedAt"] as? String)
            let list = try await client.api(.get, "/api/v1/meals", session).object()
            #expect((list["meals"] as? [Any])?.count == 1)
        }
    }

    @Test("the eating window: inside, grace, and outside with a gentle warning (saved all the same)", arguments: StoreBackend.allCases)
    func window(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInWithProfile(["eatingWindowStart": "11:30"])
            let cases = [
                ("2026-03-01T11:00:00Z", "inside", nil),  // 12:00 in Berlin
                ("2026-03-01T17:00:00Z", "grace", nil),  // 18:00, within 2 h after 17:30
                ("2026-03-01T04:00:00Z", "outside", "Eating outside your window (11:30am-5:30pm)"),  // 05:00
            ]
            for (loggedAt, placement, warning) in cases {
                let response = try await client.api(.post, "/api/v1/meals", session, json: ["calories": 200, "loggedAt": loggedAt])
                #expect(response.status == .created)
                let meal = try response.object()
                #expect(meal["window"] as? String == placement, "\(loggedAt)")
                #expect(meal["warning"] as? String == warning, "\(loggedAt)")
            }
        }
    }

    @Test("Maintain and Gain have no eating window: a meal at 05:00 is placed, but never warned about", arguments: StoreBackend.allCases)
    func noWindowWarningOutsideLose(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            for goal in ["maintain", "gain"] {
                let session = try await client.signInWithProfile(["goal": goal, "eatingWindowStart": "11:30"])
                let response = try await client.api(.post, "/api/v1/meals", session, json: ["calories": 200, "loggedAt": "2026-03-01T04:00:00Z"])
                #expect(response.status == .created)
                let meal = try response.object()
                #expect(meal["window"] as? String == "outside", "\(goal)")
                #expect(meal["warning"] == nil, "\(goal)")
            }
        }
    }

    @Test("meals need a profile (its time zone says which day they count for)", arguments: StoreBackend.allCases)
    func profileRequired(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInAsGuest()
            let response = try await client.api(.post, "/api/v1/meals", session, json: ["calories": 300])
            #expect(response.status == .conflict)
            #expect(try response.errorDetail().code == "profile_missing")
            #expect(try await client.api(.get, "/api/v1/meals", session).status == .notFound)
        }
    }
}
