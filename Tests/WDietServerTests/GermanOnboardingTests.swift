import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietCore
@testable import WDietServer

/// The welcome screen, onboarding, sign-in and the auth API's messages in German for a browser that asks for it
/// (`Accept-Language: de`), and in English, unchanged, for one that does not.
@Suite("German: welcome, onboarding, sign-in and auth messages")
struct GermanOnboardingTests {
    static let german: HTTPFields = [.acceptLanguage: "de-DE,de;q=0.9,en;q=0.8"]

    @Test("the welcome screen: German copy, the food count as 8.789, the deleted-account toast")
    func welcome() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            var browser = TestBrowser(client)
            let page = try await browser.send(.get, "/", headers: Self.german)
            #expect(page.status == .ok)
            #expect(page.headers[.contentLanguage] == "de")
            let html = page.text
            #expect(html.contains(#"<html lang="de">"#))
            #expect(html.contains(#"<h1 id="welcome-title">Lerne deinen Feuer-Coach kennen 🔥</h1>"#))
            #expect(html.contains("<li>Trag eine Mahlzeit in Sekunden ein – aus 8.789 USDA-Lebensmitteln oder einfach nur die Kalorien.</li>"))
            #expect(html.contains(#"<a class="button button--primary" href="/onboarding">Los geht’s</a>"#))
            #expect(html.contains(#"aria-label="Feuer-Coach, entspannt""#))
            #expect(!html.contains("Get Started"))

            let deleted = try await browser.send(.get, "/?account=deleted", headers: Self.german)
            #expect(deleted.text.contains(#"data-page-toast="Dein Konto und alle deine Daten wurden gelöscht.""#))

            let english = try await browser.get("/?account=deleted")
            #expect(english.text.contains(#"<html lang="en">"#))
            #expect(english.text.contains("<li>Log a meal in seconds from 8,789 USDA foods, or just the calories.</li>"))
            #expect(english.text.contains(">Get Started</a>"))
            #expect(english.text.contains(#"data-page-toast="Your account and all your data have been deleted.""#))
        }
    }

    @Test("the account step: German labels, and the form's errors in German")
    func accountStep() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            var browser = TestBrowser(client)
            let page = try await browser.send(.get, "/onboarding", headers: Self.german)
            let html = page.text
            #expect(html.contains("<title>Konto erstellen · "))
            #expect(html.contains(#"<h1 id="account-title">Sichere deinen Fortschritt</h1>"#))
            #expect(html.contains(#"<label for="password">Passwort</label>"#))
            #expect(html.contains(#"<button class="button button--secondary" type="submit">Ohne Konto weiter</button>"#))
            #expect(html.contains(#"<a href="/login">Ich habe schon ein Konto</a>"#))

            let csrf = browser.cookies[WebSession.preSessionCookie]
            let invalid = try await browser.post("/onboarding/account", [("email", "ana"), ("password", "kurz")], csrf: csrf, headers: Self.german)
            #expect(invalid.status == .unprocessableContent)
            #expect(invalid.text.contains("Bitte gib eine gültige E-Mail-Adresse ein (z. B. du@example.com)"))
            #expect(invalid.text.contains("Das Passwort muss mindestens 8 Zeichen lang sein"))

            let common = try await browser.post(
                "/onboarding/account", [("email", "ana@example.com"), ("password", "password123")],
                csrf: browser.cookies[WebSession.preSessionCookie], headers: Self.german
            )
            #expect(common.text.contains("Dieses Passwort gehört zu den häufigsten und ist leicht zu erraten."))

            let english = try await browser.post(
                "/onboarding/account", [("email", "ana"), ("password", "x")], csrf: browser.cookies[WebSession.preSessionCookie]
            )
            #expect(english.text.contains("Please enter a valid email address (e.g., you@example.com)"))
            #expect(english.text.contains("Password must be at least 8 characters"))
        }
    }

    @Test("the profile steps: 2 von 8, the picker's decimal comma, the window on a 24-hour clock")
    func profileSteps() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            var browser = TestBrowser(client)
            _ = try await browser.startGuest()
            let html = try await browser.send(.get, "/onboarding/profile", headers: Self.german).text
            #expect(html.contains(#"<p class="wizard__count" id="wizard-count" aria-live="polite">2 von 8</p>"#))
            #expect(html.contains(#"<h1 id="step-gender-title" tabindex="-1">Wähle dein Geschlecht</h1>"#))
            #expect(html.contains(#"<span class="choice__label">Divers</span>"#))
            #expect(html.contains(#"<p class="picker__value" id="weight-value" aria-live="polite">80,0 kg</p>"#))
            #expect(html.contains(#"<option value="5">,5</option>"#))
            #expect(html.contains(#"<label class="visually-hidden" for="weight-whole"><span data-weight-unit-label>kg</span> vor dem Komma</label>"#))
            #expect(html.contains(#"<span id="window-range" aria-live="polite">12:00–18:00 Uhr</span>"#))
            #expect(html.contains(#"aria-valuetext="12:00 bis 18:00 Uhr""#))
            #expect(html.contains(">12:00</button>") && html.contains(">17:30</button>") && html.contains(">18:00</button>"))
            #expect(html.contains("<span>00:00</span><span>06:00</span><span>12:00</span><span>18:00</span><span>24:00</span>"))
            #expect(html.contains(#"<p class="tip__title">Warum ein 6-Stunden-Fenster?</p>"#))
            #expect(!html.contains("pm</button>"))

            let english = try await browser.get("/onboarding/profile").text
            #expect(english.contains(#"aria-live="polite">80.0 kg</p>"#))
            #expect(english.contains(#"<option value="5">.5</option>"#))
            #expect(english.contains(#"<span id="window-range" aria-live="polite">12pm - 6pm</span>"#))
            #expect(english.contains("<span>12am</span><span>6am</span><span>12pm</span><span>6pm</span><span>12am</span>"))
            #expect(english.contains(#"aria-valuetext="12pm to 6pm""#))
        }
    }

    @Test("sign-in: the page and a wrong password in German; the API's auth messages follow Accept-Language")
    func signIn() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            _ = try await client.register("ana@example.com")
            var browser = TestBrowser(client)
            let page = try await browser.send(.get, "/login", headers: Self.german)
            #expect(page.text.contains(#"<h1 id="login-title">Willkommen zurück</h1>"#))
            #expect(page.text.contains(#"<button class="button button--primary" type="submit">Anmelden</button>"#))
            #expect(page.text.contains(#"<a href="/onboarding">Neu hier? Jetzt starten</a>"#))
            let wrong = try await browser.post(
                "/login", [("email", "ana@example.com"), ("password", "wrong horse")],
                csrf: browser.cookies[WebSession.preSessionCookie], headers: Self.german
            )
            #expect(wrong.status == .unauthorized)
            #expect(wrong.text.contains("E-Mail-Adresse oder Passwort ist falsch"))

            let api = try await client.send(.post, "/api/v1/auth/login", body: credentialsJSON("ana@example.com", "wrong horse"), headers: Self.german)
            #expect(api.status == .unauthorized)
            #expect(api.apiError?.code == "invalid_credentials")
            #expect(api.apiError?.message == "E-Mail-Adresse oder Passwort ist falsch")
            #expect(try await client.login("ana@example.com", "wrong horse").apiError?.message == "Email or password is incorrect")

            let taken = try await client.send(.post, "/api/v1/auth/register", body: credentialsJSON("ana@example.com", "correct horse"), headers: Self.german)
            #expect(taken.status == .conflict)
            #expect(taken.apiError?.fields?["email"] == "Mit dieser E-Mail-Adresse gibt es schon ein Konto")
            let english = try await client.send(.post, "/api/v1/auth/register", body: credentialsJSON("ana@example.com", "correct horse"))
            #expect(english.apiError?.message == "An account with this email already exists")
        }
    }

    @Test("a password change's messages in German")
    func passwordChange() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let account = try await client.register("ana@example.com")
            let same = try await client.send(
                .post, "/api/v1/auth/password", body: #"{"currentPassword":"","newPassword":"ana@example.com"}"#,
                token: account.token, headers: Self.german
            )
            #expect(same.status == .unprocessableContent)
            #expect(same.apiError?.fields?["currentPassword"] == "Bitte gib dein aktuelles Passwort ein")
            #expect(same.apiError?.fields?["newPassword"] == "Bitte wähle ein Passwort, das nicht deine E-Mail-Adresse ist")

            let wrong = try await client.send(
                .post, "/api/v1/auth/password", body: #"{"currentPassword":"wrong horse","newPassword":"battery staple"}"#,
                token: account.token, headers: Self.german
            )
            #expect(wrong.apiError?.message == "Dein aktuelles Passwort ist falsch")

            let guest = try await client.guest()
            let noPassword = try await client.send(
                .post, "/api/v1/auth/password", body: #"{"currentPassword":"x","newPassword":"battery staple"}"#,
                token: guest.token, headers: Self.german
            )
            #expect(noPassword.apiError?.message == "Dieses Konto hat kein Passwort, das du ändern könntest. Füge zuerst eine E-Mail-Adresse und ein Passwort hinzu.")
        }
    }

    @Test("a throttled sign-in says how long to wait in German: 14 Min. 10 Sek.")
    func throttle() async throws {
        let t = try ThrottleTestApp()
        try await t.app.test(.router) { client in
            _ = try await client.register("ana@example.com")
            for _ in 1...5 {
                t.clock.advance(seconds: 10)
                _ = try await client.login("ana@example.com", "wrong horse", from: "198.51.100.9")
            }
            t.clock.advance(seconds: 10)
            let locked = try await client.send(
                .post, "/api/v1/auth/login", body: credentialsJSON("ana@example.com", "correct horse"),
                headers: Self.german.merging([HTTPField.Name("X-Forwarded-For")!: "198.51.100.9"])
            )
            #expect(locked.status == .tooManyRequests)
            #expect(locked.headers[.retryAfter] == "850")
            #expect(locked.apiError?.message == "Zu viele Anmeldeversuche. Zu deiner Sicherheit warte bitte kurz, bevor du es noch einmal versuchst. Nächster Versuch in: 14 Min. 10 Sek.")
        }
        #expect(Strings.$current.withValue(.german) { LoginThrottle.waitText(45) } == "45 Sek.")
        #expect(LoginThrottle.waitText(45) == "45s")
    }

    @Test("an expired form and Sign in with Apple's errors in German")
    func formExpiredAndProviders() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            var browser = TestBrowser(client)
            _ = try await browser.startGuest()
            let refused = try await browser.api(.put, "/api/v1/profile", json: WebSessionTests.profileJSON, csrf: nil, headers: Self.german)
            #expect(refused.status == .forbidden)
            #expect(refused.apiError?.message == "Dieses Formular ist abgelaufen. Bitte lade die Seite neu und versuche es noch einmal.")

            let apple = try await client.send(.post, "/api/v1/auth/apple", body: #"{"idToken":"x","nonce":"y"}"#, headers: Self.german)
            #expect(apple.status == .notFound)
            #expect(apple.apiError?.message == "Die Anmeldung mit Apple ist auf diesem Server nicht eingerichtet.")
        }
    }
}

private extension HTTPFields {
    func merging(_ other: HTTPFields) -> HTTPFields {
        var result = self
        for field in other { result.append(field) }
        return result
    }
}
