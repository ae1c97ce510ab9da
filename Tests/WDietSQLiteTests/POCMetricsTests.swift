import Foundation
import GRDB
import Testing
import WDietStore
import WDietTestSupport
@testable import WDietSQLite

@Suite("POC metrics (004 Story 5.4) on a generated population with known answers")
struct POCMetricsTests {
    static func populated() async throws -> CoachTestStores {
        let stores = try CoachTestStores()
        try await POCMetricsPopulation.write(users: stores.users, analytics: stores.analytics) { userId, eventId in
            try await stores.database.writer.write { db in
                try db.execute(
                    sql: "UPDATE analytics_events SET deletedAt = '2026-04-01T00:00:00.000Z' WHERE id = ? AND userId = ?",
                    arguments: [WireFormat.idText(eventId), WireFormat.idText(userId)]
                )
            }
        }
        return stores
    }

    @Test("March cohort: activation 80 %, Week-1 retention 50 %, first cycle 30 %, education 25 %, continuation 30 of 40")
    func marchCohort() async throws {
        let stores = try await Self.populated()
        let metrics = try await SQLitePOCMetricsStore(database: stores.database)
            .pocMetrics(startedFrom: Fixtures.utc("2026-03-01T00:00:00Z"), to: Fixtures.utc("2026-04-01T00:00:00Z"))
        #expect(metrics.cohort == 100)
        #expect(metrics.activation == .init(users: 80, outOf: 100))
        #expect(metrics.activation.rate == 0.8)
        #expect(metrics.weekOneRetention == .init(users: 50, outOf: 100))
        #expect(metrics.firstCycleCompletion == .init(users: 30, outOf: 100))
        #expect(metrics.educationEngagement == .init(users: 25, outOf: 100))
        #expect(metrics.phaseSwitchContinuation == .init(users: 30, outOf: 40))
        #expect(metrics.phaseSwitchContinuation.rate == 0.75)
    }

    @Test("no period: the 10 April starters join the cohort and dilute every rate but continuation")
    func everyone() async throws {
        let stores = try await Self.populated()
        let metrics = try await SQLitePOCMetricsStore(database: stores.database).pocMetrics(startedFrom: nil, to: nil)
        #expect(metrics.cohort == 110)
        #expect(metrics.activation == .init(users: 80, outOf: 110))
        #expect(metrics.phaseSwitchContinuation == .init(users: 30, outOf: 40))
    }

    @Test("an empty period has no rates rather than a division by zero")
    func emptyPeriod() async throws {
        let stores = try await Self.populated()
        let metrics = try await SQLitePOCMetricsStore(database: stores.database)
            .pocMetrics(startedFrom: Fixtures.utc("2025-01-01T00:00:00Z"), to: Fixtures.utc("2025-02-01T00:00:00Z"))
        #expect(metrics.cohort == 0)
        #expect(metrics.activation.rate == nil)
        #expect(metrics.phaseSwitchContinuation.rate == nil)
    }
}
