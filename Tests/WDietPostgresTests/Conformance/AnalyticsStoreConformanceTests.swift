import Foundation
import Testing
import WDietStore
import WDietTestSupport

/// `AnalyticsStore` on SQLite and PostgreSQL: each event recorded once, listed oldest first.
@Suite("Analytics store conformance")
struct AnalyticsStoreConformanceTests {
    @Test(arguments: AccountBackendKind.allCases)
    func recordsEventsAndListsThemOldestFirst(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            let user = try await b.makeUser()
            let exit = AnalyticsEvent(
                name: .screenExit, properties: ["screen_name": "dashboard", "time_spent_seconds": "42"],
                occurredAt: Fixtures.utc("2026-03-01T08:05:00Z") + 0.25)
            let start = AnalyticsEvent(name: .sessionStart, occurredAt: Fixtures.utc("2026-03-01T08:00:00Z"))
            let sameInstant = AnalyticsEvent(name: .screenView, properties: ["screen_name": "dashboard"], occurredAt: start.occurredAt)
            try await b.analytics.recordEvent(exit, userId: user)
            try await b.analytics.recordEvent(start, userId: user)
            try await b.analytics.recordEvent(sameInstant, userId: user)

            // By instant, then in the order recorded.
            #expect(try await b.analytics.events(userId: user) == [start, sameInstant, exit])
            let stored = try await b.analyticsRows()
            #expect(stored.map(\.name) == ["screen_exit", "session_start", "screen_view"])
            #expect(stored.first?.properties == ["screen_name": "dashboard", "time_spent_seconds": "42"])
            #expect(stored.first?.occurredAt == Fixtures.utc("2026-03-01T08:05:00Z") + 0.25)
            // Each draws the next version after the user's own row's.
            let counter = try await b.versionCounter(userId: user)
            #expect(stored.map(\.version) == [counter - 2, counter - 1, counter])
            let other = try await b.makeUser()
            #expect(try await b.analytics.events(userId: other) == [])
        }
    }

    @Test(arguments: AccountBackendKind.allCases)
    func recordingTheSameEventTwiceStoresItOnce(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            let user = try await b.makeUser()
            let event = AnalyticsEvent(name: .mealLogged, properties: ["source": "manual"], occurredAt: Fixtures.utc("2026-03-01T12:00:00Z"))
            try await b.analytics.recordEvent(event, userId: user)
            let counter = try await b.versionCounter(userId: user)
            var retried = event
            retried.properties = ["source": "database"]
            try await b.analytics.recordEvent(retried, userId: user)

            #expect(try await b.analytics.events(userId: user) == [event])
            #expect(try await b.versionCounter(userId: user) == counter)
            // Another user's id is not theirs to reuse.
            let other = try await b.makeUser()
            await #expect(throws: StoreError.conflict("This id is already in use")) {
                try await b.analytics.recordEvent(event, userId: other)
            }
            await #expect(throws: StoreError.notFound("User not found")) {
                try await b.analytics.recordEvent(AnalyticsEvent(name: .sessionEnd, occurredAt: event.occurredAt), userId: UUID())
            }
            #expect(try await b.count(.analyticsEvents) == 1)
        }
    }

    @Test("deleted events are not listed", arguments: AccountBackendKind.allCases)
    func tombstonedEventsAreHidden(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            let user = try await b.makeUser()
            let kept = AnalyticsEvent(name: .weightLogged, occurredAt: Fixtures.utc("2026-03-01T07:00:00Z"))
            let deleted = AnalyticsEvent(name: .weightLogged, occurredAt: Fixtures.utc("2026-03-01T07:30:00Z"))
            try await b.analytics.recordEvent(kept, userId: user)
            try await b.analytics.recordEvent(deleted, userId: user)
            try await b.tombstoneEvent(deleted.id)
            #expect(try await b.analytics.events(userId: user) == [kept])
        }
    }
}
