import Foundation
import Logging
import PostgresNIO
import WDietCore
import WDietStore

/// `LoggedDayStore` on PostgreSQL, over the `logged_days` table that triggers keep in step with meals and weights.
public struct PostgresLoggedDayStore: LoggedDayStore {
    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger = Logger(label: "wdiet.postgres.logged-days")) {
        self.client = client
        self.logger = logger
    }

    public func loggedDays(userId: UUID, in range: ClosedRange<LocalDate>) async throws -> Set<LocalDate> {
        try await PostgresStoreErrors.guarded(logger) {
            let rows = try await client.query("""
                SELECT local_date FROM logged_days WHERE user_id = \(userId)
                AND local_date BETWEEN \(PostgresLocalDate(range.lowerBound)) AND \(PostgresLocalDate(range.upperBound))
                """, logger: logger)
            var days: Set<LocalDate> = []
            for try await day in rows.decode(PostgresLocalDate.self) { days.insert(day.localDate) }
            return days
        }
    }

    public func latestRun(userId: UUID, through date: LocalDate) async throws -> [LocalDate] {
        try await PostgresStoreErrors.guarded(logger) {
            try await Self.latestRun(client.query(Self.latestRunQuery(userId: userId, through: date), logger: logger))
        }
    }

    /// The latest logged day on or before `date`, then the day before it while that is logged too: one primary-key
    /// lookup per day of the streak, stopping at the first gap. The dashboard runs the same query in its snapshot.
    static func latestRunQuery(userId: UUID, through date: LocalDate) -> PostgresQuery {
        """
        WITH RECURSIVE run (local_date) AS (
            (SELECT local_date FROM logged_days WHERE user_id = \(userId) AND local_date <= \(PostgresLocalDate(date))
             ORDER BY local_date DESC LIMIT 1)
            UNION ALL
            SELECT logged_days.local_date FROM run JOIN logged_days
                ON logged_days.user_id = \(userId) AND logged_days.local_date = run.local_date - 1
        )
        SELECT local_date FROM run ORDER BY local_date DESC
        """
    }

    static func latestRun(_ rows: PostgresRowSequence) async throws -> [LocalDate] {
        var run: [LocalDate] = []
        for try await day in rows.decode(PostgresLocalDate.self) { run.append(day.localDate) }
        return run
    }
}
