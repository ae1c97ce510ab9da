import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WDietServer
import WDietStore

@Suite("Analytics (004 Story 5.2): the web app's onboarding and error moments, recorded by the server once")
struct WebAnalyticsMomentsTests {
    /// The user's events once at least `count` of them are stored (they are recorded off the request's path), and
    /// after a short settle, so an event recorded twice would show.
    static func settled(_ userId: UUID, in t: TestApp, atLeast count: Int) async throws -> [AnalyticsEvent] {
        _ = try await AnalyticsEventsTests.events(of: userId, in: t, atLeast: count)
        try await Task.sleep(for: .milliseconds(150))
        return try await t.services.analytics.events(userId: userId)
    }

    @Test("one onboarding run (email account, 7 profile steps posted by the page as \"2 of 8\" to \"8 of 8\", the first profile) → 1 started, 8 steps in order, 1 finished; a later save and a re-sent step add nothing")
    func onboardingRun() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            var browser = TestBrowser(client)
            _ = try await browser.get("/onboarding")
            let created = try await browser.post("/onboarding/account", [("email", "ana@example.com"), ("password", "correct horse battery")],
                                                 csrf: browser.cookies[WebSession.preSessionCookie])
            #expect(created.status == .seeOther)
            let userId = try #require(try await browser.userId(t))
            let csrf = try #require(browser.csrfToken)

            // What onboarding.js sends as each profile step is passed (cookie + X-CSRF-Token, as WDiet.api does).
            let profileSteps = ["gender", "age", "height", "weight", "activity", "goal", "window"]
            let posted = profileSteps.enumerated().map { index, step in
                #"{"id": "\#(UUID().uuidString)", "name": "onboarding_step_completed", "properties": {"step": "\#(step)", "step_number": "\#(index + 2)"}}"#
            }
            let batch = #"{"events": [\#(posted.joined(separator: ","))]}"#
            #expect(try await browser.api(.post, "/api/v1/events", json: batch, csrf: csrf).status == .accepted)
            #expect(try await browser.api(.post, "/api/v1/events", json: batch, csrf: csrf).status == .accepted)
            #expect(try await browser.api(.post, "/api/v1/events", json: batch, csrf: nil).status == .forbidden)

            #expect(try await browser.api(.put, "/api/v1/profile", json: WebSessionTests.profileJSON, csrf: csrf).status == .created)
            // A later save is a profile change, not another onboarding; the page loads record nothing of onboarding.
            let later = WebSessionTests.profileJSON.replacingOccurrences(of: #""weightKg":80"#, with: #""weightKg":79"#)
            _ = try await browser.api(.put, "/api/v1/profile", json: later, csrf: csrf)
            _ = try await browser.get("/dashboard")

            let events = try await Self.settled(userId, in: t, atLeast: 10)
            #expect(events.filter { $0.name == .onboardingStarted }.map(\.properties) == [["method": "email"]])
            // Recorded off the request's path, so stored in no promised order: read in the page's step order.
            let steps = events.filter { $0.name == .onboardingStepCompleted }.sorted { Int($0.properties["step_number"] ?? "") ?? 0 < Int($1.properties["step_number"] ?? "") ?? 0 }
            #expect(steps.map { $0.properties["step"] ?? "" } == ["account"] + profileSteps)
            #expect(steps.map { $0.properties["step_number"] ?? "" } == ["1", "2", "3", "4", "5", "6", "7", "8"])
            #expect(events.filter { $0.name == .onboardingFinished }.count == 1)
            #expect(events.first { $0.name == .onboardingFinished }?.properties["goal"] == "lose")
        }
    }

    @Test("an app's first profile (bearer token) is not the web onboarding's finish: the app posts its own")
    func appProfileRecordsNoFinish() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile()
            #expect(try await client.api(.post, "/api/v1/weights", session, json: ["kg": 79.4]).status == .created)
            let events = try await Self.settled(session.userId, in: t, atLeast: 1)
            #expect(events.map(\.name) == [.weightLogged])
        }
    }

    @Test("Continue without an account: started {method guest} and the account step, once each")
    func guestStart() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            var browser = TestBrowser(client)
            _ = try await browser.startGuest()
            let userId = try #require(try await browser.userId(t))
            let events = try await Self.settled(userId, in: t, atLeast: 2)
            #expect(events.map(\.name).sorted { $0.rawValue < $1.rawValue } == [.onboardingStarted, .onboardingStepCompleted])
            #expect(events.first { $0.name == .onboardingStarted }?.properties == ["method": "guest"])
            #expect(events.first { $0.name == .onboardingStepCompleted }?.properties == ["step": "account", "step_number": "1", "method": "guest"])
        }
    }

    @Test("an error page shown to a signed-in user is error_logged {error_type, screen_name}; the API's errors and missing files are not")
    func errorPages() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            var browser = TestBrowser(client)
            _ = try await browser.startGuest()
            let userId = try #require(try await browser.userId(t))
            let csrf = try #require(browser.csrfToken)
            #expect(try await browser.api(.put, "/api/v1/profile", json: WebSessionTests.profileJSON, csrf: csrf).status == .created)
            let missing = try await browser.get("/meals/5f0c7a52-4a51-4d40-9a0e-0d9c1c7f0a11/edit")
            #expect(missing.status == .notFound)
            #expect(missing.text.contains("Something went wrong"))
            #expect(try await browser.get("/learn/no-such-article").status == .notFound)
            #expect(try await browser.api(.get, "/api/v1/meals/5f0c7a52-4a51-4d40-9a0e-0d9c1c7f0a11", csrf: nil).status.code >= 400)
            #expect(try await browser.get("/assets/js/no-such-script.js").status == .notFound)
            #expect(try await browser.get("/favicon.ico").status == .notFound)

            let events = try await Self.settled(userId, in: t, atLeast: 5)
            let errors = events.filter { $0.name == .errorLogged }.sorted { $0.properties["screen_name"] ?? "" > $1.properties["screen_name"] ?? "" }
            #expect(errors.map(\.properties) == [
                ["error_type": "not_found", "screen_name": "/meals/:id/edit"],
                ["error_type": "not_found", "screen_name": "/learn/no-such-article"],
            ])

        }
    }

    @Test("a meal from the Log Meal form without script at 09:00 UTC is meal_logged {source manual, meal_type breakfast}, once")
    func webMealForm() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let user = try await client.mealWebUser(["timeZone": "UTC"])
            let userId = try #require(try await t.services.accounts.session(tokenHash: SessionToken.hash(user.sessionToken))?.userId)
            #expect(try await client.mealSubmit("/meals/new", user, ["name": "Porridge", "calories": "350"]).status == .seeOther)
            let events = try await Self.settled(userId, in: t, atLeast: 4)
            #expect(events.filter { $0.name == .mealLogged }.map(\.properties) == [["source": "manual", "meal_type": "breakfast"]])
        }
    }

    @Test("screen names drop ids", arguments: [
        ("/", "/"), ("/meals/today", "/meals/today"), ("/meals/5f0c7a52-4a51-4d40-9a0e-0d9c1c7f0a11/edit", "/meals/:id/edit"),
        ("/learn/six-hour-window", "/learn/six-hour-window"), ("/things/42", "/things/:id"),
    ])
    func screenNames(path: String, name: String) {
        #expect(WebErrorEventMiddleware.screenName(path: path) == name)
    }
}
