import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietCore
@testable import WDietServer
import WDietTestSupport

extension TestClientProtocol {
    /// A page as a German browser asks for it (`Accept-Language: de-DE`).
    func germanMealPage(_ path: String, _ user: MealWebUser, language: String = "de-DE,de;q=0.9") async throws -> TestResponse {
        try await execute(uri: path, method: .get, headers: [.cookie: user.cookie, .acceptLanguage: language])
    }

    /// A form POST from a German browser, with the page's `_csrf` field.
    func germanMealSubmit(_ path: String, _ user: MealWebUser, _ fields: [String: String]) async throws -> TestResponse {
        var all = fields
        all["_csrf"] = user.csrfToken
        let body = all.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&")
        return try await execute(
            uri: path, method: .post,
            headers: [.contentType: "application/x-www-form-urlencoded", .cookie: user.cookie, .acceptLanguage: "de"],
            body: ByteBuffer(string: body)
        )
    }

    /// A JSON API call with the web session, in `language`.
    func mealAPI(
        _ method: HTTPRequest.Method, _ path: String, _ user: MealWebUser, language: String, json: [String: Any]? = nil
    ) async throws -> TestResponse {
        var headers: HTTPFields = [.cookie: user.cookie, WebSession.csrfHeader: user.csrfToken, .acceptLanguage: language]
        var body: ByteBuffer?
        if let json {
            headers[.contentType] = "application/json"
            body = ByteBuffer(data: try JSONSerialization.data(withJSONObject: json))
        }
        return try await execute(uri: path, method: method, headers: headers, body: body)
    }
}

/// Logging meals, today's meals, editing and food search in German (`Accept-Language: de`), and in English without it.
@Suite("Meals in German")
struct GermanMealsTests {
    @Test("Log Meal in German: the window on a 24-hour clock, German words, and the English catalog explained")
    func logPage() async throws {
        let t = try TestApp()  // 09:00 UTC: 10:00 in Berlin, 2 hours before the 12–18 window (grace)
        try await t.app.test(.router) { client in
            let user = try await client.mealWebUser()
            let html = try await client.germanMealPage("/meals/new", user).text
            #expect(html.contains(#"<html lang="de""#))
            #expect(html.contains("Essensfenster: 12:00–18:00"))
            #expect(html.contains("Knapp außerhalb deines Essensfensters: Diese Mahlzeit zählt noch als pünktlich."))
            #expect(html.contains(#"<h1 class="meal-topbar__title">Mahlzeit eintragen</h1>"#))
            #expect(html.contains(#"placeholder="Lebensmittel suchen …""#))
            #expect(html.contains("Die Lebensmittel sind auf Englisch benannt"))
            #expect(html.contains("Nichts gefunden – "))
            #expect(html.contains(#"data-calorie-message="Die Kalorien müssen zwischen 1 und 9999 liegen""#))
            #expect(html.contains(#"placeholder="Schnelleintrag""#))
            for (slot, label) in [("breakfast", "Frühstück"), ("lunch", "Mittagessen"), ("dinner", "Abendessen"), ("snack", "Snack")] {
                #expect(html.contains(#"class="slot-picker__option" data-slot="\#(slot)" data-label="\#(label)""#))
            }
            #expect(html.contains("Kalorien <span class=\"field__required\">(Pflichtfeld)</span>"))
            #expect(html.contains(#"id="manual-calories" name="calories" type="text" inputmode="decimal""#), "a decimal comma can be typed")
            #expect(html.contains("Mahlzeit verwerfen?"))
            #expect(!html.contains("Eating window"))

            // Without the header: English as before, and no word on the catalog's language.
            let english = try await client.mealPage("/meals/new", user).text
            #expect(english.contains("Eating window: 12pm - 6pm"))
            #expect(english.contains(#"placeholder="Search for food...""#))
            #expect(!english.contains("Food names are in English"))

            let utc = try await client.mealWebUser(["timeZone": "UTC"])  // 09:00: outside the window and its grace
            #expect(try await client.germanMealPage("/meals/new", utc).text.contains(
                "Du bist gerade außerhalb deines Essensfensters. Du kannst die Mahlzeit trotzdem eintragen."))
        }
    }

    @Test("a manual meal typed the German way (\"1.250\", \"40,5\"): saved as 1250 kcal and 40.5 g; today's meals in German")
    func manualMealAndToday() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let user = try await client.mealWebUser()
            let target = try #require(number((try await client.mealWebAPI(.get, "/api/v1/dashboard", user).object()["targets"] as? [String: Any])?["calories"]))
            let targetText = Strings.german.number(target)
            #expect(targetText.contains("."), "a target above 999 kcal, grouped the German way")

            let empty = try await client.germanMealPage("/meals/today", user).text
            #expect(empty.contains("Heute noch keine Mahlzeit eingetragen. Tippe auf „Mahlzeit eintragen“, um loszulegen!"))
            #expect(empty.contains("0 / \(targetText) kcal"))
            #expect(empty.contains(#"id="add-meal">Mahlzeit eintragen</a>"#))

            let refused = try await client.germanMealSubmit("/meals/new", user, ["name": "Nudeln", "calories": "0"])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("Die Kalorien müssen zwischen 1 und 9999 liegen"))
            #expect(refused.text.contains(#"value="Nudeln""#))

            let saved = try await client.germanMealSubmit("/meals/new", user, ["name": "Nudeln", "calories": "1.250", "protein": "40,5"])
            #expect(saved.status == .seeOther)
            let meals = try await client.mealWebAPI(.get, "/api/v1/meals", user).object()
            let stored = try #require((meals["meals"] as? [[String: Any]])?.first)
            #expect(number(stored["calories"]) == 1250)
            #expect(number(stored["protein"]) == 40.5)

            let today = try await client.germanMealPage(try #require(saved.headers[.location]), user).text
            #expect(today.contains(#"data-flash="Mahlzeit gespeichert!""#))
            #expect(today.contains("1.250 / \(targetText) kcal"))
            #expect(today.contains(#"<span class="meal-row__time">10:00</span>"#))
            #expect(today.contains(#"<span class="meal-row__kcal">1.250 kcal</span>"#))
            #expect(today.contains(#"aria-label="Nudeln, 10:00, 1.250 kcal. Bearbeiten""#))
            #expect(today.contains(#"aria-label="Nudeln löschen""#))
            #expect(today.contains(#"<span class="meal-totals__label">Eiweiß</span> <strong>41 g</strong>"#))
            #expect(today.contains("Tagessumme: 1.250 von \(targetText) Kalorien. Eiweiß 41 Gramm, niedrig."))
            #expect(today.contains("Heute 1 Mahlzeit eingetragen."))
            #expect(today.contains("Weitere Mahlzeit eintragen"))

            // The same day in English, unchanged.
            let english = try await client.mealPage("/meals/today", user).text
            #expect(english.contains("1,250 / \(WebFormat.grouped(target)) cal"))
            #expect(english.contains("10:00 AM"))
            #expect(english.contains("<strong>41g</strong>"))
            #expect(english.contains("Running totals: 1,250 of \(WebFormat.grouped(target)) calories. Protein 41 grams, low."))
            #expect(english.contains("1 meal logged today."))
        }
    }

    @Test("editing in German: values with a decimal comma, and a comma typed back is saved")
    func edit() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let user = try await client.mealWebUser()
            let created = try await client.mealWebAPI(.post, "/api/v1/meals", user, json: ["name": "Suppe", "calories": 320, "fat": 12.5])
            let id = try #require(try created.object()["id"] as? String)
            let form = try await client.germanMealPage("/meals/\(id)/edit", user).text
            #expect(form.contains(#"<h1 class="meal-topbar__title">Mahlzeit bearbeiten</h1>"#))
            #expect(form.contains("Eingetragen um 10:00"))
            #expect(form.contains(#"value="12,5""#))
            #expect(form.contains("Änderungen speichern"))
            #expect(form.contains("Mahlzeit löschen"))
            #expect(try await client.mealPage("/meals/\(id)/edit", user).text.contains(#"value="12.5""#), "English keeps the point")

            let saved = try await client.germanMealSubmit("/meals/\(id)/edit", user, ["name": "Suppe", "calories": "280,5", "fat": "9,5"])
            #expect(saved.status == .seeOther)
            let updated = try await client.germanMealPage(try #require(saved.headers[.location]), user).text
            #expect(updated.contains(#"data-flash="Mahlzeit aktualisiert""#))
            let meals = try await client.mealWebAPI(.get, "/api/v1/meals", user).object()
            let stored = try #require((meals["meals"] as? [[String: Any]])?.first)
            #expect(number(stored["calories"]) == 280.5)
            #expect(number(stored["fat"]) == 9.5)

            let deleted = try await client.germanMealSubmit("/meals/\(id)/delete", user, [:])
            let today = try await client.germanMealPage(try #require(deleted.headers[.location]), user).text
            #expect(today.contains(#"data-flash="Mahlzeit gelöscht""#))
            #expect(today.contains(#"class="link-button">Rückgängig</button>"#))
        }
    }

    @Test("the API's meal and food search messages in German, and in English without the header")
    func apiMessages() async throws {
        let t = try TestApp(catalog: try await ServerCatalogDatabase.shared.value)
        try await t.app.test(.router) { client in
            let user = try await client.mealWebUser(["timeZone": "UTC"])  // 09:00: outside the 12:00–18:00 window

            let refused = try await client.mealAPI(.post, "/api/v1/meals", user, language: "de", json: ["calories": 0, "grams": 10])
            #expect(refused.status == .unprocessableContent)
            let fields = try refused.errorDetail().fields ?? [:]
            #expect(fields["calories"] == "Die Kalorien müssen zwischen 1 und 9999 liegen")
            #expect(fields["grams"] == "Nur eine Mahlzeit aus der Lebensmitteldatenbank hat eine Menge")

            let portion = try await client.mealAPI(.post, "/api/v1/meals", user, language: "de", json: ["foodId": "05062", "portion": "1 Tasse"])
            #expect(try portion.errorDetail().fields?["portion"] == "Bitte wähle eine der Portionen dieses Lebensmittels")

            let outside = try await client.mealAPI(.post, "/api/v1/meals", user, language: "de", json: ["foodId": "05062", "grams": 150])
            #expect(outside.status == .created)
            let meal = try outside.object()
            #expect(meal["warning"] as? String == "Mahlzeit außerhalb deines Essensfensters (12:00–18:00)")
            #expect(meal["name"] as? String == "Chicken, broiler or fryers, breast, skinless, boneless, meat only, raw", "food names are data")
            let english = try await client.mealAPI(.get, "/api/v1/meals", user, language: "en").object()
            #expect((english["meals"] as? [[String: Any]])?.first?["warning"] as? String == "Eating outside your window (12pm-6pm)")

            let quickAdd = try await client.mealAPI(.post, "/api/v1/meals", user, language: "de", json: ["calories": 95])
            #expect(try quickAdd.object()["name"] as? String == "Schnelleintrag")

            let missing = try await client.mealAPI(.patch, "/api/v1/meals/\(UUID().uuidString)", user, language: "de", json: ["calories": 100])
            #expect(missing.status == .notFound)
            #expect(try missing.errorDetail().message == "Mahlzeit nicht gefunden")
            let missingInEnglish = try await client.mealAPI(.patch, "/api/v1/meals/\(UUID().uuidString)", user, language: "en", json: ["calories": 100])
            #expect(try missingInEnglish.errorDetail().message == "Meal not found")

            let search = try await client.mealAPI(.get, "/api/v1/foods/search?q=%20", user, language: "de")
            #expect(search.status == .badRequest)
            #expect(try search.errorDetail().message == "Gib ein, welches Lebensmittel du suchst.")
            let limit = try await client.mealAPI(.get, "/api/v1/foods/search?q=apple&limit=99", user, language: "de")
            #expect(try limit.errorDetail().message == "Das Limit muss eine ganze Zahl von 1 bis 50 sein.")
            let limitInEnglish = try await client.mealAPI(.get, "/api/v1/foods/search?q=apple&limit=99", user, language: "en")
            #expect(try limitInEnglish.errorDetail().message == "The limit must be a whole number from 1 to 50.")
            #expect(try limitInEnglish.errorDetail().fields?["limit"] == "Between 1 and 50")
        }
    }
}
