import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietCore
@testable import WDietServer
import WDietStore
import WDietTestSupport

/// The language a person chooses in Settings (issue 16: "The language follows the account's setting, else the
/// browser's Accept-Language; Settings lets a person choose"): saved on the account, read with the session, applied
/// to pages and API messages, and cleared back to the browser's, on SQLite and PostgreSQL.
@Suite("Language choice")
struct LanguageChoiceTests {
    static let german: HTTPFields = [.acceptLanguage: "de-DE,de;q=0.9,en;q=0.8"]
    static let english: HTTPFields = [.acceptLanguage: "en-GB,en;q=0.9"]

    /// A browser with a guest that has a profile (eating 12:00–18:00, UTC).
    static func browserWithProfile(_ client: any TestClientProtocol) async throws -> TestBrowser {
        var browser = TestBrowser(client)
        _ = try await browser.startGuest()
        let csrf = try #require(browser.csrfToken)
        #expect(try await browser.api(.put, "/api/v1/profile", json: WebSessionTests.profileJSON, csrf: csrf).status == .created)
        return browser
    }

    /// The checked option of the language form.
    static func checkedLanguage(_ html: String) -> String? {
        let pattern = #/name="language" value="([a-z]*)" checked/#
        return html.firstMatch(of: pattern).map { String($0.1) }
    }

    @Test("Settings offers Automatic and each language in its own name, Automatic chosen at first", arguments: StoreBackend.allCases)
    func theChoiceOnTheSettingsPage(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { _, client in
            var browser = try await Self.browserWithProfile(client)
            let html = try await browser.get("/settings").text
            #expect(html.contains(#"<form method="post" action="/settings/language""#))
            #expect(html.contains(#"<span lang="en">Automatic (browser)</span>"#))
            #expect(html.contains(#"<span lang="en">English</span>"#))
            #expect(html.contains(#"<span lang="de">Deutsch</span>"#))
            #expect(Self.checkedLanguage(html) == "")

            // In German the automatic choice is German; the languages keep their own names.
            let german = try await browser.send(.get, "/settings", headers: Self.german).text
            #expect(german.contains(#"<span lang="de">Automatisch (Browser)</span>"#))
            #expect(german.contains(#"<span lang="en">English</span>"#))
            #expect(german.contains(#"<span lang="de">Deutsch</span>"#))
        }
    }

    @Test("choosing Deutsch: every page is German whatever the browser asks, until Automatic again", arguments: StoreBackend.allCases)
    func choosingGermanAndBack(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            var browser = try await Self.browserWithProfile(client)
            let userId = try #require(try await browser.userId(t))
            // Read once so that (on SQLite) the session is remembered: the choice must still apply at once.
            #expect(try await browser.get("/dashboard").headers[.contentLanguage] == "en")

            let saved = try await browser.post("/settings/language", [("language", "de")], csrf: browser.csrfToken)
            #expect(saved.status == .seeOther)
            #expect(saved.headers[.location] == "/settings?language=saved#language")
            #expect(try await t.services.accounts.language(userId: userId) == .german)

            let settings = try await browser.send(.get, "/settings?language=saved", headers: Self.english)
            #expect(settings.headers[.contentLanguage] == "de")
            #expect(settings.text.contains(#"<html lang="de">"#))
            #expect(settings.text.contains("<title>Einstellungen · w-diet</title>"))
            #expect(settings.text.contains(#"data-toast="Sprache gespeichert""#))
            #expect(Self.checkedLanguage(settings.text) == "de")
            // Other pages too, and without any Accept-Language.
            let dashboard = try await browser.get("/dashboard")
            #expect(dashboard.headers[.contentLanguage] == "de")
            #expect(dashboard.text.contains(#"<html lang="de">"#))
            #expect(dashboard.text.contains("Zum Inhalt springen"))
            // The page's scripts get the German catalog.
            #expect(dashboard.text.contains(#"<script src="/strings/\#(StringsScript.name(for: .german)).js" defer></script>"#))

            // English, chosen explicitly, wins over a German browser.
            _ = try await browser.post("/settings/language", [("language", "en")], csrf: browser.csrfToken)
            let english = try await browser.send(.get, "/settings", headers: Self.german)
            #expect(english.headers[.contentLanguage] == "en")
            #expect(english.text.contains("<h1 class=\"settings__title\">Settings</h1>"))
            #expect(Self.checkedLanguage(english.text) == "en")

            // Automatic: the browser decides again.
            _ = try await browser.post("/settings/language", [("language", "")], csrf: browser.csrfToken)
            #expect(try await t.services.accounts.language(userId: userId) == nil)
            let automaticGerman = try await browser.send(.get, "/settings", headers: Self.german)
            #expect(automaticGerman.headers[.contentLanguage] == "de")
            #expect(Self.checkedLanguage(automaticGerman.text) == "")
            let automaticEnglish = try await browser.get("/settings")
            #expect(automaticEnglish.headers[.contentLanguage] == "en")
            #expect(automaticEnglish.text.contains(#"<html lang="en">"#))
        }
    }

    @Test("the form refuses a language it does not offer, and a post without the page's CSRF token")
    func theFormRefuses() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            var browser = try await Self.browserWithProfile(client)
            let userId = try #require(try await browser.userId(t))
            let unknown = try await browser.post("/settings/language", [("language", "fr")], csrf: browser.csrfToken)
            #expect(unknown.status == .unprocessableContent)
            #expect(unknown.text.contains(#"id="language-error" role="alert">Please choose one of the languages offered.</p>"#))
            let unknownGerman = try await browser.post("/settings/language", [("language", "xx")], csrf: browser.csrfToken, headers: Self.german)
            #expect(unknownGerman.text.contains("Bitte wähle eine der angebotenen Sprachen."))

            #expect(try await browser.post("/settings/language", [("language", "de")], csrf: nil).status == .forbidden)
            #expect(try await t.services.accounts.language(userId: userId) == nil)
        }
    }

    @Test("the API: GET and PUT /api/v1/settings/language, and its messages in the chosen language", arguments: StoreBackend.allCases)
    func theAPI(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInWithProfile()
            let read = try await client.api(.get, "/api/v1/settings/language", session)
            #expect(read.status == .ok)
            #expect(read.text == #"{"language":null}"#)

            let unknown = try await client.api(.put, "/api/v1/settings/language", session, body: #"{"language":"fr"}"#)
            #expect(unknown.status == .unprocessableContent)
            #expect(try unknown.errorDetail().message == "Please choose one of the languages offered.")
            #expect(try unknown.errorDetail().fields == ["language": "Please choose one of the languages offered."])
            #expect(try await client.api(.put, "/api/v1/settings/language", session, body: "{}").status == .unprocessableContent)
            #expect(try await client.api(.put, "/api/v1/settings/language", session, body: #"{"language":""}"#).status == .unprocessableContent)
            #expect(try await client.api(.put, "/api/v1/settings/language", session, body: #"{"language":7}"#).status == .badRequest)
            #expect(try await client.api(.put, "/api/v1/settings/language", nil, body: #"{"language":"de"}"#).status == .unauthorized)

            let chosen = try await client.api(.put, "/api/v1/settings/language", session, body: #"{"language":"de"}"#)
            #expect(chosen.status == .ok)
            #expect(chosen.text == #"{"language":"de"}"#)
            #expect(try await t.services.accounts.language(userId: session.userId) == .german)
            #expect(try await client.api(.get, "/api/v1/settings/language", session).text == #"{"language":"de"}"#)

            // Messages now come in German, though the client sends no Accept-Language (or an English one).
            let refused = try await client.execute(
                uri: "/api/v1/settings/language", method: .put,
                headers: [.authorization: "Bearer \(session.token)", .contentType: "application/json", .acceptLanguage: "en"],
                body: ByteBuffer(string: #"{"language":"fr"}"#))
            #expect(try refused.errorDetail().message == "Bitte wähle eine der angebotenen Sprachen.")
            #expect(refused.headers[.contentLanguage] == "de")
            let plan = try await client.api(.get, "/api/v1/plan", session)
            #expect(plan.headers[.contentLanguage] == "de")

            // null: back to the client's Accept-Language.
            let cleared = try await client.api(.put, "/api/v1/settings/language", session, body: #"{"language":null}"#)
            #expect(cleared.text == #"{"language":null}"#)
            let english = try await client.api(.put, "/api/v1/settings/language", session, body: #"{"language":"fr"}"#)
            #expect(try english.errorDetail().message == "Please choose one of the languages offered.")
            #expect(english.headers[.contentLanguage] == "en")
        }
    }

    @Test("every error a handler throws is in the account's language; a path that is no route still finds its file")
    func errorsOfEveryKindInTheChosenLanguage() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let ana = try await client.register("ana@example.com")
            #expect(try await client.send(.put, "/api/v1/settings/language", body: #"{"language":"de"}"#, token: ana.token).status == .ok)
            let english: HTTPFields = [.acceptLanguage: "en"]

            // An account's refusal (no HTTP in it) and a store's "not found", answered in German.
            let wrong = try await client.send(
                .post, "/api/v1/auth/password", body: #"{"currentPassword":"wrong horse","newPassword":"battery staple"}"#,
                token: ana.token, headers: english)
            #expect(wrong.status == .unauthorized)
            #expect(try wrong.errorDetail().code == "invalid_credentials")
            #expect(try wrong.errorDetail().message == "Dein aktuelles Passwort ist falsch")
            #expect(wrong.headers[.contentLanguage] == "de")
            let missing = try await client.send(
                .delete, "/api/v1/meals/\(UUID().uuidString.lowercased())", token: ana.token, headers: english)
            #expect(missing.status == .notFound)
            #expect(try missing.errorDetail().message == "Mahlzeit nicht gefunden")
            #expect(missing.headers[.contentLanguage] == "de")

            // The router's "no such route" goes on to the static files, and past them is the "not found" of anyone.
            let script = try await client.send(.get, "/assets/js/settings.js", token: ana.token, headers: english)
            #expect(script.status == .ok)
            let nowhere = try await client.send(.get, "/api/v1/nowhere", token: ana.token, headers: english)
            #expect(nowhere.status == .notFound)
            #expect(try nowhere.errorDetail().code == "http_404")
        }
    }

    @Test("a choice made on one device applies at once to the user's other sessions, though this process remembered them")
    func everySessionOfTheUser() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let phone = try await client.register("ana@example.com")
            let laptop = try await client.login("ana@example.com").json(SignedInBody.self)
            let ben = try await client.register("ben@example.com")
            // Both of Ana's sessions and Ben's are remembered now (the test clock stands still).
            for token in [phone.token, laptop.token, ben.token] { #expect(try await client.me(token).status == .ok) }

            let chosen = try await client.send(.put, "/api/v1/settings/language", body: #"{"language":"de"}"#, token: phone.token)
            #expect(chosen.status == .ok)
            let refused = try await client.send(.put, "/api/v1/settings/language", body: #"{"language":"xx"}"#, token: laptop.token)
            #expect(try refused.errorDetail().message == "Bitte wähle eine der angebotenen Sprachen.")
            let bens = try await client.send(.put, "/api/v1/settings/language", body: #"{"language":"xx"}"#, token: ben.token)
            #expect(try bens.errorDetail().message == "Please choose one of the languages offered.")
        }
    }

    @Test("the session cache remembers the language read with the session")
    func sessionCacheKeepsTheLanguage() {
        let cache = SessionCache()
        let now = Fixtures.utc("2026-03-01T09:00:00Z")
        let userId = UUID()
        let session = AccountSession(
            tokenHash: "h", userId: userId, kind: .web, createdAt: now, expiresAt: now.addingTimeInterval(3_600), lastUsedAt: now,
            language: .german)
        cache.remember(tokenHash: "h", session: session, at: now)
        #expect(cache.entry(tokenHash: "h", at: now)?.language == .german)
        cache.forget(userId: userId)
        #expect(cache.entry(tokenHash: "h", at: now) == nil)
    }

    @Test("Strings.withAccountLanguage: a choice wins, none keeps the browser's language")
    func withAccountLanguage() async {
        let seen = await Strings.$current.withValue(.german) {
            await Strings.withAccountLanguage(nil) { Strings.current.language }
        }
        #expect(seen == .german)
        let chosen = await Strings.$current.withValue(.german) {
            await Strings.withAccountLanguage(.english) { Strings.current.language }
        }
        #expect(chosen == .english)
    }
}
