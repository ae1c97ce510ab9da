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
            try await Self.latestRun(client.query(Self.latestRunBounds(userId: userId, through: date), logger: logger))
        }
    }

    /// The first and last day of the latest run of logged days on or before `date`, in one row (NULLs when nothing
    /// is logged). Counted from the newest day back, consecutive days share `local_date + row number`, so the run is
    /// the days whose key is the newest day's + 1: one backward read of the user's part of the primary key (index
    /// only). A recursive walk, one lookup per day, was planned as a hash join over all the user's days per step:
    /// 38 ms for a 365-day streak. `run_start` and `local_date` are named as the dashboard's combined read names them.
    static func latestRunBounds(userId: UUID, through date: LocalDate) -> PostgresQuery {
        """
        SELECT min(local_date) AS run_start, max(local_date) AS local_date FROM (
            SELECT local_date, local_date + (row_number() OVER (ORDER BY local_date DESC))::integer AS run_key
            FROM logged_days WHERE user_id = \(userId) AND local_date <= \(PostgresLocalDate(date))
        ) days
        WHERE run_key = (
            SELECT max(local_date) + 1 FROM logged_days
            WHERE user_id = \(userId) AND local_date <= \(PostgresLocalDate(date))
        )
        """
    }

    static func latestRun(_ rows: PostgresRowSequence) async throws -> [LocalDate] {
        for try await row in rows {
            let row = row.makeRandomAccess()
            return run(from: try row.optionalLocalDate("run_start"), through: try row.optionalLocalDate("local_date"))
        }
        return []
    }

    /// The days of a run, newest first, as `LoggedDayStore.latestRun` returns them.
    static func run(from start: LocalDate?, through end: LocalDate?) -> [LocalDate] {
        guard let start, let end, start <= end else { return [] }
        var days: [LocalDate] = []
        var day = end
        while day >= start {
            days.append(day)
            day = day.adding(days: -1)
        }
        return days
    }
}
