import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WDietServer
import WDietCore
import WDietStore
import WDietTestSupport

/// A browser's web session in HummingbirdTesting: the account step's pre-session CSRF cookie and hidden field,
/// then "Continue without an account", as a browser does it.
struct WebDashboardSession {
    var cookie: String
    var csrf: String

    static func guest(_ client: some TestClientProtocol) async throws -> WebDashboardSession {
        let step = try await client.execute(uri: "/onboarding", method: .get)
        let preSession = try #require(Self.cookieValue(WebSession.preSessionCookie, in: step.headers))
        let posted = try await client.execute(
            uri: "/onboarding/guest", method: .post,
            headers: [.contentType: "application/x-www-form-urlencoded", .cookie: "\(WebSession.preSessionCookie)=\(preSession)"],
            body: ByteBuffer(string: "_csrf=\(preSession)")
        )
        #expect(posted.status == .seeOther)
        let session = try #require(Self.cookieValue("wdiet_session", in: posted.headers))
        return WebDashboardSession(cookie: "wdiet_session=\(session)", csrf: WebSession.csrfToken(forSession: session))
    }

    static func cookieValue(_ name: String, in headers: HTTPFields) -> String? {
        for field in headers[values: .setCookie] where field.hasPrefix("\(name)=") {
            let value = field.dropFirst(name.count + 1).prefix { $0 != ";" }
            if !value.isEmpty { return String(value) }
        }
        return nil
    }

    /// A page, as the browser asks for it.
    func get(_ client: some TestClientProtocol, _ path: String) async throws -> TestResponse {
        try await client.execute(uri: path, method: .get, headers: [.cookie: cookie])
    }

    /// A JSON API call made by the page's script: the cookie and the CSRF header.
    func api(_ client: some TestClientProtocol, _ method: HTTPRequest.Method, _ path: String, json: [String: Any]) async throws -> TestResponse {
        let body = try JSONSerialization.data(withJSONObject: json)
        return try await client.execute(
            uri: path, method: method,
            headers: [.cookie: cookie, .contentType: "application/json", WebSession.csrfHeader: csrf],
            body: ByteBuffer(bytes: body)
        )
    }

    /// A guest with the profile of `APIFixtures.profile()`: on 2026-03-01 (TestApp's clock) that is Day 60 of the plan.
    static func withProfile(_ client: some TestClientProtocol, _ overrides: [String: Any] = [:]) async throws -> WebDashboardSession {
        let session = try await guest(client)
        let saved = try await session.api(client, .put, "/api/v1/profile", json: APIFixtures.profile(overrides))
        #expect(saved.status == .created, "\(saved.text)")
        return session
    }
}

@Suite("Web: dashboard view")
struct DashboardViewTests {
    static let today = Fixtures.date("2026-03-01")
    static let noon = Fixtures.utc("2026-03-01T12:00:00Z")

    static func meal(kcal: Double, protein: Double? = nil, carbs: Double? = nil, fat: Double? = nil) -> Meal {
        Meal(name: "Lunch", kcal: kcal, protein: protein, carbs: carbs, fat: fat, loggedAt: noon)
    }

    @Test("000's worked ring: 85 g protein, 142 g carbs, 38 g fat of 1,900 cal fill 340 + 568 + 342 = 1,250 cal")
    func ringOfTheSpec() {
        let totals = DailyTotals(meals: [Self.meal(kcal: 1_250, protein: 85, carbs: 142, fat: 38)])
        let ring = RingView(ring: Ring(totals: totals, targetKcal: 1_900), targetCalories: 1_900)
        #expect(ring.caption == "1,250 of 1,900 cal")
        #expect(ring.segments.map(\.name) == ["protein", "carbs", "fat"])
        // 340/1900 = 17.89 %, 568/1900 = 29.89 %, 342/1900 = 18 %: together the eaten share, 1250/1900 = 65.79 %.
        #expect(ring.segments.map(\.length) == [17.89, 29.89, 18])
        #expect(ring.segments.map(\.start) == [0, 17.89, 47.79])
        #expect(abs(ring.segments.map(\.length).reduce(0, +) - 65.79) < 0.02)
        #expect(ring.segments[1].dashArray == "29.89 70.11")
        #expect(ring.segments[1].dashOffset == "-17.89")
        #expect(ring.accessibilityLabel == "Calories: 1,250 of 1,900. Protein 340 calories. Carbs 568 calories. Fats 342 calories.")
        #expect(!ring.isOver)
    }

    @Test("past the target the ring is full, never more: 2,500 cal without macros of 1,900 is one neutral circle")
    func ringCaps() {
        let totals = DailyTotals(meals: [Self.meal(kcal: 2_500)])
        let ring = RingView(ring: Ring(totals: totals, targetKcal: 1_900), targetCalories: 1_900)
        #expect(ring.segments.map(\.name) == ["unspecified"])
        #expect(ring.segments.map(\.length) == [100])
        #expect(ring.isOver)
        #expect(ring.caption == "2,500 of 1,900 cal")
        #expect(ring.accessibilityLabel == "Calories: 2,500 of 1,900. Without macros 2,500 calories.")
    }

    @Test("an empty day: no segments, 0 of the target")
    func emptyRing() {
        let ring = RingView(ring: Ring(totals: DailyTotals(), targetKcal: 2_759), targetCalories: 2_759)
        #expect(ring.segments.isEmpty)
        #expect(ring.eaten == "0")
        #expect(ring.caption == "0 of 2,759 cal")
    }

    @Test("macro card: \"128/160g\", an 80 % bar, 😊 at ≥70 %; no smiley before the first meal")
    func macros() {
        let eaten = MacroView(MacroProgress(macro: .protein, grams: 128, goalGrams: 160, mealsLogged: 1))
        #expect(eaten.value == "128/160g")
        #expect(eaten.fill == "80")
        #expect(eaten.smiley == "😊")
        #expect(eaten.accessibilityLabel == "Protein: 128 of 160 grams, good progress")
        let over = MacroView(MacroProgress(macro: .fat, grams: 120, goalGrams: 80, mealsLogged: 2))
        #expect(over.fill == "100")
        #expect(over.label == "FATS")
        let empty = MacroView(MacroProgress(macro: .carbs, grams: 0, goalGrams: 135, mealsLogged: 0))
        #expect(empty.smiley == nil)
        #expect(empty.value == "0/135g")
        #expect(empty.accessibilityLabel == "Carbs: 0 of 135 grams")
    }

    @Test("weight card: 70.0, 69.5, 69.1 kg average 69.5; today is 0.4 below it, so the green ↓ shows \"-0.4\"")
    func weightBelowAverage() {
        let days = WeightHistory.days([
            (Self.today.adding(days: -2), 70.0), (Self.today.adding(days: -1), 69.5), (Self.today, 69.1),
        ])
        let card = WeightCardView(WeightCard(days: days, today: Self.today), unit: .kg)
        #expect(card.hasToday)
        #expect(card.value == "69.1 kg")
        #expect(card.average == "69.5 kg")
        #expect(card.belowAverage == "-0.4")
    }

    @Test("weight card: at or above the average there is no arrow (coach, not judge)")
    func weightAboveAverage() {
        let days = WeightHistory.days([(Self.today.adding(days: -1), 69.0), (Self.today, 69.6)])
        let card = WeightCardView(WeightCard(days: days, today: Self.today), unit: .kg)
        #expect(card.value == "69.6 kg")
        #expect(card.average == "69.3 kg")
        #expect(card.belowAverage == nil)
    }

    @Test("weight card without today's weight: \"-- kg\", no average; in pounds \"-- lb\"")
    func weightEmpty() {
        let days = WeightHistory.days([(Self.today.adding(days: -1), 69.0)])
        let card = WeightCardView(WeightCard(days: days, today: Self.today), unit: .kg)
        #expect(!card.hasToday)
        #expect(card.value == "-- kg")
        #expect(card.average == nil)
        #expect(card.accessibilityLabel == "No weight logged today. Tap to log your weight")
        #expect(WeightCardView(WeightCard(days: [], today: Self.today), unit: .lb).value == "-- lb")
    }

    @Test("weight picker: starts at 69.1 kg on 69 and .1, offers 30–200; clamps 250 kg to 200.0; 80 kg is 176.4 lb")
    func picker() {
        let kg = WeightPickerView(startKg: 69.1, unit: .kg)
        #expect(kg.whole.first?.value == 30 && kg.whole.last?.value == 200)
        #expect(kg.whole.filter(\.selected).map(\.value) == [69])
        #expect(kg.tenths.filter(\.selected).map(\.value) == [1])
        #expect(kg.tenths.count == 10)
        #expect(WeightPickerView(startKg: 250, unit: .kg).startValue == "200.0")
        #expect(WeightPickerView(startKg: 12, unit: .kg).startValue == "30.0")
        let lb = WeightPickerView(startKg: 80, unit: .lb)
        #expect(lb.unit == "lb")
        #expect(lb.startValue == "176.4")
        #expect(lb.whole.first?.value == 67 && lb.whole.last?.value == 440)
    }

    @Test("eating window banner: \"12pm - 6pm\" by default, \"11:30am - 5:30pm\", and across midnight \"9pm - 3am\"")
    func windowLabels() throws {
        #expect(EatingWindow.default.twelveHourLabel == "12pm - 6pm")
        #expect(try #require(EatingWindow(startMinute: 690)).twelveHourLabel == "11:30am - 5:30pm")
        #expect(try #require(EatingWindow(startMinute: 21 * 60)).twelveHourLabel == "9pm - 3am")
        #expect(try #require(EatingWindow(startMinute: 0)).twelveHourLabel == "12am - 6am")
    }

    @Test("the first-phase-switch tip: Days 15–17 of the plan only, not in later diet phases")
    func firstPhaseSwitchTip() {
        let cycle = MatadorCycle(planStart: Fixtures.date("2026-01-01"))
        func shows(_ day: Int) -> Bool {
            DashboardView.isEarlyInFirstDietPhase(cycle.status(on: Fixtures.date("2026-01-01").adding(days: day - 1)))
        }
        #expect(!shows(14))
        #expect(shows(15) && shows(17))
        #expect(!shows(18))
        #expect(!shows(43), "Day 43 starts the second diet phase")
    }

    @Test("the whole dashboard of a new user: grey streak, Week 1's gentle coach, the weight prompt, no meals link")
    func newUserDashboard() {
        let profile = Fixtures.profile(timeZone: "UTC", planStart: "2026-03-01")
        let day = DashboardDay.compute(profile: profile, day: LocalDate(Self.noon, in: profile.timeZone), meals: [], weightDays: [], loggedDays: [], now: Self.noon)
        let view = DashboardView(day: day, profile: profile, latestWeightKg: nil, chrome: PageChrome(csrfToken: "t"))
        #expect(view.streak.label == "0 day streak" && !view.streak.isActive)
        #expect(view.phase?.label == "Day 1 of 14 · Maintenance phase")
        #expect(view.phase?.learnPath == "/learn/why-maintenance-first")
        #expect(view.fireCoach.emoji == "🔥😌")
        #expect(view.showsWeightPrompt)
        #expect(!view.hasMeals)
        #expect(view.picker.startValue == "80.0")
        #expect(view.macros.allSatisfy { $0.smiley == nil })
        #expect(!view.showsFirstWeeklyAverageTip && !view.showsFirstPhaseSwitchTip)
    }
}


@Suite("Web: dashboard page")
struct DashboardPageTests {
    @Test("signed out, /dashboard goes to the welcome screen; signed in without a profile, to onboarding")
    func guards() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let signedOut = try await client.execute(uri: "/dashboard", method: .get)
            #expect(signedOut.status == .seeOther)
            #expect(signedOut.headers[.location] == "/")
            let session = try await WebDashboardSession.guest(client)
            let noProfile = try await session.get(client, "/dashboard")
            #expect(noProfile.status == .seeOther)
            #expect(noProfile.headers[.location] == "/onboarding/profile")
        }
    }

    @Test("a new day: 0 of 2,759 cal (TDEE of the 30-year-old 80 kg man on Day 60, a maintenance day), grey streak, the prompt")
    func emptyDay() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await WebDashboardSession.withProfile(client)
            let page = try await session.get(client, "/dashboard")
            #expect(page.status == .ok)
            let html = page.text
            #expect(html.contains("0 of 2,759 cal"))
            #expect(html.contains("0 day streak"))
            #expect(!html.contains("streak-badge--active"))
            #expect(html.contains("Day 4 of 14 · Maintenance phase"))
            #expect(html.contains("Eating window: 12pm - 6pm"))
            #expect(html.contains("Log today&#39;s weight to track progress") || html.contains("Log today's weight to track progress"))
            #expect(html.contains("-- kg"))
            #expect(html.contains("Tap to log your weight"))
            #expect(!html.contains("/meals/today"))
            #expect(html.contains("<meta name=\"csrf-token\" content=\"\(session.csrf)\">"))
            #expect(html.contains("aria-current=\"page\"><span class=\"tabbar__icon\" aria-hidden=\"true\">🏠"))
            #expect(!html.contains("style=\""), "no inline styles under the CSP")
        }
    }

    @Test("after a meal and a weight: 1,250 of 2,759 cal, the ring's three segments, the streak on, the prompt gone")
    func dayWithMealAndWeight() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await WebDashboardSession.withProfile(client)
            let meal = try await session.api(client, .post, "/api/v1/meals", json: ["name": "Lunch", "calories": 1_250, "protein": 85, "carbs": 142, "fat": 38])
            #expect(meal.status == .created)
            let weight = try await session.api(client, .post, "/api/v1/weights", json: ["kg": 79.4])
            #expect(weight.status == .created)
            let html = try await session.get(client, "/dashboard").text
            // 79.4 kg moves the targets from tomorrow; today's stay on the profile's 80 kg:
            // BMR 10 × 80 + 6.25 × 180 − 5 × 30 + 5 = 1,780, × 1.55 = 2,759.
            #expect(html.contains("1,250 of 2,759 cal"))
            #expect(html.contains("Your plan will be updated tomorrow."))
            #expect(html.contains("ring__segment--protein") && html.contains("ring__segment--carbs") && html.contains("ring__segment--fat"))
            #expect(html.contains("1 day streak"))
            #expect(html.contains("streak-badge--active"))
            #expect(!html.contains("id=\"weight-prompt\""))
            #expect(html.contains("79.4 kg"))
            #expect(html.contains("href=\"/meals/today\""))
            #expect(html.contains("85/160g"), "protein goal 2 g × 80 kg = 160 g until midnight")
        }
    }
}
