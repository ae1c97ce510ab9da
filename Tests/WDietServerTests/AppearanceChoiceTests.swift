import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietCore
@testable import WDietServer
import WDietStore
import WDietTestSupport

/// The theme a person chooses in Settings (issue 17 item 7, PRODUCT.md "appearance": Auto/Light/Dark, default
/// Auto): kept on the account, read with the session and written on every page's `<html>`, so the first paint is
/// in it; on SQLite and PostgreSQL.
@Suite("Appearance choice")
struct AppearanceChoiceTests {
    /// The checked option of the appearance form.
    static func checkedAppearance(_ html: String) -> String? {
        let pattern = #/name="appearance" value="([a-z]*)" checked/#
        return html.firstMatch(of: pattern).map { String($0.1) }
    }

    /// The `<html>` start tag and the color-scheme meta of a page.
    static func head(_ html: String) -> (html: String?, colorScheme: String?) {
        (html.firstMatch(of: #/<html[^>]*>/#).map { String($0.0) },
         html.firstMatch(of: #/<meta name="color-scheme" content="([^"]*)">/#).map { String($0.1) })
    }

    @Test("Auto at first; choosing Dark writes it on every page of every session at once; Auto again", arguments: StoreBackend.allCases)
    func choosingDarkAndBack(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            var browser = try await LanguageChoiceTests.browserWithProfile(client)
            let userId = try #require(try await browser.userId(t))
            let settings = try await browser.get("/settings").text
            #expect(settings.contains(#"<form method="post" action="/settings/appearance""#))
            #expect(settings.contains("<span>Auto</span>"))
            #expect(settings.contains("<span>Light</span>"))
            #expect(settings.contains("<span>Dark</span>"))
            #expect(Self.checkedAppearance(settings) == "")
            // Auto: no data-theme, the stylesheet follows the system.
            let auto = Self.head(try await browser.get("/dashboard").text)
            #expect(auto.html == #"<html lang="en">"#)
            #expect(auto.colorScheme == "light dark")

            let saved = try await browser.post("/settings/appearance", [("appearance", "dark")], csrf: browser.csrfToken)
            #expect(saved.status == .seeOther)
            #expect(saved.headers[.location] == "/settings?appearance=saved#appearance")
            #expect(try await t.services.accounts.appearance(userId: userId) == .dark)

            let after = try await browser.get("/settings?appearance=saved").text
            #expect(Self.checkedAppearance(after) == "dark")
            #expect(after.contains(#"data-toast="Appearance saved""#))
            let dark = Self.head(try await browser.get("/dashboard").text)
            #expect(dark.html == #"<html lang="en" data-theme="dark">"#)
            #expect(dark.colorScheme == "dark")

            _ = try await browser.post("/settings/appearance", [("appearance", "light")], csrf: browser.csrfToken)
            #expect(Self.head(try await browser.get("/progress").text).html == #"<html lang="en" data-theme="light">"#)

            _ = try await browser.post("/settings/appearance", [("appearance", "")], csrf: browser.csrfToken)
            #expect(try await t.services.accounts.appearance(userId: userId) == nil)
            #expect(Self.head(try await browser.get("/dashboard").text).html == #"<html lang="en">"#)
        }
    }

    @Test("the form refuses a theme it does not offer (in the page's language), and a post without the CSRF token")
    func theFormRefuses() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            var browser = try await LanguageChoiceTests.browserWithProfile(client)
            let userId = try #require(try await browser.userId(t))
            let unknown = try await browser.post("/settings/appearance", [("appearance", "sepia")], csrf: browser.csrfToken)
            #expect(unknown.status == .unprocessableContent)
            #expect(unknown.text.contains(#"id="appearance-error" role="alert">Please choose Auto, Light or Dark.</p>"#))
            let german = try await browser.post(
                "/settings/appearance", [("appearance", "sepia")], csrf: browser.csrfToken, headers: LanguageChoiceTests.german)
            #expect(german.text.contains("Bitte wähle Automatisch, Hell oder Dunkel."))
            #expect(try await browser.post("/settings/appearance", [("appearance", "dark")], csrf: nil).status == .forbidden)
            #expect(try await t.services.accounts.appearance(userId: userId) == nil)
        }
    }

    @Test("the API: GET and PUT /api/v1/settings/appearance", arguments: StoreBackend.allCases)
    func theAPI(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInWithProfile()
            let read = try await client.api(.get, "/api/v1/settings/appearance", session)
            #expect(read.status == .ok)
            #expect(read.text == #"{"appearance":null}"#)

            let unknown = try await client.api(.put, "/api/v1/settings/appearance", session, body: #"{"appearance":"sepia"}"#)
            #expect(unknown.status == .unprocessableContent)
            #expect(try unknown.errorDetail().fields == ["appearance": "Please choose Auto, Light or Dark."])
            #expect(try await client.api(.put, "/api/v1/settings/appearance", session, body: "{}").status == .unprocessableContent)
            #expect(try await client.api(.put, "/api/v1/settings/appearance", session, body: #"{"appearance":""}"#).status == .unprocessableContent)
            #expect(try await client.api(.put, "/api/v1/settings/appearance", session, body: #"{"appearance":1}"#).status == .badRequest)
            #expect(try await client.api(.put, "/api/v1/settings/appearance", nil, body: #"{"appearance":"dark"}"#).status == .unauthorized)

            let chosen = try await client.api(.put, "/api/v1/settings/appearance", session, body: #"{"appearance":"dark"}"#)
            #expect(chosen.text == #"{"appearance":"dark"}"#)
            #expect(try await t.services.accounts.appearance(userId: session.userId) == .dark)
            #expect(try await client.api(.get, "/api/v1/settings/appearance", session).text == #"{"appearance":"dark"}"#)
            let cleared = try await client.api(.put, "/api/v1/settings/appearance", session, body: #"{"appearance":null}"#)
            #expect(cleared.text == #"{"appearance":null}"#)
            #expect(try await t.services.accounts.appearance(userId: session.userId) == nil)
        }
    }
}
