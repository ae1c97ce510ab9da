import Foundation
import PostgresNIO
import WDietStore

/// `RateLimitStore` on PostgreSQL: a sliding window over `rate_limit_events`. Each `acquire` first locks the user's
/// row, so two servers taking the same user's last slot at once take turns: the second counts the first's use.
public struct PostgresRateLimitStore: RateLimitStore {
    let access: PostgresStoreAccess

    /// `now` is not used: the caller passes each instant (the same shape as the other stores for the factory).
    public init(client: PostgresClient, now: @escaping @Sendable () -> Date = Date.init) {
        access = PostgresStoreAccess(client: client, label: "wdiet.postgres.rate-limit")
    }

    public func acquire(
        _ action: RateLimitedAction, userId: UUID, limit: Int, window: TimeInterval, now: Date
    ) async throws -> RateLimitDecision {
        let instant = PostgresInstant(now)
        let windowStart = PostgresInstant(now.addingTimeInterval(-window))
        let id = UUID()
        return try await access.transaction { connection in
            // FOR NO KEY UPDATE: serialises this user's acquires (and version bumps) without blocking the inserts
            // whose foreign keys point at the row. An unknown user locks nothing; its insert below fails as such.
            try await connection.query(
                "SELECT 1 FROM users WHERE id = \(userId) FOR NO KEY UPDATE", logger: access.logger)
            // Uses that left the window no longer count.
            try await connection.query("""
                DELETE FROM rate_limit_events
                WHERE user_id = \(userId) AND action = \(action.rawValue) AND occurred_at <= \(windowStart)
                """, logger: access.logger)
            let rows = try await connection.query("""
                SELECT occurred_at FROM rate_limit_events WHERE user_id = \(userId) AND action = \(action.rawValue)
                ORDER BY occurred_at
                """, logger: access.logger)
            var counted: [Date] = []
            for try await occurred in rows.decode(PostgresInstant.self) { counted.append(occurred.date) }
            if counted.count >= limit {
                // The slot frees when the oldest use that keeps the count at the limit leaves the window.
                return .limited(retryAt: counted[counted.count - limit].addingTimeInterval(window))
            }
            try await connection.query("""
                INSERT INTO rate_limit_events (id, user_id, action, occurred_at)
                VALUES (\(id), \(userId), \(action.rawValue), \(instant))
                """, logger: access.logger)
            return .allowed(id: id)
        }
    }

    public func release(_ id: UUID) async throws {
        try await access.run { client in
            try await client.execute("DELETE FROM rate_limit_events WHERE id = \(id)", logger: access.logger)
        }
    }
}
