import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietCore
@testable import WDietServer
import WDietTestSupport

/// The profile editor (001) and its API in German (`Accept-Language: de`), and in English without the header.
@Suite("Profile in German")
struct GermanProfileTests {
    static let german = "de-DE,de;q=0.9,en;q=0.8"

    /// `/profile` as a German browser asks for it.
    static func germanPage(_ client: some TestClientProtocol, _ session: WebDashboardSession, _ path: String = "/profile") async throws -> String {
        try await client.execute(uri: path, method: .get, headers: [.cookie: session.cookie, .acceptLanguage: german]).text
    }

    /// A JSON call of the page's script from a German browser.
    static func germanAPI(
        _ client: some TestClientProtocol, _ session: WebDashboardSession, _ method: HTTPRequest.Method, _ path: String,
        json: [String: Any]? = nil
    ) async throws -> TestResponse {
        var headers: HTTPFields = [.cookie: session.cookie, WebSession.csrfHeader: session.csrf, .acceptLanguage: german]
        var body: ByteBuffer?
        if let json {
            headers[.contentType] = "application/json"
            body = ByteBuffer(data: try JSONSerialization.data(withJSONObject: json))
        }
        return try await client.execute(uri: path, method: method, headers: headers, body: body)
    }

    @Test("the editor in German: sections, fields, activity levels with a decimal comma, German suggestions")
    func page() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await WebDashboardSession.withProfile(client, ["dietaryPreferences": ["Vegetarisch"], "mealsPerDay": 4, "targetWeightKg": 75.5])
            let html = try await Self.germanPage(client, session)
            #expect(html.contains(#"<html lang="de""#))
            #expect(html.contains("<title>Profil bearbeiten · w-diet</title>"))
            #expect(html.contains("<h1>Profil bearbeiten</h1>"))
            for title in [">Über dich<", ">Aktueller Stand<", ">Dein Ziel<", ">Aktivität &amp; Alltag<", ">Ernährung &amp; Vorlieben<", ">Aktuelle Ziele<"] {
                #expect(html.contains(title), "\(title)")
            }
            #expect(html.components(separatedBy: "🔄 Beeinflusst deinen Plan</span>").count - 1 == 4)
            #expect(html.contains("<span>Männlich</span>") && html.contains("<span>Weiblich</span>") && html.contains("<span>Divers</span>"))
            // 180 cm = 5 ft 10.9 in, written with a decimal comma; the target weight too.
            #expect(html.contains(#"id="height-in" type="text" inputmode="decimal" value="10,9""#))
            #expect(html.contains(#"id="target-weight" type="text" inputmode="decimal" value="75,5""#))
            #expect(html.contains(#"<span data-target-unit-copy>Dein Zielgewicht in kg.</span>"#))
            #expect(html.contains("<strong>Mäßig aktiv</strong><span>Moderater Sport an 3–5 Tagen/Woche</span><span class=\"profile__multiplier\">(Grundumsatz × 1,55)</span>"))
            #expect(html.contains("<strong>Leicht aktiv</strong><span>Leichter Sport an 1–3 Tagen/Woche</span><span class=\"profile__multiplier\">(Grundumsatz × 1,375)</span>"))
            #expect(html.contains(#"<option value="lose" selected>Abnehmen</option>"#))
            #expect(html.contains(#"data-suggestion="Glutenfrei""#) && html.contains(#"data-suggestion="Erdnüsse""#))
            #expect(html.contains(#"data-tag="Vegetarisch" aria-label="Vegetarisch. Entfernen""#))
            #expect(html.contains(#"aria-valuetext="4 Mahlzeiten pro Tag""#))
            #expect(html.contains("Ernährungsweise und Vorlieben beim Essen."))
            #expect(html.contains(#"placeholder="z. B. nicht-binär""#))
            #expect(html.contains(">Änderungen speichern</button>"))
            #expect(html.contains("Wenn du unsicher bist, wähle „Mäßig aktiv“"))
            for english in ["Edit Profile", "About You", "Affects your plan", "Moderately Active", "Save Changes", "Vegetarian"] {
                #expect(!html.contains(english), "\(english)")
            }
        }
    }

    @Test("Current Targets in German: thousands with a point, kcal/Tag, and a waiting change dated the German way")
    func targets() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await WebDashboardSession.withProfile(client)
            let before = try await Self.germanPage(client, session)
            // BMR 1,780 and TDEE 2,759 kcal, water 2,800 ml (as WebProfilePageTests), grouped with a point.
            #expect(before.contains("<span data-target-value>1.780</span> kcal/Tag"))
            #expect(before.contains("<span data-target-value>2.759</span> kcal/Tag"))
            #expect(before.contains("<span data-target-value>2.800</span> ml"))
            #expect(before.contains(#"<span class="profile__target-label">Grundumsatz</span>"#))
            #expect(before.contains("Berechnet aus: Grundumsatz × Faktor deines Aktivitätslevels"))
            #expect(before.contains("• Abnehmen: 2,0 g pro kg (Muskeln erhalten)"))

            let saved = try await Self.germanAPI(client, session, .put, "/api/v1/profile", json: APIFixtures.profile(["weightKg": "82,5"]))
            #expect(saved.status == .ok)
            let message = try #require(((try saved.object())["pendingChange"] as? [String: Any])?["message"] as? String)
            #expect(message == "Dein Plan wird morgen um Mitternacht aktualisiert (Mo., 2. März)")
            let html = try await Self.germanPage(client, session)
            #expect(html.contains("Dein Plan wird morgen um Mitternacht aktualisiert (Mo., 2. März)"))
            #expect(html.contains("→ 2.888 ml ab Mo., 2. März (+88)"))
            #expect(html.contains("→ 1.805 kcal/Tag ab Mo., 2. März (+25)"))
            #expect(html.contains(#"id="weight" type="text" inputmode="decimal" value="82,5""#))

            // The same page without the header: English, exactly as before.
            let english = try await session.get(client, "/profile").text
            #expect(english.contains("→ 2,888 ml from Mon 2 Mar (+88)"))
            #expect(english.contains("<span data-target-value>1,780</span> kcal/day"))
            #expect(english.contains(#"id="weight" type="text" inputmode="decimal" value="82.5""#))
            #expect(english.contains("<title>Edit Profile · w-diet</title>"))
            #expect(english.contains("(1.375× BMR multiplier)"))
        }
    }

    @Test("the API's validation messages in German, under the same members; English without the header")
    func validation() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await WebDashboardSession.withProfile(client)
            let body = APIFixtures.profile(["weightKg": "500,1", "targetDate": "2026-03-01", "sex": NSNull(), "mealsPerDay": 2.5, "weightUnit": "stone"])
            let german = try await Self.germanAPI(client, session, .put, "/api/v1/profile", json: body)
            #expect(german.status == .unprocessableContent)
            #expect(try german.errorDetail().fields == [
                "weightKg": "Das Gewicht muss unter 500 kg liegen",
                "targetDate": "Das Zieldatum muss in der Zukunft liegen",
                "sex": "Bitte wähle dein Geschlecht",
                "mealsPerDay": "Bitte gib eine ganze Zahl ein",
                "weightUnit": "Bitte wähle kg oder lb",
            ])
            let english = try await session.api(client, .put, "/api/v1/profile", json: body)
            #expect(try english.errorDetail().fields == [
                "weightKg": "Weight must be less than 500 kg (1102 lbs)",
                "targetDate": "Target date must be in the future",
                "sex": "Please select your gender",
                "mealsPerDay": "Please enter a whole number",
                "weightUnit": "Please choose kg or lb",
            ])
        }
    }

    @Test("the preview takes \"82,5\" and answers when the change applies, in German")
    func preview() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await WebDashboardSession.withProfile(client)
            let answer = try await Self.germanAPI(client, session, .get, "/api/v1/profile/preview?weightKg=82%2C5")
            #expect(answer.status == .ok)
            let object = try answer.object()
            #expect(object["message"] as? String == "Dein Plan wird morgen um Mitternacht aktualisiert (Mo., 2. März)")
            #expect(number((object["difference"] as? [String: Any])?["waterMl"]) == 88)
            let unknown = try await Self.germanAPI(client, session, .get, "/api/v1/profile/preview?color=blue")
            #expect(unknown.status == .badRequest)
            #expect(try unknown.errorDetail().message == "Die Vorschau enthält unbekannte Parameter.")
        }
    }

    @Test("no profile yet: 001 §8's screen in German")
    func empty() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await WebDashboardSession.guest(client)
            let html = try await Self.germanPage(client, session)
            #expect(html.contains("<title>Vervollständige dein Profil · w-diet</title>"))
            #expect(html.contains(#"<h1 id="profile-empty-title">Vervollständige dein Profil</h1>"#))
            #expect(html.contains("Das dauert etwa 2–3 Minuten."))
            #expect(html.contains(#"href="/onboarding/profile">Los geht’s</a>"#))
        }
    }

    @Test("every message of the rules script is a catalog key the API also answers with, and German has each")
    func scriptMessagesAreKeys() {
        let script = ProfileValidationMessagesTests.rulesScript
        let keys = CatalogScan.scriptKeys(script)
        #expect(keys.count == 22)
        for key in keys {
            #expect(key.hasPrefix("profile."))
            #expect(Strings.german.has(key) && Strings.english.has(key), "\(key)")
            #expect(Strings.german(key) != Strings.english(key), "\(key) is translated")
        }
        // The server's own messages come from the same keys.
        let messages = Strings.$current.withValue(.german) { ProfileValidator.Message.genderDescriptionNotOther }
        #expect(messages == Strings.german("profile.genderDescriptionNotOther"))
        #expect(messages == "Eine Beschreibung des Geschlechts ist nur bei „Divers“ möglich")
    }
}
