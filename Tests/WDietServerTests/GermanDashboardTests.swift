import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietCore
@testable import WDietServer
import WDietStore
import WDietTestSupport

/// The dashboard, the weight picker, the Progress tab, the coach's lines and tips, and the weight and tip API
/// messages in German for a browser that asks for it (`Accept-Language: de`), and in English, unchanged, for one
/// that does not.
@Suite("German: dashboard, progress, weights, tips and the coach")
struct GermanDashboardTests {
    static let german: HTTPFields = [.acceptLanguage: "de-DE,de;q=0.9,en;q=0.8"]
    static let today = Fixtures.date("2026-03-01")
    static let noon = Fixtures.utc("2026-03-01T12:00:00Z")

    static func inGerman<T>(_ work: () throws -> T) rethrows -> T {
        try Strings.$current.withValue(.german, operation: work)
    }

    static func get(_ client: some TestClientProtocol, _ session: WebDashboardSession, _ path: String, german: Bool = true) async throws -> TestResponse {
        var headers: HTTPFields = [.cookie: session.cookie]
        if german { headers[.acceptLanguage] = "de-DE,de;q=0.9,en;q=0.8" }
        return try await client.execute(uri: path, method: .get, headers: headers)
    }

    static func api(_ client: some TestClientProtocol, _ method: HTTPRequest.Method, _ path: String, _ session: APISession, json: [String: Any]? = nil) async throws -> TestResponse {
        var headers: HTTPFields = [.authorization: "Bearer \(session.token)", .acceptLanguage: "de"]
        var body: ByteBuffer?
        if let json {
            headers[.contentType] = "application/json"
            body = ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: json))
        }
        return try await client.execute(uri: path, method: method, headers: headers, body: body)
    }

    // MARK: Views

    @Test("the ring: 1.250 von 1.900 kcal, spoken as Eiweiß, Kohlenhydrate, Fett in Kalorien")
    func ring() {
        let totals = DailyTotals(meals: [Meal(name: "Mittag", kcal: 1_250, protein: 85, carbs: 142, fat: 38, loggedAt: Self.noon)])
        let ring = Self.inGerman { RingView(ring: Ring(totals: totals, targetKcal: 1_900), targetCalories: 1_900) }
        #expect(ring.eaten == "1.250")
        #expect(ring.targetLabel == "von 1.900 kcal")
        #expect(ring.caption == "1.250 von 1.900 kcal")
        #expect(ring.accessibilityLabel == "Kalorien: 1.250 von 1.900. Eiweiß 340 Kalorien. Kohlenhydrate 568 Kalorien. Fett 342 Kalorien.")
        let english = RingView(ring: Ring(totals: totals, targetKcal: 1_900), targetCalories: 1_900)
        #expect(english.targetLabel == "of 1,900 cal")
        #expect(english.caption == "1,250 of 1,900 cal")
    }

    @Test("macros: EIWEISS 128/160 g, gut dabei; no mood before the first meal")
    func macros() {
        let eaten = Self.inGerman { MacroView(MacroProgress(macro: .protein, grams: 128, goalGrams: 160, mealsLogged: 1)) }
        #expect(eaten.label == "EIWEISS")
        #expect(eaten.value == "128/160 g")
        #expect(eaten.accessibilityLabel == "Eiweiß: 128 von 160 Gramm, gut dabei")
        let empty = Self.inGerman { MacroView(MacroProgress(macro: .fat, grams: 0, goalGrams: 1_079, mealsLogged: 0)) }
        #expect(empty.value == "0/1.079 g")
        #expect(empty.accessibilityLabel == "Fett: 0 von 1.079 Gramm")
    }

    @Test("the weight card: 69,1 kg, Ø 69,5 kg, the green ↓ -0,4; without today's weight a German prompt")
    func weightCard() {
        let days = WeightHistory.days([
            (Self.today.adding(days: -2), 70.0), (Self.today.adding(days: -1), 69.5), (Self.today, 69.1),
        ])
        let card = Self.inGerman { WeightCardView(WeightCard(days: days, today: Self.today), unit: .kg) }
        #expect(card.value == "69,1 kg")
        #expect(card.average == "69,5 kg")
        #expect(card.belowAverage == "-0,4")
        #expect(card.accessibilityLabel == "Gewicht heute 69,1 kg, Durchschnitt 69,5 kg, -0,4 unter dem Durchschnitt. Tippe, um dein Gewicht einzutragen")
        let english = WeightCardView(WeightCard(days: days, today: Self.today), unit: .kg)
        #expect(english.accessibilityLabel == "Weight today 69.1 kg, average 69.5 kg, -0.4 below the average. Tap to log your weight")
        let none = Self.inGerman { WeightCardView(WeightCard(days: [], today: Self.today), unit: .kg) }
        #expect(none.accessibilityLabel == "Heute noch kein Gewicht eingetragen. Tippe, um dein Gewicht einzutragen")
        let picker = Self.inGerman { WeightPickerView(startKg: 69.1, unit: .kg) }
        #expect(picker.wholeLabel == "Ganze kg" && picker.tenthsLabel == "Zehntel kg" && picker.groupLabel == "Gewicht in kg")
    }

    @Test("the eating window on the 24-hour clock: 12:00–18:00, across midnight 21:00–03:00; English keeps am/pm")
    func eatingWindow() throws {
        let evening = try #require(EatingWindow(startMinute: 21 * 60))
        let halfPast = try #require(EatingWindow(startMinute: 9 * 60 + 30))
        Self.inGerman {
            #expect(EatingWindow.default.twelveHourLabel == "12:00–18:00")
            #expect(evening.twelveHourLabel == "21:00–03:00")
            #expect(EatingWindowJSON.warningLabel(halfPast) == "09:30–15:30")
            #expect(EatingWindow.twelveHour(0) == "00:00")
        }
        #expect(EatingWindow.default.twelveHourLabel == "12pm - 6pm")
        #expect(EatingWindowJSON.warningLabel(halfPast) == "9:30am-3:30pm")
    }

    @Test("the streak and the fire coach: 1 Tag in Folge, 7 Tage in Folge, the milestone cheer")
    func streakAndCoach() {
        Self.inGerman {
            let one = StreakView(Streak(days: 1, isActiveToday: true))
            #expect(one.label == "1 Tag in Folge")
            #expect(one.accessibilityLabel == "Serie: 1 Tag in Folge")
            let waiting = StreakView(Streak(days: 5, isActiveToday: false))
            #expect(waiting.label == "5 Tage in Folge")
            #expect(waiting.accessibilityLabel == "Serie: 5 Tage in Folge, heute noch nichts eingetragen")
            let milestone = FireCoachView(variant: .strong, streak: Streak(days: 7, isActiveToday: true), cycle: nil)
            #expect(milestone.message == "7 Tage in Folge! Du bist Feuer und Flamme.")
            #expect(milestone.accessibilityLabel == "Feuer-Coach, stark")
        }
        #expect(StreakView(Streak(days: 1, isActiveToday: true)).accessibilityLabel == "Logging streak: 1 day")
        #expect(StreakView(Streak(days: 5, isActiveToday: false)).accessibilityLabel == "Logging streak: 5 days, not logged today yet")
        #expect(FireCoachView(variant: .strong, streak: Streak(days: 7, isActiveToday: true), cycle: nil).message == "7 day streak! You're on fire.")
    }

    @Test("progress: 1.100 kcal, 900 darunter, Kein Eintrag, German day letters (Di. is D)")
    func progressCharts() {
        // 2026-03-01 was a Sunday: the 14 days run Monday 16 Feb to Sunday 1 Mar.
        let days = (0..<14).map { offset in
            CalorieChart.Day(date: Self.today.adding(days: offset - 13), kcal: offset == 13 ? 1_100 : 0, targetKcal: 2_000)
        }
        let chart = Self.inGerman { CalorieChart(days: days) }
        #expect(chart.rows.first?.eaten == "1.100 kcal")
        #expect(chart.rows.first?.target == "2.000 kcal")
        #expect(chart.rows.first?.difference == "900 darunter")
        #expect(chart.rows[1].difference == "Kein Eintrag")
        #expect(chart.bars.map(\.dayLetter).prefix(7).joined() == "MDMDFSS")
        #expect(chart.summary == "1 von 14 Tagen eingetragen · Ø 1.100 kcal")
        #expect(chart.accessibilityLabel == "Kalorien der letzten 14 Tage: 1 Tag eingetragen, im Schnitt 1.100 Kalorien pro eingetragenem Tag.")
        #expect(CalorieChart(days: days).summary == "1 of 14 days logged · average 1,100 cal")
        #expect(chart.title == "Kalorien · letzte 14 Tage")
        #expect(CalorieChart(days: days).title == "Calories · last 14 days")

        let weights = WeightHistory.days([(Self.today.adding(days: -1), 80.1), (Self.today, 79.5)])
        let weightChart = Self.inGerman { WeightChart(days: weights, unit: .kg, today: Self.today) }
        #expect(weightChart.trendHint == "Dein Trend erscheint nach 7 Wiegungen (bisher 2).")
        #expect(weightChart.rows.first?.date == "So., 1. März")
        #expect(weightChart.accessibilityLabel == "Gewichtsdiagramm, 2 Tage: Sa., 28. Feb. bis So., 1. März. Aktuell 79,5 kg, 7-Tage-Durchschnitt 79,8 kg.")
    }

    // MARK: Pages

    @Test("the dashboard page in German: 0 von 2.759 kcal, Tag 4 von 14 · Erhaltungsphase, Essensfenster 12:00–18:00")
    func dashboardPage() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await WebDashboardSession.withProfile(client)
            let page = try await Self.get(client, session, "/dashboard")
            #expect(page.status == .ok)
            #expect(page.headers[.contentLanguage] == "de")
            let html = page.text
            #expect(html.contains(#"<html lang="de">"#))
            #expect(html.contains("<title>Start · "))
            #expect(html.contains(#"<span class="ring__target">von 2.759 kcal</span>"#))
            #expect(html.contains("0 von 2.759 kcal"))
            #expect(html.contains("0 Tage in Folge"))
            #expect(html.contains("Tag 4 von 14 · Erhaltungsphase"))
            #expect(html.contains("Essensfenster: 12:00–18:00"))
            #expect(html.contains(#"aria-label="Essensfenster bearbeiten""#))
            #expect(html.contains(#"aria-label="Infos zur Erhaltungsphase""#))
            // Day 60: the next switch is Day 71, Thursday 12 March.
            #expect(html.contains("Tag 4 von 14 · Erhaltungsphase · nächster Wechsel am Do., 12. März"))
            #expect(html.contains("Trag heute deine erste Mahlzeit oder dein Gewicht ein, damit das Feuer weiterbrennt."))
            #expect(html.contains(#"<p class="macro__label" aria-hidden="true">EIWEISS</p>"#))
            #expect(html.contains(#"<h2 class="weight-sheet__title" id="weight-sheet-title">Gewicht eintragen</h2>"#))
            #expect(html.contains(#"<label class="visually-hidden" for="weight-whole">Ganze kg</label>"#))
            #expect(html.contains(#"<span class="weight-picker__dot" aria-hidden="true">,</span>"#))
            #expect(html.contains(#"<a class="button button--primary log-meal" id="log-meal" href="/meals/new">Mahlzeit eintragen</a>"#))
            #expect(html.contains(#"<span class="visually-hidden">Fortschritt</span>"#))
            #expect(html.contains(#"<nav class="tabbar" aria-label="Hauptnavigation">"#))
            #expect(!html.contains("Eating window") && !html.contains(" cal<") && !html.contains(">Log Weight<"))

            let english = try await Self.get(client, session, "/dashboard", german: false).text
            #expect(english.contains(#"<html lang="en">"#))
            #expect(english.contains("0 of 2,759 cal"))
            #expect(english.contains("Eating window: 12pm - 6pm"))
            #expect(english.contains("Day 4 of 14 · Maintenance phase · next switch Thu 12 Mar"))
            #expect(english.contains(#"<span class="visually-hidden">Progress</span>"#))
        }
    }

    @Test("after a meal and a weight: 1.250 von 2.759 kcal (the weight counts from tomorrow), 79,4 kg, 1 Tag in Folge, the link to today's meals")
    func dashboardWithMealAndWeight() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await WebDashboardSession.withProfile(client)
            _ = try await session.api(client, .post, "/api/v1/meals", json: ["name": "Mittag", "calories": 1_250, "protein": 85, "carbs": 142, "fat": 38])
            _ = try await session.api(client, .post, "/api/v1/weights", json: ["kg": 79.4])
            let html = try await Self.get(client, session, "/dashboard").text
            #expect(html.contains("1.250 von 2.759 kcal"))
            #expect(html.contains(#"<span class="ring__eaten" id="ring-eaten">1.250</span>"#))
            #expect(html.contains("1 Tag in Folge"))
            #expect(html.contains("79,4 kg"))
            #expect(html.contains("85/160 g"))
            #expect(html.contains(#"href="/meals/today">Heutige Mahlzeiten · 1 Mahlzeit</a>"#))
        }
    }

    @Test("the Progress tab in German: empty states, then So., 1. März with 79,5 kg and 1.250 kcal against 2.756 kcal (from the day before's 79,8 kg)")
    func progressPage() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await WebDashboardSession.withProfile(client)
            let empty = try await Self.get(client, session, "/progress").text
            #expect(empty.contains(#"<h1 class="progress-title">Fortschritt</h1>"#))
            #expect(empty.contains("Noch keine Gewichtseinträge"))
            #expect(empty.contains("Noch keine Mahlzeiten eingetragen"))
            #expect(empty.contains(#"href="/meals/new">Erste Mahlzeit eintragen</a>"#))

            for (daysAgo, kg) in [(2, 80.2), (1, 79.8), (0, 79.5)] {
                let loggedAt = ISO8601DateFormatter().string(from: t.clock.now.addingTimeInterval(Double(-daysAgo) * 86_400))
                _ = try await session.api(client, .post, "/api/v1/weights", json: ["kg": kg, "loggedAt": loggedAt])
            }
            _ = try await session.api(client, .post, "/api/v1/meals", json: ["name": "Mittag", "calories": 1_250])
            let html = try await Self.get(client, session, "/progress").text
            // The account began today, so the chart has one day (issue 17: no days from before the account).
            #expect(html.contains("1 von 1 Tag eingetragen · Ø 1.250 kcal"))
            #expect(html.contains(#"id="calories-title">Kalorien · heute</h2>"#))
            #expect(html.contains(
                #"<th scope="row"><a href="/dashboard" aria-label="So., 1. März: Gewicht ändern oder löschen">So., 1. März</a></th><td>79,5 kg</td><td>79,8 kg</td>"#))
            // The day's target uses the latest weight before it began, 79.8 kg: (798 + 1,125 − 150 + 5) × 1.55 = 2,755.9.
            #expect(html.contains("<td>1.250 kcal</td><td>2.756 kcal</td><td>1.506 darunter</td>"))
            #expect(html.contains("Dein Trend erscheint nach 7 Wiegungen (bisher 3)."))
            #expect(html.contains("<summary>Gewichtseinträge als Tabelle anzeigen</summary>"))

            let english = try await Self.get(client, session, "/progress", german: false).text
            #expect(english.contains("<td>1,250 cal</td><td>2,756 cal</td><td>1,506 under</td>"))
            #expect(english.contains("1 of 1 day logged · average 1,250 cal"))
        }
    }

    // MARK: API messages

    @Test("the weight and tip APIs answer in German: kg and lb together, an unknown weight, an unknown tip")
    func apiMessages() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile()
            let both = try await Self.api(client, .post, "/api/v1/weights", session, json: ["kg": 80, "lb": 176])
            #expect(both.status == .unprocessableContent)
            #expect(try both.errorDetail().fields == ["kg": "Sende kg oder lb, nicht beides"])

            let missing = try await Self.api(client, .delete, "/api/v1/weights/\(UUID().uuidString)", session)
            #expect(missing.status == .notFound)
            #expect(try missing.errorDetail().message == "Gewichtseintrag nicht gefunden")

            let tip = try await Self.api(client, .post, "/api/v1/tips/no-such-tip/dismiss", session)
            #expect(tip.status == .notFound)
            #expect(try tip.errorDetail().message == "Tipp nicht gefunden")

            let english = try await client.api(.post, "/api/v1/tips/no-such-tip/dismiss", session)
            #expect(try english.errorDetail().message == "Tip not found")
        }
    }

    @Test("the scripts' strings exist in both languages: the weight picker's toasts and button")
    func scriptStrings() {
        #expect(Strings.german("weights.logged") == "Gewicht eingetragen!")
        #expect(Strings.german("weights.saving") == "Wird gespeichert …")
        #expect(Strings.english("weights.streakActivated") == "Streak activated!")
        #expect(Strings.german.scriptJSON.contains(#""weights.invalid":"Bitte gib ein gültiges Gewicht ein""#))
    }
}
