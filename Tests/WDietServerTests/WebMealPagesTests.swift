import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WDietServer
import WDietTestSupport

/// A browser's web session in HummingbirdTesting: the session cookie and the CSRF token its pages carry.
struct MealWebUser {
    var sessionToken: String
    var csrfToken: String
    var cookie: String { "wdiet_session=\(sessionToken)" }
}

extension TestClientProtocol {
    /// "Continue without an account" as a browser does it (the account step's double-submit cookie and hidden
    /// field), then the profile through the API with the cookie and the CSRF header.
    func mealWebUser(_ overrides: [String: Any] = [:], withProfile: Bool = true) async throws -> MealWebUser {
        let step = try await execute(uri: "/onboarding", method: .get)
        let preSession = try #require(mealCookieValue(WebSession.preSessionCookie, in: step))
        let hidden = try #require(mealHiddenCSRF(in: step.text))
        let guest = try await execute(
            uri: "/onboarding/guest", method: .post,
            headers: [.contentType: "application/x-www-form-urlencoded", .cookie: "\(WebSession.preSessionCookie)=\(preSession)"],
            body: ByteBuffer(string: "_csrf=\(hidden)")
        )
        #expect(guest.status == .seeOther)
        let session = try #require(mealCookieValue("wdiet_session", in: guest))
        let user = MealWebUser(sessionToken: session, csrfToken: WebSession.csrfToken(forSession: session))
        if withProfile {
            let data = try JSONSerialization.data(withJSONObject: APIFixtures.profile(overrides))
            let profile = try await execute(
                uri: "/api/v1/profile", method: .put,
                headers: [.contentType: "application/json", .cookie: user.cookie, WebSession.csrfHeader: user.csrfToken],
                body: ByteBuffer(data: data)
            )
            #expect(profile.status == .created, "\(profile.text)")
        }
        return user
    }

    func mealPage(_ path: String, _ user: MealWebUser?) async throws -> TestResponse {
        try await execute(uri: path, method: .get, headers: user.map { [.cookie: $0.cookie] } ?? [:])
    }

    /// A form POST with the page's `_csrf` field.
    func mealSubmit(_ path: String, _ user: MealWebUser, _ fields: [String: String], csrf: Bool = true) async throws -> TestResponse {
        var all = fields
        if csrf { all["_csrf"] = user.csrfToken }
        let body = all.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&")
        return try await execute(
            uri: path, method: .post,
            headers: [.contentType: "application/x-www-form-urlencoded", .cookie: user.cookie], body: ByteBuffer(string: body)
        )
    }

    /// A JSON API call with the web session (cookie + CSRF header).
    func mealWebAPI(_ method: HTTPRequest.Method, _ path: String, _ user: MealWebUser, json: [String: Any]? = nil) async throws -> TestResponse {
        var headers: HTTPFields = [.cookie: user.cookie, WebSession.csrfHeader: user.csrfToken]
        var body: ByteBuffer?
        if let json {
            headers[.contentType] = "application/json"
            body = ByteBuffer(data: try JSONSerialization.data(withJSONObject: json))
        }
        return try await execute(uri: path, method: method, headers: headers, body: body)
    }
}

func mealCookieValue(_ name: String, in response: TestResponse) -> String? {
    for header in response.headers[values: .setCookie] {
        let pair = header.split(separator: ";").first.map(String.init) ?? ""
        if pair.hasPrefix("\(name)=") { return String(pair.dropFirst(name.count + 1)) }
    }
    return nil
}

func mealHiddenCSRF(in html: String) -> String? {
    guard let range = html.range(of: #"name="_csrf" value=""#) else { return nil }
    let rest = html[range.upperBound...]
    return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
}

@Suite("Web meal pages")
struct WebMealPagesTests {
    @Test("signed out, every meal page goes to the welcome screen; without a profile, to onboarding")
    func guards() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            for path in ["/meals/new", "/meals/today", "/meals/\(UUID().uuidString)/edit"] {
                let response = try await client.mealPage(path, nil)
                #expect(response.status == .seeOther, "\(path)")
                #expect(response.headers[.location] == "/", "\(path)")
            }
            let noProfile = try await client.mealWebUser(withProfile: false)
            let response = try await client.mealPage("/meals/new", noProfile)
            #expect(response.status == .seeOther)
            #expect(response.headers[.location] == "/onboarding/profile")
        }
    }

    @Test("Log Meal shows the eating window, search and the manual form with the user's CSRF token")
    func logPage() async throws {
        let t = try TestApp()  // 09:00 UTC: 10:00 in Berlin, 2 hours before the 12–18 window (grace)
        try await t.app.test(.router) { client in
            let user = try await client.mealWebUser()
            let page = try await client.mealPage("/meals/new", user)
            #expect(page.status == .ok)
            let html = page.text
            #expect(html.contains("Eating window: 12pm - 6pm"))
            #expect(html.contains("Close to your eating window"))
            #expect(html.contains(#"placeholder="Search for food...""#))
            #expect(html.contains("No results found — "))
            #expect(html.contains("Search unavailable — "))
            #expect(html.contains(#"data-calorie-message="Calories must be between 1-9999""#))
            // The slot picker (issue 17) names a manual meal as the chips did: one button per slot, in the reader's words.
            for (slot, label) in [("breakfast", "Breakfast"), ("lunch", "Lunch"), ("dinner", "Dinner"), ("snack", "Snack")] {
                #expect(html.contains(#"class="slot-picker__option" data-slot="\#(slot)" data-label="\#(label)""#))
            }
            #expect(mealHiddenCSRF(in: html) == user.csrfToken)
            #expect(html.contains(#"<meta name="csrf-token" content="\#(user.csrfToken)">"#))

            // 09:00 in UTC is 3 hours before the window: outside it and its grace.
            let utc = try await client.mealWebUser(["timeZone": "UTC"])
            #expect(try await client.mealPage("/meals/new", utc).text.contains("Outside your eating window right now. You can still log this meal."))
        }
    }

    @Test("today's meals: the empty state, then running totals and the meal after a manual save")
    func todaysMeals() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let user = try await client.mealWebUser()
            let target = try #require(number((try await client.mealWebAPI(.get, "/api/v1/dashboard", user).object()["targets"] as? [String: Any])?["calories"]))
            let targetText = WebFormat.grouped(target)

            let empty = try await client.mealPage("/meals/today", user).text
            #expect(empty.contains("No meals logged today. Tap Log Meal to start!"))
            #expect(empty.contains("0 / \(targetText) cal"))
            #expect(!empty.contains("😊") && !empty.contains("😞"), "no smileys before the first meal")

            // The manual form works without script: invalid calories come back with the message, nothing saved.
            for calories in ["0", "10000", ""] {
                let refused = try await client.mealSubmit("/meals/new", user, ["name": "Pasta", "calories": calories])
                #expect(refused.status == .unprocessableContent)
                #expect(refused.text.contains("Calories must be between 1-9999"))
                #expect(refused.text.contains(#"value="Pasta""#), "what was typed stays")
            }
            let saved = try await client.mealSubmit("/meals/new", user, ["name": "Pasta", "calories": "1250", "protein": "40", "carbs": ""])
            #expect(saved.status == .seeOther)
            let location = try #require(saved.headers[.location])
            #expect(location.hasPrefix("/meals/today?saved="))

            let today = try await client.mealPage(location, user).text
            #expect(today.contains(#"data-flash="Meal saved!""#))
            #expect(!today.contains("Eating outside your window"), "10:00 in Berlin is within the grace")
            #expect(today.contains("1,250 / \(targetText) cal"))
            #expect(today.contains("Pasta"))
            #expect(today.contains("10:00 AM"))
            #expect(today.contains("1,250 cal"))
            #expect(today.contains("Add Another Meal"))
            #expect(today.contains(#"aria-live="polite""#))
            // Protein 40 g of a goal above 80 g: under half, the sad smiley.
            #expect(today.contains("😞</span> <span class=\"meal-totals__label\">Protein</span> <strong>40g</strong>"))
            #expect(today.contains(#"<section class="meal-empty" id="meal-empty" hidden>"#), "the empty state is hidden")
        }
    }

    @Test("a meal outside the window and its grace is saved, with 000's gentle warning")
    func outsideWarning() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let user = try await client.mealWebUser(["timeZone": "UTC"])  // 09:00, window 12:00–18:00
            let saved = try await client.mealSubmit("/meals/new", user, ["calories": "300"])
            let location = try #require(saved.headers[.location])
            let today = try await client.mealPage(location, user).text
            #expect(today.contains("Eating outside your window (12pm-6pm)"))
            #expect(today.contains("Quick add"))
        }
    }

    @Test("newest first, with catalog meals as the server named and scaled them")
    func catalogMealsNewestFirst() async throws {
        let t = try TestApp(catalog: try await ServerCatalogDatabase.shared.value)
        try await t.app.test(.router) { client in
            let user = try await client.mealWebUser()
            let first = try await client.mealWebAPI(.post, "/api/v1/meals", user, json: ["foodId": "05062", "grams": 150])
            #expect(first.status == .created)
            t.clock.advance(seconds: 2 * 3_600)
            _ = try await client.mealWebAPI(.post, "/api/v1/meals", user, json: ["name": "Apple", "calories": 95])
            let today = try await client.mealPage("/meals/today", user).text
            let chicken = try #require(today.range(of: "Chicken, broiler or fryers, breast"))
            let apple = try #require(today.range(of: "Apple"))
            #expect(apple.lowerBound < chicken.lowerBound)
            #expect(today.contains("180 cal"))  // 120 kcal per 100 g × 1.5
            #expect(today.contains("275 / "))
        }
    }

    @Test("editing a manual meal: bad calories keep the form with the message; good ones save")
    func editManual() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let user = try await client.mealWebUser()
            let created = try await client.mealWebAPI(.post, "/api/v1/meals", user, json: ["name": "Soup", "calories": 320, "fat": 12])
            let id = try #require(try created.object()["id"] as? String)

            let form = try await client.mealPage("/meals/\(id)/edit", user)
            #expect(form.status == .ok)
            #expect(form.text.contains(#"value="Soup""#))
            #expect(form.text.contains(#"value="320""#))
            #expect(form.text.contains(#"value="12""#))
            #expect(form.text.contains("Discard meal?"))

            let refused = try await client.mealSubmit("/meals/\(id)/edit", user, ["name": "Soup", "calories": "10000", "fat": "12"])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("Calories must be between 1-9999"))
            #expect(refused.text.contains(#"value="10000""#))

            let saved = try await client.mealSubmit("/meals/\(id)/edit", user, ["name": "Tomato soup", "calories": "280", "fat": ""])
            #expect(saved.status == .seeOther)
            #expect(saved.headers[.location]?.hasPrefix("/meals/today?updated=") == true)
            let meal = try await client.mealWebAPI(.get, "/api/v1/meals", user).object()
            let stored = try #require((meal["meals"] as? [[String: Any]])?.first)
            #expect(stored["name"] as? String == "Tomato soup")
            #expect(number(stored["calories"]) == 280)
            #expect(stored["fat"] == nil, "an emptied macro is cleared")
        }
    }

    @Test("editing a catalog meal's amount rescales it from the food")
    func editCatalogAmount() async throws {
        let t = try TestApp(catalog: try await ServerCatalogDatabase.shared.value)
        try await t.app.test(.router) { client in
            let user = try await client.mealWebUser()
            let created = try await client.mealWebAPI(.post, "/api/v1/meals", user, json: ["foodId": "05062", "grams": 150])
            let id = try #require(try created.object()["id"] as? String)
            let form = try await client.mealPage("/meals/\(id)/edit", user).text
            #expect(form.contains(#"name="grams""#))
            #expect(form.contains(#"data-kcal="120.0""#))
            #expect(!form.contains(#"name="calories""#))
            let saved = try await client.mealSubmit("/meals/\(id)/edit", user, ["name": "", "grams": "300"])
            #expect(saved.status == .seeOther)
            let meal = try await client.mealWebAPI(.get, "/api/v1/meals", user).object()
            let stored = try #require((meal["meals"] as? [[String: Any]])?.first)
            #expect(number(stored["calories"]) == 360)
            #expect(number(stored["grams"]) == 300)
            #expect((stored["name"] as? String)?.hasPrefix("Chicken") == true)
        }
    }

    @Test("delete, undo, and no one else's meal")
    func deleteUndoAndScope() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let user = try await client.mealWebUser()
            let created = try await client.mealWebAPI(.post, "/api/v1/meals", user, json: ["name": "Toast", "calories": 180])
            let id = try #require(try created.object()["id"] as? String)

            let other = try await client.mealWebUser()
            #expect(try await client.mealPage("/meals/\(id)/edit", other).status == .notFound)
            #expect(try await client.mealSubmit("/meals/\(id)/delete", other, [:]).status == .notFound)
            #expect(try await client.mealSubmit("/meals/\(id)/delete", user, [:], csrf: false).status == .forbidden)

            let deleted = try await client.mealSubmit("/meals/\(id)/delete", user, [:])
            #expect(deleted.status == .seeOther)
            let location = try #require(deleted.headers[.location])
            let today = try await client.mealPage(location, user).text
            #expect(today.contains(#"data-flash="Meal deleted""#))
            #expect(today.contains(#"action="/meals/\#(id.lowercased())/restore""#))
            #expect(today.contains("No meals logged today. Tap Log Meal to start!"))
            #expect(try await client.mealPage("/meals/\(id)/edit", user).status == .notFound)

            let restored = try await client.mealSubmit("/meals/\(id)/restore", user, [:])
            #expect(restored.status == .seeOther)
            #expect(try await client.mealPage("/meals/today", user).text.contains("Toast"))
        }
    }
}
