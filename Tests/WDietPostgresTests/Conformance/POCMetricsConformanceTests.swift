import Foundation
import Testing
import WDietStore
import WDietTestSupport

/// The five metrics of 004 Story 5.4 on SQLite and PostgreSQL, on the generated population with known answers.
@Suite("POC metrics conformance")
struct POCMetricsConformanceTests {
    static func populate(_ b: AccountStoresBackend) async throws {
        try await POCMetricsPopulation.write(users: b.users, analytics: b.analytics) { _, eventId in
            try await b.tombstoneEvent(eventId)
        }
    }

    @Test("March cohort: activation 80 %, Week-1 retention 50 %, first cycle 30 %, education 25 %, continuation 30 of 40",
          arguments: AccountBackendKind.allCases)
    func marchCohort(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            try await Self.populate(b)
            let metrics = try await b.metrics.pocMetrics(
                startedFrom: Fixtures.utc("2026-03-01T00:00:00Z"), to: Fixtures.utc("2026-04-01T00:00:00Z"))
            #expect(metrics == POCMetrics(
                cohort: 100, activated: 80, retainedWeekOne: 50, completedFirstCycle: 30, openedEducation: 25,
                switchedPhase: 40, continuedAfterSwitch: 30))
            #expect(metrics.phaseSwitchContinuation.rate == 0.75)

            // No period: the 10 April starters join the cohort and dilute every rate but continuation.
            let everyone = try await b.metrics.pocMetrics(startedFrom: nil, to: nil)
            #expect(everyone == POCMetrics(
                cohort: 110, activated: 80, retainedWeekOne: 50, completedFirstCycle: 30, openedEducation: 25,
                switchedPhase: 40, continuedAfterSwitch: 30))
            // Half-open bounds: from April on, only the April starters.
            let april = try await b.metrics.pocMetrics(startedFrom: Fixtures.utc("2026-04-01T00:00:00Z"), to: nil)
            #expect(april.cohort == 10)
            #expect(april.activation == .init(users: 0, outOf: 10))
            // An empty period has no rates rather than a division by zero.
            let empty = try await b.metrics.pocMetrics(
                startedFrom: Fixtures.utc("2025-01-01T00:00:00Z"), to: Fixtures.utc("2025-02-01T00:00:00Z"))
            #expect(empty.cohort == 0)
            #expect(empty.activation.rate == nil)
            #expect(empty.phaseSwitchContinuation.rate == nil)
        }
    }

    @Test("the period is [from, to): a start exactly at `to` is out, exactly at `from` in", arguments: AccountBackendKind.allCases)
    func periodEdges(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            let start = Fixtures.utc("2026-03-01T08:00:00Z") + 0.5
            for offset in [0.0, 60] {
                let user = try await b.makeUser()
                try await b.analytics.recordEvent(AnalyticsEvent(name: .onboardingStarted, occurredAt: start + offset), userId: user)
            }
            #expect(try await b.metrics.pocMetrics(startedFrom: start, to: start + 60).cohort == 1)
            #expect(try await b.metrics.pocMetrics(startedFrom: start + 0.001, to: start + 60.001).cohort == 1)
            #expect(try await b.metrics.pocMetrics(startedFrom: start, to: start + 60.001).cohort == 2)
        }
    }

    /// Day 7 is [144 h, 168 h) after the start; "within 7 days" after the switch includes exactly 7 days.
    @Test("day and week edges are exact to the millisecond", arguments: AccountBackendKind.allCases)
    func dayEdges(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            let start = Fixtures.utc("2026-03-01T08:00:00Z") + 0.123
            let day: TimeInterval = 86_400
            // Meals at 144 h (day 7), 168 h − 1 ms (day 7), 144 h − 1 ms (day 6), 168 h (day 8); then sessions at
            // 27 days (day 28) and 27 days − 1 ms (day 27); switches followed by a meal exactly 7 days later and
            // 7 days + 1 ms later.
            let cases: [[(AnalyticsEventName, TimeInterval)]] = [
                [(.mealLogged, 6 * day), (.sessionStart, 27 * day), (.cyclePhaseSwitched, 14 * day), (.mealLogged, 21 * day)],
                [(.mealLogged, 7 * day - 0.001), (.sessionStart, 27 * day - 0.001),
                 (.cyclePhaseSwitched, 14 * day), (.mealLogged, 21 * day + 0.001)],
                [(.mealLogged, 6 * day - 0.001)],
                [(.mealLogged, 7 * day)],
            ]
            for events in cases {
                let user = try await b.makeUser()
                try await b.analytics.recordEvent(AnalyticsEvent(name: .onboardingStarted, occurredAt: start), userId: user)
                for (name, offset) in events {
                    try await b.analytics.recordEvent(AnalyticsEvent(name: name, occurredAt: start + offset), userId: user)
                }
            }
            let metrics = try await b.metrics.pocMetrics(startedFrom: nil, to: nil)
            #expect(metrics == POCMetrics(
                cohort: 4, activated: 0, retainedWeekOne: 2, completedFirstCycle: 1, openedEducation: 0,
                switchedPhase: 2, continuedAfterSwitch: 1))
        }
    }
}
