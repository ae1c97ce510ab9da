import Foundation
import GRDB
import Testing
import WDietStore
import WDietTestSupport

@Suite struct CoachAnalyticsStoreTests {
    @Test func namesTheFifteenCoreEventsIncludingEveryOneStory51Names() {
        let story51 = [
            "onboarding_started", "onboarding_step_completed", "onboarding_finished", "meal_logged", "weight_logged",
            "why_like_this_opened", "cycle_phase_switched", "session_start", "session_end", "screen_view", "screen_exit",
            "error_logged",
        ]
        // The 15 of 004, and the Journal's own (issue 18) beyond them.
        let raw = AnalyticsEventName.allCases.map(\.rawValue).filter { !$0.hasPrefix("journal_") }
        #expect(raw.count == 15)
        #expect(Set(raw).count == 15)
        #expect(AnalyticsEventName.allCases.map(\.rawValue).filter { $0.hasPrefix("journal_") } == ["journal_entry_added"])
        #expect(Set(story51).isSubset(of: Set(raw)))
    }

    @Test func recordsEventsAndListsThemOldestFirst() async throws {
        let stores = try CoachTestStores()
        let user = try await stores.makeUser()
        let exit = AnalyticsEvent(
            name: .screenExit, properties: ["screen_name": "dashboard", "time_spent_seconds": "42"],
            occurredAt: Fixtures.utc("2026-03-01T08:05:00Z"))
        let start = AnalyticsEvent(name: .sessionStart, occurredAt: Fixtures.utc("2026-03-01T08:00:00Z"))
        try await stores.analytics.recordEvent(exit, userId: user)
        try await stores.analytics.recordEvent(start, userId: user)

        #expect(try await stores.analytics.events(userId: user) == [start, exit])
        let stored = try await stores.database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT name, properties, occurredAt, version FROM analytics_events ORDER BY version")
        }
        #expect(stored.map { $0["name"] as String } == ["screen_exit", "session_start"])
        #expect(stored.first?["properties"] == #"{"screen_name":"dashboard","time_spent_seconds":"42"}"#)
        #expect(stored.first?["occurredAt"] == "2026-03-01T08:05:00.000Z")
        #expect(stored.map { $0["version"] as Int64 } == [2, 3])
    }

    @Test func recordingTheSameEventTwiceStoresItOnce() async throws {
        let stores = try CoachTestStores()
        let user = try await stores.makeUser()
        let event = AnalyticsEvent(name: .mealLogged, properties: ["source": "manual"], occurredAt: Fixtures.utc("2026-03-01T12:00:00Z"))
        try await stores.analytics.recordEvent(event, userId: user)
        try await stores.analytics.recordEvent(event, userId: user)

        #expect(try await stores.analytics.events(userId: user) == [event])
        let counter = try await stores.database.writer.read { db in try Int64.fetchOne(db, sql: "SELECT value FROM syncVersion") }
        #expect(counter == 2)
    }
}
