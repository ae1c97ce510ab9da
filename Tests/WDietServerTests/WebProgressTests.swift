import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WDietServer
import WDietCore
import WDietStore
import WDietTestSupport

@Suite("Web: progress charts")
struct ProgressChartTests {
    static let today = Fixtures.date("2026-03-01")

    @Test("three weights 80, 79, 78 kg: dots from the top-left to the bottom-right of the 78–80 plot, the average between")
    func weightChartPoints() {
        let days = WeightHistory.days([
            (Self.today.adding(days: -2), 80), (Self.today.adding(days: -1), 79), (Self.today, 78),
        ])
        let chart = WeightChart(days: days, unit: .kg, today: Self.today)
        // The plot spans x 36…312 and y 10…138 (128 px for 2 kg): 80 kg at y 10, 79 at 74, 78 at 138.
        #expect(chart.dots.map { "\($0.x),\($0.y)" } == ["36,10", "174,74", "312,138"])
        // Averages 80, 79.5, 79 kg.
        #expect(chart.averagePath == "M36 10 L174 42 L312 74")
        #expect(chart.axisLabels.map(\.text) == ["80", "78"])
        #expect(chart.rows.map(\.weight) == ["78.0 kg", "79.0 kg", "80.0 kg"], "newest first")
        // Each row opens its day's dashboard, where the weight is edited or deleted (today's without a date).
        #expect(chart.rows.map(\.dayPath) == ["/dashboard", "/dashboard?date=2026-02-28", "/dashboard?date=2026-02-27"])
        #expect(chart.rows.last?.dayLinkLabel == "Fri 27 Feb: edit or delete its weight")
        // A weight more than a year back has no day page to open.
        let old = WeightChart(days: WeightHistory.days([(Self.today.adding(days: -366), 81), (Self.today.adding(days: -365), 80)]),
                              unit: .kg, today: Self.today)
        #expect(old.rows.map(\.dayPath) == ["/dashboard?date=2025-03-01", nil])
        #expect(chart.latestAverage == "79.0 kg")
        #expect(chart.trend == nil)
        #expect(chart.trendHint == "Your trend appears after 7 weigh-ins (3 so far).")
    }

    @Test("one weight sits in the middle of a 2 kg band; the 7th weigh-in brings the trend")
    func singleAndTrend() {
        let single = WeightChart(days: WeightHistory.days([(Self.today, 70.4)]), unit: .kg, today: Self.today)
        #expect(single.dots.map { "\($0.x),\($0.y)" } == ["174,48.4"])
        #expect(single.axisLabels.map(\.text) == ["71", "69"])

        let falling = (0..<8).map { (Self.today.adding(days: $0 - 7), 81.0 - 0.3 * Double($0)) }
        let chart = WeightChart(days: WeightHistory.days(falling), unit: .kg, today: Self.today)
        #expect(chart.trendLabel == "Trending down")
        #expect(chart.trend == "📉")
        #expect(chart.trendHint == nil)
        #expect(chart.latest == "78.9 kg")
        #expect(chart.accessibilityLabel.contains("Latest 78.9 kg, 7-day average 79.8 kg, trending down."))
    }

    @Test("no weights: the empty state")
    func emptyWeights() {
        let chart = WeightChart(days: [], unit: .kg, today: Self.today)
        #expect(!chart.hasEntries)
        #expect(chart.dots.isEmpty && chart.averagePath.isEmpty)
        #expect(chart.accessibilityLabel == "No weight entries yet")
    }

    @Test("calories: 1,100 of a 2,000 target on a 2,200 scale is a bar of 64 px from y 74, the target line at y 21.6")
    func calorieBars() {
        let days = (0..<14).map { offset in
            CalorieChart.Day(date: Self.today.adding(days: offset - 13), kcal: offset == 13 ? 1_100 : 0, targetKcal: 2_000)
        }
        let chart = CalorieChart(days: days)
        #expect(chart.hasMeals)
        #expect(chart.bars.count == 14)
        let last = chart.bars[13]
        #expect(last.height == "64")
        #expect(last.y == "74")
        #expect(last.targetY == "21.6")
        #expect(!last.isOver)
        #expect(chart.rows.first?.eaten == "1,100 cal")
        #expect(chart.rows.first?.difference == "900 under")
        #expect(chart.rows[1].difference == "Nothing logged")
        #expect(chart.daysLogged == 1)
        #expect(chart.averageEaten == "1,100")
        // 2026-03-01 was a Sunday.
        #expect(last.dayLetter == "S" && chart.bars[12].dayLetter == "S" && chart.bars[11].dayLetter == "F")
    }

    @Test("a day over its target is marked; the scale grows so the bar still fits")
    func overTarget() {
        let chart = CalorieChart(days: [CalorieChart.Day(date: Self.today, kcal: 3_000, targetKcal: 2_000)])
        #expect(chart.bars[0].isOver)
        #expect(chart.rows[0].difference == "1,000 over")
        // Scale 3,300: the bar is 128 × 3000/3300 = 116.4 px high.
        #expect(chart.bars[0].height == "116.4")
    }
}

@Suite("Web: progress page")
struct ProgressPageTests {
    @Test("signed out, /progress goes to the welcome screen")
    func signedOut() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let response = try await client.execute(uri: "/progress", method: .get)
            #expect(response.status == .seeOther)
            #expect(response.headers[.location] == "/")
        }
    }

    @Test("a new user sees the empty states; with weights and a meal, the charts and their tables")
    func page() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await WebDashboardSession.withProfile(client)
            let empty = try await session.get(client, "/progress")
            #expect(empty.status == .ok)
            #expect(empty.text.contains("No weight entries yet"))
            #expect(empty.text.contains("No meals logged yet"))

            for (daysAgo, kg) in [(2, 80.2), (1, 79.8), (0, 79.5)] {
                let loggedAt = ISO8601DateFormatter().string(from: t.clock.now.addingTimeInterval(Double(-daysAgo) * 86_400))
                let saved = try await session.api(client, .post, "/api/v1/weights", json: ["kg": kg, "loggedAt": loggedAt])
                #expect(saved.status == .created)
            }
            let meal = try await session.api(client, .post, "/api/v1/meals", json: ["name": "Lunch", "calories": 1_250])
            #expect(meal.status == .created)
            let html = try await session.get(client, "/progress").text
            #expect(!html.contains("No weight entries yet"))
            #expect(html.components(separatedBy: "class=\"weight-chart__dot\"").count - 1 == 3)
            // The account began today: no "Nothing logged" days from before it existed (issue 17).
            #expect(html.components(separatedBy: "class=\"calorie-chart__bar").count - 1 == 1)
            // One day shown: "1 of 1 day", and the heading says "today" rather than "last 14 days".
            #expect(html.contains("1 of 1 day logged · average 1,250 cal"))
            #expect(html.contains(#"<h2 class="chart-card__title" id="calories-title">Calories · today</h2>"#))
            #expect(!html.contains("Nothing logged"))
            #expect(html.contains(
                #"<th scope="row"><a href="/dashboard" aria-label="Sun 1 Mar: edit or delete its weight">Sun 1 Mar</a></th><td>79.5 kg</td><td>79.8 kg</td>"#))
            // The target of 2026-03-01 uses the latest weight before it began, the 29th's 79.8 kg (the day's own 79.5 kg
            // counts from the next day): BMR 1,778, × 1.55 = 2,755.9 → 2,756 cal.
            #expect(html.contains("<td>1,250 cal</td><td>2,756 cal</td><td>1,506 under</td>"))
            #expect(html.contains("aria-current=\"page\"><span class=\"tabbar__icon\" aria-hidden=\"true\">📊"))
        }
    }

    @Test("the calorie days start on the account's first day, or earlier where meals were logged (an import)")
    func daysSinceStart() throws {
        let start = try #require(LocalDate(year: 2026, month: 3, day: 10))
        let days = try (0..<5).map { offset in
            CalorieChart.Day(date: try #require(LocalDate(year: 2026, month: 3, day: 7 + offset)), kcal: offset == 1 ? 900 : 0, targetKcal: 2_000)
        }
        // 7 (empty, before), 8 (900 kcal, before: kept, and so is the empty 9th after it), 10 and 11.
        #expect(ProgressPages.sinceStart(days, started: start).map(\.date.day) == [8, 9, 10, 11])
        #expect(ProgressPages.sinceStart(Array(days.dropFirst(2)), started: start).map(\.date.day) == [10, 11])
    }
}
