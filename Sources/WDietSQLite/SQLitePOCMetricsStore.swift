import Foundation
import GRDB
import WDietStore

/// `POCMetricsStore` on SQLite: one statement over `analytics_events` (see `POCMetrics` for the definitions).
public struct SQLitePOCMetricsStore: POCMetricsStore {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    static let sql = """
        WITH events AS (
            SELECT userId, name, occurredAt FROM analytics_events WHERE deletedAt IS NULL
        ),
        cohort AS (
            SELECT userId, MIN(occurredAt) AS startedAt FROM events WHERE name = 'onboarding_started'
            GROUP BY userId
            HAVING (:from IS NULL OR MIN(occurredAt) >= :from) AND (:to IS NULL OR MIN(occurredAt) < :to)
        ),
        days AS (
            SELECT e.userId, e.name, e.occurredAt,
                   CAST(julianday(e.occurredAt) - julianday(c.startedAt) AS INTEGER) + 1 AS day
            FROM events e JOIN cohort c ON c.userId = e.userId
            WHERE e.occurredAt >= c.startedAt
        ),
        switches AS (
            SELECT userId, MIN(occurredAt) AS switchedAt FROM days WHERE name = 'cycle_phase_switched' GROUP BY userId
        )
        SELECT
            (SELECT COUNT(*) FROM cohort),
            (SELECT COUNT(DISTINCT userId) FROM days WHERE name = 'onboarding_finished'),
            (SELECT COUNT(DISTINCT userId) FROM days WHERE name = 'meal_logged' AND day = 7),
            (SELECT COUNT(DISTINCT userId) FROM days WHERE name = 'session_start' AND day >= 28),
            (SELECT COUNT(DISTINCT userId) FROM days WHERE name = 'why_like_this_opened'),
            (SELECT COUNT(*) FROM switches),
            (SELECT COUNT(DISTINCT d.userId) FROM days d JOIN switches s ON s.userId = d.userId
             WHERE d.name = 'meal_logged' AND d.occurredAt > s.switchedAt
               AND julianday(d.occurredAt) - julianday(s.switchedAt) <= 7)
        """

    public func pocMetrics(startedFrom from: Date?, to: Date?) async throws -> POCMetrics {
        let arguments: StatementArguments = ["from": from.map(AppDatabase.instantText), "to": to.map(AppDatabase.instantText)]
        return try await database.storeRead { db in
            guard let row = try Row.fetchOne(db, sql: Self.sql, arguments: arguments) else {
                throw StoreError.unavailable("The metrics could not be computed")
            }
            return POCMetrics(
                cohort: row[0], activated: row[1], retainedWeekOne: row[2], completedFirstCycle: row[3],
                openedEducation: row[4], switchedPhase: row[5], continuedAfterSwitch: row[6]
            )
        }
    }
}
