import Foundation
import PostgresNIO
import WDietStore

/// `POCMetricsStore` on PostgreSQL: one statement over `analytics_events`, the SQLite store's definitions (see
/// `POCMetrics`) in exact arithmetic: days are whole 24-hour periods of the interval since the cohort instant.
public struct PostgresPOCMetricsStore: POCMetricsStore {
    let access: PostgresStoreAccess

    /// `now` is not used (the same shape as the other stores for the factory).
    public init(client: PostgresClient, now: @escaping @Sendable () -> Date = Date.init) {
        access = PostgresStoreAccess(client: client, label: "wdiet.postgres.metrics")
    }

    public func pocMetrics(startedFrom from: Date?, to: Date?) async throws -> POCMetrics {
        let from = from.map(PostgresInstant.init), to = to.map(PostgresInstant.init)
        return try await access.run { client in
            let rows = try await client.query("""
                WITH events AS (
                    SELECT user_id, name, occurred_at FROM analytics_events WHERE deleted_at IS NULL
                ),
                cohort AS (
                    SELECT user_id, min(occurred_at) AS started_at FROM events WHERE name = 'onboarding_started'
                    GROUP BY user_id
                    HAVING (\(from)::timestamptz IS NULL OR min(occurred_at) >= \(from))
                        AND (\(to)::timestamptz IS NULL OR min(occurred_at) < \(to))
                ),
                days AS (
                    SELECT e.user_id, e.name, e.occurred_at,
                        floor(extract(epoch FROM e.occurred_at - c.started_at) / 86400) + 1 AS day
                    FROM events e JOIN cohort c ON c.user_id = e.user_id
                    WHERE e.occurred_at >= c.started_at
                ),
                switches AS (
                    SELECT user_id, min(occurred_at) AS switched_at FROM days WHERE name = 'cycle_phase_switched'
                    GROUP BY user_id
                )
                SELECT
                    (SELECT count(*) FROM cohort),
                    (SELECT count(DISTINCT user_id) FROM days WHERE name = 'onboarding_finished'),
                    (SELECT count(DISTINCT user_id) FROM days WHERE name = 'meal_logged' AND day = 7),
                    (SELECT count(DISTINCT user_id) FROM days WHERE name = 'session_start' AND day >= 28),
                    (SELECT count(DISTINCT user_id) FROM days WHERE name = 'why_like_this_opened'),
                    (SELECT count(*) FROM switches),
                    (SELECT count(DISTINCT d.user_id) FROM days d JOIN switches s ON s.user_id = d.user_id
                     WHERE d.name = 'meal_logged' AND d.occurred_at > s.switched_at
                       AND d.occurred_at - s.switched_at <= interval '7 days')
                """, logger: access.logger)
            for try await (cohort, activated, retained, completed, opened, switched, continued) in rows.decode(
                (Int, Int, Int, Int, Int, Int, Int).self)
            {
                return POCMetrics(
                    cohort: cohort, activated: activated, retainedWeekOne: retained, completedFirstCycle: completed,
                    openedEducation: opened, switchedPhase: switched, continuedAfterSwitch: continued)
            }
            throw StoreError.unavailable("The metrics could not be computed")
        }
    }
}
