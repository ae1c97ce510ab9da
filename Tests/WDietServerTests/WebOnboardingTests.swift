import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietCore
@testable import WDietServer

@Suite("Web: onboarding steps and Settings")
struct WebOnboardingTests {
    @Test("the profile steps: signed out → welcome; no profile → the steps at 2 of 8; a profile → the dashboard")
    func profileStepsGuard() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            var browser = TestBrowser(client)
            let signedOut = try await browser.get("/onboarding/profile")
            #expect(signedOut.status == .seeOther)
            #expect(signedOut.headers[.location] == "/")

            _ = try await browser.startGuest()
            let page = try await browser.get("/onboarding/profile")
            #expect(page.status == .ok)
            let html = page.text
            #expect(html.contains("Select Your Gender"))
            #expect(html.contains("2 of 8"))
            #expect(html.contains(#"<meta name="csrf-token" content="\#(try #require(browser.csrfToken))">"#))
            // The eating-window step carries the coach's tip and the ℹ️ that re-opens it.
            #expect(html.contains(#"<div class="tip" data-tip="eating-window" role="note" hidden><p class="tip__title">Why a 6-hour window?</p>"#))
            #expect(html.contains(#"<a href="/learn/six-hour-window">Why like this?</a> <button type="button" class="tip__dismiss" data-tip-dismiss>Got it</button></div>"#))
            #expect(html.contains(#"<button type="button" class="info-button" data-tip-open="eating-window" aria-label="About the eating window">ℹ️</button>"#))
            #expect(html.contains("/assets/js/tips.js") && html.contains("/assets/css/tips.css"))
            // The timeline offers every half hour of the default 12pm - 6pm window.
            #expect(html.contains(">12pm</button>") && html.contains(">5:30pm</button>") && html.contains(">6pm</button>"))
            #expect(!html.contains("style="))

            let csrf = try #require(browser.csrfToken)
            #expect(try await browser.api(.put, "/api/v1/profile", json: WebSessionTests.profileJSON, csrf: csrf).status == .created)
            let done = try await browser.get("/onboarding/profile")
            #expect(done.status == .seeOther)
            #expect(done.headers[.location] == "/dashboard")
            // The account step and the sign-in form are for signed-out visitors.
            #expect(try await browser.get("/login").headers[.location] == "/")
            #expect(try await browser.get("/onboarding").headers[.location] == "/")
        }
    }

    @Test("12-hour clock labels as 000 writes the window")
    func clockLabels() {
        #expect(EatingWindow.twelveHour(720) == "12pm")
        #expect(EatingWindow.twelveHour(750) == "12:30pm")
        #expect(EatingWindow.twelveHour(0) == "12am")
        #expect(EatingWindow.twelveHour(1_080) == "6pm")
        #expect(EatingWindow(startMinute: 720)?.twelveHourLabel == "12pm - 6pm")
        #expect(EatingWindow(startMinute: 21 * 60)?.twelveHourLabel == "9pm - 3am")
        #expect(SettingsPages.offsetLabel(-(3 * 3600 + 1800)) == "GMT-03:30")
        #expect(SettingsPages.offsetLabel(3600) == "GMT+01:00")
    }

    @Test("Settings shows the profile's units, window and zone, the version to save against, and a guest's upgrade form")
    func settingsPage() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            var browser = TestBrowser(client)
            #expect(try await browser.get("/settings").headers[.location] == "/")
            _ = try await browser.startGuest()
            #expect(try await browser.get("/settings").headers[.location] == "/onboarding/profile")

            let csrf = try #require(browser.csrfToken)
            let profile = #"{"dateOfBirth":"1995-06-15","sex":"female","heightCm":165,"weightKg":70,"goal":"lose","activity":"light","timeZone":"Europe/Berlin","eatingWindowStart":"10:30","weightUnit":"lb","heightUnit":"ftIn"}"#
            #expect(try await browser.api(.put, "/api/v1/profile", json: profile, csrf: csrf).status == .created)

            let page = try await browser.get("/settings")
            #expect(page.status == .ok)
            let html = page.text
            #expect(html.contains(#"id="eating-window""#))
            #expect(html.contains(#"<option value="10:30" selected>10:30am - 4:30pm</option>"#))
            #expect(html.contains(#"<option value="Europe/Berlin" selected>Europe/Berlin (GMT+01:00)</option>"#))
            #expect(html.contains(#"value="lb" checked"#) && html.contains(#"value="ftIn" checked"#))
            let userId = try #require(await browser.userId(t))
            let stored = try #require(try await t.services.profiles.profile(userId: userId))
            #expect(html.contains(#"data-version="\#(stored.version)""#))
            #expect(html.contains("Add email and password"))
            #expect(html.contains(#"action="/logout""#))
            #expect(!html.contains("style="))
        }
    }

    @Test("a guest adds an email and password from Settings and keeps every row, on a new session")
    func guestUpgradeKeepsRows() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            var browser = TestBrowser(client)
            _ = try await browser.startGuest()
            let guestSession = try #require(browser.session)
            let userId = try #require(await browser.userId(t))
            let csrf = try #require(browser.csrfToken)
            #expect(try await browser.api(.put, "/api/v1/profile", json: WebSessionTests.profileJSON, csrf: csrf).status == .created)
            #expect(try await browser.api(.post, "/api/v1/weights", json: #"{"kg": 79.4}"#, csrf: csrf).status == .created)

            let tooShort = try await browser.post("/settings/account", [("email", "ana@example.com"), ("password", "x")], csrf: csrf)
            #expect(tooShort.status == .unprocessableContent)
            #expect(tooShort.text.contains(#"value="ana@example.com""#))
            #expect(tooShort.text.contains("field--invalid"))

            let upgraded = try await browser.post("/settings/account", [("email", "ana@example.com"), ("password", "correct horse")], csrf: csrf)
            #expect(upgraded.status == .seeOther)
            #expect(upgraded.headers[.location] == "/settings?account=created")
            let newSession = try #require(browser.session)
            #expect(newSession != guestSession)
            #expect(try await browser.userId(t) == userId)
            #expect(try await t.services.accounts.session(tokenHash: SessionToken.hash(guestSession)) == nil)

            // The same rows, now under an account that signs in with the password.
            let weights = try await browser.api(.get, "/api/v1/weights", csrf: nil)
            #expect(weights.text.contains("79.4"))
            let settings = try await browser.get("/settings?account=created")
            #expect(settings.text.contains("Signed in as <strong id=\"account-email\">ana@example.com</strong>"))
            #expect(settings.text.contains(#"data-toast="Account created. Your progress is saved.""#))
            #expect(!settings.text.contains("Add email and password"))
            #expect(try await client.login("ana@example.com", "correct horse").status == .ok)
        }
    }
}
