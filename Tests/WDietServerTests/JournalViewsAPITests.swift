import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WDietServer
import WDietCore
import WDietStore
import WDietTestSupport

/// The Journal views' API (issue 18, H4) on both backends: search, calendar, insights, a food, the recap, on this
/// day, milestones, reminders; and the pages render. The test clock is 1 March 2026, 10:00 in Berlin (a Sunday).
@Suite("Journal views: API and pages")
struct JournalViewsAPITests {
    static let today = Fixtures.date("2026-03-01")

    static func add(_ t: TestApp, _ userId: UUID, _ date: String, _ time: String, _ text: String, _ category: JournalCategory? = nil) async throws -> JournalEntry {
        let entry = JournalEntry(
            date: Fixtures.date(date), time: JournalTime(time)!, inputType: .text, rawInput: text, processedDescription: text,
            category: category, createdAt: Fixtures.utc("2026-03-01T08:00:00Z"))
        return try await t.services.journal.save(entry, baseVersion: nil, userId: userId, today: today).entry
    }

    @Test("search finds every word in any order, newest first; calendar counts each day of the month", arguments: StoreBackend.allCases)
    func searchAndCalendar(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInWithProfile()
            let other = try await client.signInWithProfile()
            let old = try await Self.add(t, session.userId, "2026-02-03", "08:00", "Masala dosa with chutney", .breakfast)
            let new = try await Self.add(t, session.userId, "2026-02-27", "13:00", "chutney sandwich, DOSA on the side", .lunch)
            _ = try await Self.add(t, session.userId, "2026-02-27", "19:00", "rice and dal", .dinner)
            _ = try await Self.add(t, session.userId, "2026-02-27", "21:00", "chai")
            _ = try await Self.add(t, other.userId, "2026-02-27", "08:00", "dosa of someone else")

            let found = try await client.api(.get, "/api/v1/journal/search?q=dosa%20chutney", session)
            #expect(found.status == .ok)
            let entries = try #require(try found.object()["entries"] as? [[String: Any]])
            #expect(entries.map { ($0["id"] as? String)?.lowercased() } == [new.id.uuidString.lowercased(), old.id.uuidString.lowercased()])
            #expect(entries.map { $0["processedDescription"] as? String } == ["chutney sandwich, DOSA on the side", "Masala dosa with chutney"])
            let none = try await client.api(.get, "/api/v1/journal/search?q=", session)
            #expect((try none.object()["entries"] as? [Any])?.count == 0)
            let long = try await client.api(.get, "/api/v1/journal/search?q=" + String(repeating: "a", count: 201), session)
            #expect(long.status == .badRequest)

            let calendar = try await client.api(.get, "/api/v1/journal/calendar?month=2026-02", session)
            #expect(calendar.status == .ok)
            let object = try calendar.object()
            #expect(object["month"] as? String == "2026-02")
            let days = try #require(object["days"] as? [[String: Any]])
            #expect(days.count == 28)
            #expect(days[2]["date"] as? String == "2026-02-03" && days[2]["count"] as? Int == 1 && days[2]["level"] as? Int == 1)
            #expect(days[26]["count"] as? Int == 3 && days[26]["level"] as? Int == 3)
            #expect(days.map { $0["count"] as? Int ?? -1 }.reduce(0, +) == 4, "the other user's entry is not counted")
            for bad in ["2026-04", "2026-13", "march"] {
                let refused = try await client.api(.get, "/api/v1/journal/calendar?month=\(bad)", session)
                #expect(refused.status == .badRequest, "\(bad)")
                #expect(try refused.errorDetail().fields?["month"] != nil)
            }
        }
    }

    @Test("insights of the last 7 days and all time; a food's timeline; a bad period is 400", arguments: StoreBackend.allCases)
    func insightsAndItem(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInWithProfile()
            _ = try await Self.add(t, session.userId, "2026-02-20", "08:00", "idli sambar", .breakfast)
            _ = try await Self.add(t, session.userId, "2026-02-24", "08:00", "idli sambar", .breakfast)
            _ = try await Self.add(t, session.userId, "2026-02-25", "08:00", "idli", .breakfast)
            _ = try await Self.add(t, session.userId, "2026-03-01", "19:00", "dosa", .dinner)

            let week = try await client.api(.get, "/api/v1/journal/insights?period=week", session)
            #expect(week.status == .ok)
            let object = try week.object()
            #expect(object["from"] as? String == "2026-02-23" && object["through"] as? String == "2026-03-01")
            #expect(object["totalEntries"] as? Int == 3)
            #expect(object["consistency"] as? Int == 43, "3 of 7 days")
            #expect(object["currentStreak"] as? Int == 1)
            let top = try #require(object["topItems"] as? [[String: Any]])
            #expect(top.map { $0["name"] as? String } == ["idli", "dosa", "sambar"])
            #expect(top.map { $0["count"] as? Int } == [2, 1, 1])
            let categories = try #require(object["categories"] as? [[String: Any]])
            #expect(categories.map { $0["category"] as? String } == ["breakfast", "dinner"])
            #expect(number(categories.first?["percentage"]).map { ($0 * 10).rounded() / 10 } == 66.7)
            #expect((object["dailyCounts"] as? [Any])?.count == 7)
            let trend = try #require(object["weekOverWeek"] as? [String: Any])
            #expect(trend["thisWeek"] as? Int == 3 && trend["lastWeek"] as? Int == 1 && trend["percentChange"] as? Int == 200)
            let records = try #require(object["records"] as? [String: Any])
            #expect(records["longestStreak"] as? Int == 2 && records["uniqueFoods"] as? Int == 3)

            let all = try await client.api(.get, "/api/v1/journal/insights?period=allTime", session)
            #expect(try all.object()["from"] as? String == "2026-02-20")
            #expect(try all.object()["totalEntries"] as? Int == 4)
            let bad = try await client.api(.get, "/api/v1/journal/insights?period=decade", session)
            #expect(bad.status == .badRequest)

            let item = try await client.api(.get, "/api/v1/journal/items/IDLI?period=allTime", session)
            #expect(item.status == .ok)
            let food = try item.object()
            #expect(food["total"] as? Int == 3)
            #expect(food["lastEaten"] as? String == "2026-02-25")
            let weekdays = try #require(food["weekdays"] as? [[String: Any]])
            // 20 Feb 2026 is a Friday, 24 a Tuesday, 25 a Wednesday.
            #expect(weekdays.map { $0["count"] as? Int } == [0, 1, 1, 0, 1, 0, 0])
            let hours = try #require(food["hours"] as? [[String: Any]])
            #expect(hours[8]["count"] as? Int == 3)
        }
    }

    @Test("the recap of this week and of last week; a week in the future is 400", arguments: StoreBackend.allCases)
    func recap(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInWithProfile()
            for day in ["2026-02-17", "2026-02-18"] { _ = try await Self.add(t, session.userId, day, "08:00", "toast") }
            for day in ["2026-02-23", "2026-02-24", "2026-02-25", "2026-02-26", "2026-02-27", "2026-02-28"] {
                _ = try await Self.add(t, session.userId, day, "08:00", "poha")
            }
            let recap = try await client.api(.get, "/api/v1/journal/recap", session)
            #expect(recap.status == .ok)
            let object = try recap.object()
            #expect(object["weekStart"] as? String == "2026-02-23" && object["weekEnd"] as? String == "2026-03-01")
            #expect(object["totalEntries"] as? Int == 6 && object["lastWeekEntries"] as? Int == 2 && object["vsLastWeek"] as? Int == 4)
            #expect(object["daysLogged"] as? Int == 6 && object["missedDays"] as? Int == 1, "Sunday 1 March is today and empty")
            #expect(object["topFood"] as? String == "poha" && object["topFoodCount"] as? Int == 6)
            #expect(object["headlineType"] as? String == "topFood")
            #expect(object["headline"] as? String == "Poha was your week's favorite")
            #expect(object["cardURL"] as? String == "/journal/recap/card.svg?week=2026-02-23")

            let last = try await client.api(.get, "/api/v1/journal/recap?week=2026-02-18", session)
            let lastWeek = try last.object()
            #expect(lastWeek["weekStart"] as? String == "2026-02-16" && lastWeek["totalEntries"] as? Int == 2)
            #expect(lastWeek["headline"] as? String == "2 entries this week")
            let future = try await client.api(.get, "/api/v1/journal/recap?week=2026-03-02", session)
            #expect(future.status == .badRequest)
        }
    }

    @Test("milestones: the first check marks 10 as passed at 12 entries; 25 is celebrated once when crossed", arguments: StoreBackend.allCases)
    func milestones(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInWithProfile()
            for index in 0..<12 { _ = try await Self.add(t, session.userId, "2026-02-\(10 + index)", "08:00", "oats") }
            let first = try await client.api(.post, "/api/v1/journal/milestones/check", session)
            #expect(first.status == .ok)
            #expect(try first.object()["milestone"] == nil, "10 was passed before the journal was first checked")
            for index in 0..<13 { _ = try await Self.add(t, session.userId, "2026-01-\(10 + index)", "08:00", "oats") }
            let crossed = try await client.api(.post, "/api/v1/journal/milestones/check", session)
            #expect(try crossed.object()["milestone"] as? Int == 25)
            #expect(try crossed.object()["title"] as? String == "25 entries!")
            let again = try await client.api(.post, "/api/v1/journal/milestones/check", session)
            #expect(try again.object()["milestone"] == nil)
            // Stored as a synced row: a client pulls it.
            let row = try await t.services.sync.row(
                userId: session.userId, collection: "journal_milestones",
                id: JournalSettingsRow.id(userId: session.userId, collection: "journal_milestones"))
            let state = try SyncRules.decodeRow(JournalMilestoneState.self, try #require(row?.data))
            #expect(state == JournalMilestoneState(celebrated: [10, 25], lastCount: 25))
        }
    }

    @Test("reminders: the defaults, a saved choice, a bad time is 422", arguments: StoreBackend.allCases)
    func reminders(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { _, client in
            let session = try await client.signInWithProfile()
            let standard = try await client.api(.get, "/api/v1/journal/reminders", session)
            #expect(try standard.object()["dailyTime"] as? String == "20:00")
            #expect(try standard.object()["daily"] as? Bool == false)
            let saved = try await client.api(.put, "/api/v1/journal/reminders", session, json: [
                "daily": true, "dailyTime": "07:05", "weeklyRecap": false, "streakRisk": true,
            ])
            #expect(saved.status == .ok, "\(String(buffer: saved.body))")
            #expect(try saved.object()["dailyTime"] as? String == "07:05")
            let read = try await client.api(.get, "/api/v1/journal/reminders", session)
            #expect(try read.object()["daily"] as? Bool == true && read.object()["weeklyRecap"] as? Bool == false)
            let bad = try await client.api(.put, "/api/v1/journal/reminders", session, json: [
                "daily": true, "dailyTime": "25:00", "weeklyRecap": false, "streakRisk": true,
            ])
            #expect(bad.status == .unprocessableContent)
            #expect(try bad.errorDetail().fields?["dailyTime"] == "Choose a time as HH:MM, from 00:00 to 23:59.")
        }
    }

    @Test("on this day: the entries of a week, a month and a year ago", arguments: StoreBackend.allCases)
    func onThisDay(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInWithProfile()
            _ = try await Self.add(t, session.userId, "2026-02-22", "08:00", "poha")
            _ = try await Self.add(t, session.userId, "2026-02-01", "08:00", "upma")
            let response = try await client.api(.get, "/api/v1/journal/onthisday", session)
            let groups = try #require(try response.object()["groups"] as? [[String: Any]])
            #expect(groups.map { $0["key"] as? String } == ["week", "month", "year"])
            #expect(groups.map { $0["date"] as? String } == ["2026-02-22", "2026-02-01", "2025-03-01"])
            #expect(groups.map { ($0["entries"] as? [Any])?.count } == [1, 1, 0])
        }
    }
}
