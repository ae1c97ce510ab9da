import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WDietServer
import WDietCore
import WDietStore
import WDietTestSupport

/// Issue 17 "any day": which days a page may show, the day switcher's links, and the dashboard and the day's meals
/// of a past day (TestApp's clock: 2026-03-01 09:00 UTC; the profile's zone is Europe/Berlin, UTC+1 in winter).
@Suite("Web: any day")
struct WebAnyDayTests {
    static let today = Fixtures.date("2026-03-01")

    @Test("a day is today when absent, else a year back through today; anything else says why")
    func pageDayRule() throws {
        #expect(try PageDay(text: nil, today: Self.today).date == Self.today)
        #expect(try PageDay(text: "", today: Self.today).isToday)
        #expect(try PageDay(text: "2026-03-01", today: Self.today).isToday)
        // 2025 is not a leap year: 365 days before 2026-03-01 is 2025-03-01, the first day allowed.
        let first = try PageDay(text: "2025-03-01", today: Self.today)
        #expect(first.date == first.first && first.first == Fixtures.date("2025-03-01"))
        #expect(first.query == "?date=2025-03-01")
        func refusal(_ text: String) -> String? {
            do {
                _ = try PageDay(text: text, today: Self.today)
                return nil
            } catch {
                #expect(error.status == .badRequest)
                return error.message
            }
        }
        #expect(refusal("2025-02-28") == "28 Feb 2025 is more than a year back. You can go back to 1 Mar 2025.")
        #expect(refusal("2026-03-02") == "2 Mar 2026 is in the future. You can look at and log days up to today.")
        #expect(refusal("2026-02-30") == "“2026-02-30” is not a date. Days are written YYYY-MM-DD, like 2026-03-01.")
        #expect(refusal("yesterday")?.hasPrefix("“yesterday” is not a date") == true)
        let german = Strings.$current.withValue(.german) { refusal("2026-03-02") }
        #expect(german == "Der 02.03.2026 liegt in der Zukunft. Du kannst Tage bis heute ansehen und eintragen.")
    }

    @Test("the switcher: the day before and after, none before the first day or after today, Today from a past day")
    func dayNav() throws {
        let yesterday = DayNavView(day: try PageDay(text: "2026-02-28", today: Self.today), basePath: "/dashboard")
        #expect(yesterday.label == "Yesterday")
        #expect(yesterday.previousPath == "/dashboard?date=2026-02-27")
        #expect(yesterday.nextPath == "/dashboard", "the day after yesterday is today: no date in its URL")
        #expect(!yesterday.isToday && yesterday.min == "2025-03-01" && yesterday.max == "2026-03-01")
        let today = DayNavView(day: PageDay(date: Self.today, today: Self.today), basePath: "/meals/today")
        #expect(today.label == "Today" && today.nextPath == nil && today.previousPath == "/meals/today?date=2026-02-28")
        let first = DayNavView(day: try PageDay(text: "2025-03-01", today: Self.today), basePath: "/dashboard")
        #expect(first.previousPath == nil && first.label == "Sat 1 Mar")
    }

    @Test("a past day's dashboard: its meals against its targets, no weight prompt; bad days are 400 pages")
    func pastDashboard() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await WebDashboardSession.withProfile(client)
            let logged = try await session.api(client, .post, "/api/v1/meals", json: [
                "name": "Dinner", "calories": 900, "protein": 50, "loggedAt": "2026-02-27T18:30:00Z",
            ])
            #expect(logged.status == .created)
            let html = try await session.get(client, "/dashboard?date=2026-02-27").text
            #expect(html.contains("900 of 2,759 cal"))
            #expect(html.contains("Dashboard · Fri 27 Feb"))
            #expect(html.contains("href=\"/meals/new?date=2026-02-27\""))
            #expect(html.contains("href=\"/meals/today?date=2026-02-27\""))
            #expect(html.contains("data-logged-at=\"2026-02-27T11:00:00"), "the day's noon in Berlin")
            #expect(!html.contains("id=\"weight-prompt\""))
            // Today has nothing yet.
            let todayHTML = try await session.get(client, "/dashboard").text
            #expect(todayHTML.contains("0 of 2,759 cal") && todayHTML.contains("id=\"weight-prompt\""))

            for (path, words) in [
                ("/dashboard?date=2026-03-02", "is in the future"), ("/meals/today?date=2025-02-28", "more than a year back"),
                ("/dashboard?date=2026-13-01", "is not a date"),
            ] {
                let refused = try await session.get(client, path)
                #expect(refused.status == .badRequest, "\(path)")
                #expect(refused.text.contains(words), "\(path)")
            }
        }
    }

    @Test("a past day's meals; an edit changes the time on the meal's own day and returns to that day")
    func pastMeals() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await WebDashboardSession.withProfile(client)
            let logged = try await session.api(client, .post, "/api/v1/meals", json: [
                "name": "Toast", "calories": 250, "loggedAt": "2026-02-20T08:00:00Z",
            ])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(logged.text.utf8)) as? [String: Any])
            let id = try #require(object["id"] as? String)
            let list = try await session.get(client, "/meals/today?date=2026-02-20").text
            #expect(list.contains("Meals of Fri 20 Feb") && list.contains("Toast"))
            // Against that day's target (Day 51 of the plan is a diet-phase day: not today's 2,759).
            let api = try await session.get(client, "/api/v1/dashboard?date=2026-02-20").text
            let parsed = try JSONSerialization.jsonObject(with: Data(api.utf8)) as? [String: Any]
            let target = (parsed?["targets"] as? [String: Any])?["calories"] as? Int
            #expect(target != nil && target != 2_759)
            #expect(list.contains("250 / \(Strings.english.number(target ?? 0)) cal"))
            #expect(!(try await session.get(client, "/meals/today").text.contains("Toast")))

            let edit = try await session.get(client, "/meals/\(id)/edit").text
            #expect(edit.contains("value=\"09:00\"") && edit.contains("href=\"/meals/today?date=2026-02-20\""))
            let saved = try await client.execute(
                uri: "/meals/\(id)/edit", method: .post,
                headers: [.cookie: session.cookie, .contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "_csrf=\(session.csrf)&name=Toast&calories=250&time=21%3A45")
            )
            #expect(saved.status == .seeOther)
            #expect(saved.headers[.location] == "/meals/today?updated=\(id)&date=2026-02-20")
            let day = try await session.get(client, "/api/v1/meals?date=2026-02-20").text
            // 21:45 in Berlin is 20:45 UTC, on the same local day.
            #expect(day.contains("\"loggedAt\":\"2026-02-20T20:45:00"), "\(day)")

            let refused = try await client.execute(
                uri: "/meals/\(id)/edit", method: .post,
                headers: [.cookie: session.cookie, .contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "_csrf=\(session.csrf)&name=Toast&calories=250&time=25%3A00")
            )
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("Please enter a time, like 12:30"))
        }
    }


    @Test("a time on a meal's day in Berlin, across both clock changes of 2026")
    func timeOnTheMealsDay() {
        let berlin = Fixtures.zone("Europe/Berlin")
        func at(_ time: String, _ day: String) -> Date? {
            MealDayForm.minuteOfDay(time).map { MealDayForm.instant(minuteOfDay: $0, on: Fixtures.date(day), in: berlin) }
        }
        #expect(at("08:00", "2026-02-20") == Fixtures.utc("2026-02-20T07:00:00Z"))
        #expect(at("23:59", "2026-02-20") == Fixtures.utc("2026-02-20T22:59:00Z"))
        // 29 March: 02:00 CET becomes 03:00 CEST. 03:30 is CEST; 02:30 never happens and reads as 03:30.
        #expect(at("03:30", "2026-03-29") == Fixtures.utc("2026-03-29T01:30:00Z"))
        #expect(at("02:30", "2026-03-29") == Fixtures.utc("2026-03-29T01:30:00Z"))
        #expect(at("01:30", "2026-03-29") == Fixtures.utc("2026-03-29T00:30:00Z"))
        // 25 October: 03:00 CEST becomes 02:00 CET. 02:30 happens twice: the first; 10:00 is CET.
        #expect(at("02:30", "2026-10-25") == Fixtures.utc("2026-10-25T00:30:00Z"))
        #expect(at("10:00", "2026-10-25") == Fixtures.utc("2026-10-25T09:00:00Z"))
        #expect(MealDayForm.timeText(Fixtures.utc("2026-10-25T09:00:00Z"), in: berlin) == "10:00")
        for text in ["24:00", "12:60", "noon", "1230", ""] { #expect(MealDayForm.minuteOfDay(text) == nil, "\(text)") }
        #expect(MealDayForm.minuteOfDay("7:05") == 425)
    }

    @Test("the dashboard lists the day's weights with Edit and Delete; another day's stay off it")
    func dayWeights() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await WebDashboardSession.withProfile(client)
            for (kg, at) in [(80.2, "2026-02-27T07:30:00Z"), (79.9, "2026-02-27T18:00:00Z"), (79.5, "2026-02-28T07:00:00Z")] {
                #expect(try await session.api(client, .post, "/api/v1/weights", json: ["kg": kg, "loggedAt": at]).status == .created)
            }
            let html = try await session.get(client, "/dashboard?date=2026-02-27").text
            // Berlin times; the day's current value is the later one.
            #expect(html.contains("Weights logged on Fri 27 Feb"))
            #expect(html.contains("aria-label=\"Edit weight 80.2 kg, 8:30 AM\"") && html.contains("data-value=\"80.2\""))
            #expect(html.contains("aria-label=\"Delete weight 79.9 kg, 7:00 PM\""))
            #expect(!html.contains("79.5 kg, "))
            #expect(html.contains("id=\"weight-card-value\">79.9 kg<"))
            let today = try await session.get(client, "/dashboard").text
            #expect(!today.contains("weight-entries__list"))
        }
    }
}
