import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietCore
@testable import WDietServer
import WDietTestSupport

/// Settings and the shared layout in German for a browser that asks for it (`Accept-Language: de`), and in English,
/// unchanged, for one that does not.
@Suite("German: Settings and the layout")
struct GermanSettingsTests {
    static let german: HTTPFields = [.acceptLanguage: "de-DE,de;q=0.9,en;q=0.8"]

    @Test("Settings in German: the words, the eating window on the 24-hour clock, the toasts and the deletion dialog")
    func settingsInGerman() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            var browser = TestBrowser(client)
            _ = try await browser.startGuest()
            let csrf = try #require(browser.csrfToken)
            let profile = #"{"dateOfBirth":"1995-06-15","sex":"female","heightCm":165,"weightKg":70,"goal":"lose","activity":"light","timeZone":"Europe/Berlin","eatingWindowStart":"10:30"}"#
            #expect(try await browser.api(.put, "/api/v1/profile", json: profile, csrf: csrf).status == .created)

            let page = try await browser.send(.get, "/settings", headers: Self.german)
            #expect(page.status == .ok)
            #expect(page.headers[.contentLanguage] == "de")
            let html = page.text
            #expect(html.contains(#"<html lang="de">"#))
            #expect(html.contains("<title>Einstellungen · w-diet</title>"))
            #expect(html.contains(#"<h1 class="settings__title">Einstellungen</h1>"#))
            #expect(html.contains("Profil bearbeiten"))
            // The window as the coach writes it in German (its own catalog's format), on the 24-hour clock.
            #expect(html.contains(#"Essensfenster: <strong id="window-range">10:30–16:30"#))
            #expect(html.contains(#"<option value="10:30" selected>10:30–16:30"#))
            #expect(html.contains(#"<option value="00:00">00:00–06:00"#))
            #expect(html.contains(#"<option value="Europe/Berlin" selected>Europe/Berlin (GMT+01:00)</option>"#))
            #expect(html.contains("Änderungen speichern"))
            #expect(html.contains("Du nutzt w-diet ohne Konto."))
            #expect(html.contains("E-Mail und Passwort hinzufügen"))
            #expect(html.contains("Meine Daten exportieren (JSON)"))
            #expect(html.contains("Damit werden dein Konto, dein Profil,"))
            #expect(html.contains("<strong>Das lässt sich nicht rückgängig machen.</strong>"))
            #expect(html.contains("Trotzdem abmelden"))
            #expect(html.contains(##"<a class="skip-link" href="#main">Zum Inhalt springen</a>"##))
            // No English left on the page's own words.
            for english in ["Settings", "Save Changes", "Eating window", "Log Out", "Delete Account", "Cancel", "12pm"] {
                #expect(!html.contains(">\(english)"), "\(english)")
            }

            // With an account: its toast, its email in the deletion dialog, the password form.
            _ = try await browser.post("/settings/account", [("email", "ana@example.com"), ("password", "correct horse")], csrf: csrf)
            let created = try await browser.send(.get, "/settings?account=created", headers: Self.german).text
            #expect(created.contains(#"data-toast="Konto erstellt. Dein Fortschritt ist gespeichert.""#))
            #expect(created.contains(#"Angemeldet als <strong id="account-email">ana@example.com</strong>"#))
            #expect(created.contains("Damit werden dein Konto (ana@example.com), dein Profil,"))
            #expect(created.contains("Passwort ändern"))
        }
    }

    @Test("without Accept-Language, Settings reads as before")
    func settingsInEnglish() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            var browser = TestBrowser(client)
            _ = try await browser.startGuest()
            let csrf = try #require(browser.csrfToken)
            #expect(try await browser.api(.put, "/api/v1/profile", json: WebSessionTests.profileJSON, csrf: csrf).status == .created)
            let page = try await browser.get("/settings")
            #expect(page.headers[.contentLanguage] == "en")
            let html = page.text
            #expect(html.contains("<title>Settings · w-diet</title>"))
            #expect(html.contains(#"Eating window: <strong id="window-range">12pm - 6pm</strong>"#))
            #expect(html.contains("This deletes your account, your profile, every meal and weight you&#39;ve logged"))
            #expect(html.contains("<strong>This cannot be undone.</strong>"))
            #expect(html.contains("Save Changes"))
            #expect(html.contains("You&#39;re using w-diet without an account."))
        }
    }

    @Test("every settings key is in both languages, and the German differs where English words would show")
    func catalog() {
        for key in ["settings.title", "settings.saveChanges", "settings.language", "settings.languageAutomatic", "common.appName"] {
            #expect(Strings.english.has(key) && Strings.german.has(key), "\(key)")
        }
        #expect(Strings.german("settings.savedWithNotice", ["notice": "X"]) == "Einstellungen gespeichert. X")
        #expect(Strings.german("common.appName") == "w-diet")
    }
}
