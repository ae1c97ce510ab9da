import Foundation
import Logging
import PostgresNIO
import WDietStore

/// `LoginThrottleStore` on PostgreSQL. A failure is counted by one upsert for all the keys, so failures counted at
/// once by several server processes all count: PostgreSQL locks each key's row for the update, and an insert that
/// races another waits for it and then updates the row it made. An attempt's slot is taken the same way in a
/// transaction that keeps those locks until it has read what it counted (and undone it, when a key was full).
public struct PostgresLoginThrottleStore: LoginThrottleStore {
    let access: PostgresStoreAccess

    /// `now` is not used: the caller passes each instant (the same shape as the other stores for the factory).
    public init(client: PostgresClient, now: @escaping @Sendable () -> Date = Date.init) {
        access = PostgresStoreAccess(client: client, label: "wdiet.postgres.login-throttle")
    }

    public func failureCounts(keys: [String], now: Date, window: TimeInterval) async throws -> [LoginFailureCount] {
        guard !keys.isEmpty else { return [] }
        let cutoff = Self.cutoff(now: now, window: window)
        let counts = try await access.run { client in
            let rows = try await client.query("""
                SELECT throttle_key, failure_count, window_started_at FROM login_failures
                WHERE throttle_key = ANY(\(Self.distinct(keys))) AND window_started_at > \(cutoff)
                """, logger: access.logger)
            return try await Self.counts(rows)
        }
        return keys.compactMap { counts[$0] }
    }

    @discardableResult
    public func recordFailure(keys: [String], now: Date, window: TimeInterval) async throws -> [LoginFailureCount] {
        guard !keys.isEmpty else { return [] }
        let instant = PostgresInstant(now)
        let cutoff = Self.cutoff(now: now, window: window)
        // Sorted: two processes counting the same keys lock them in the same order, so they cannot deadlock.
        let sortedKeys = Self.distinct(keys).sorted()
        let counts = try await access.run { client in
            let rows = try await client.query(Self.countOneMore(keys: sortedKeys, at: instant, cutoff: cutoff), logger: access.logger)
            let counts = try await Self.counts(rows)
            // Ended windows count for nothing: forget them on the way, skipping rows another process holds.
            let longestCutoff = Self.cutoff(now: now, window: Self.longestWindow)
            try await client.execute("""
                DELETE FROM login_failures WHERE throttle_key IN (
                    SELECT throttle_key FROM login_failures WHERE window_started_at <= \(longestCutoff)
                    FOR UPDATE SKIP LOCKED
                )
                """, logger: access.logger)
            return counts
        }
        return keys.compactMap { key in counts[key].flatMap { $0.windowStartedAt > cutoff.date ? $0 : nil } }
    }

    /// One more failure for each key (in the order given, which is the order their rows are locked in), starting a
    /// key's window over when it ended before `cutoff`; returns each key's count and window start.
    static func countOneMore(keys: [String], at instant: PostgresInstant, cutoff: PostgresInstant) -> PostgresQuery {
        """
                INSERT INTO login_failures (throttle_key, failure_count, window_started_at)
                SELECT key, 1, \(instant) FROM unnest(\(keys)::text[]) WITH ORDINALITY AS k (key, position)
                ORDER BY position
                ON CONFLICT (throttle_key) DO UPDATE SET
                    failure_count = CASE WHEN login_failures.window_started_at > \(cutoff)
                        THEN login_failures.failure_count + 1 ELSE 1 END,
                    window_started_at = CASE WHEN login_failures.window_started_at > \(cutoff)
                        THEN login_failures.window_started_at ELSE excluded.window_started_at END
                RETURNING throttle_key, failure_count, window_started_at
        """
    }

    public func takeAttempt(_ limits: [LoginThrottleLimit], now: Date, window: TimeInterval) async throws -> LoginAttemptDecision {
        // Sorted: two processes taking the same keys lock them in the same order, so they cannot deadlock.
        let limits = Self.distinct(limits).sorted { $0.key < $1.key }
        guard !limits.isEmpty else { return .taken }
        let instant = PostgresInstant(now)
        let cutoff = Self.cutoff(now: now, window: window)
        let keys = limits.map(\.key)
        let limitOf = Dictionary(uniqueKeysWithValues: limits.map { ($0.key, $0.limit) })
        return try await access.transaction { connection in
            // Counted first: the upsert locks each key's row until the commit, so attempts at the same keys from
            // any process take turns, and each reads the counts of all that committed before it.
            let rows = try await connection.query(Self.countOneMore(keys: keys, at: instant, cutoff: cutoff), logger: access.logger)
            let counts = try await Self.counts(rows)
            let refused = keys.compactMap { key -> LoginFailureCount? in
                guard let count = counts[key], let limit = limitOf[key], count.failures > limit else { return nil }
                return LoginFailureCount(key: key, failures: count.failures - 1, windowStartedAt: count.windowStartedAt)
            }
            if refused.isEmpty {
                try await Self.forgetEnded(connection, now: now, logger: access.logger)
                return .taken
            }
            // Nothing counted after all: undone in the same transaction, under the same locks.
            try await Self.giveBack(keys, on: connection, logger: access.logger)
            return .refused(refused)
        }
    }

    public func returnAttempt(keys: [String]) async throws {
        let keys = Self.distinct(keys).sorted()
        guard !keys.isEmpty else { return }
        try await access.transaction { connection in
            try await Self.giveBack(keys, on: connection, logger: access.logger)
        }
    }

    /// One count less for each key; a count of 1 is forgotten (the table holds no zero counts).
    /// Key by key in sorted order, as `takeAttempt` locks them.
    static func giveBack(_ keys: [String], on connection: PostgresConnection, logger: Logger) async throws {
        for key in keys.sorted() {
            try await connection.query(
                "DELETE FROM login_failures WHERE throttle_key = \(key) AND failure_count <= 1", logger: logger)
            try await connection.query(
                "UPDATE login_failures SET failure_count = failure_count - 1 WHERE throttle_key = \(key)", logger: logger)
        }
    }

    /// Ended windows count for nothing: forgotten on the way (whatever window they were counted in, once the
    /// longest has passed), skipping rows another process holds.
    static func forgetEnded(_ connection: PostgresConnection, now: Date, logger: Logger) async throws {
        let cutoff = cutoff(now: now, window: longestWindow)
        try await connection.query("""
            DELETE FROM login_failures WHERE throttle_key IN (
                SELECT throttle_key FROM login_failures WHERE window_started_at <= \(cutoff)
                FOR UPDATE SKIP LOCKED
            )
            """, logger: logger)
    }

    /// Each key once (with the lowest limit given for it), in the order given.
    static func distinct(_ limits: [LoginThrottleLimit]) -> [LoginThrottleLimit] {
        var lowest: [String: Int] = [:]
        for limit in limits { lowest[limit.key] = min(lowest[limit.key] ?? .max, limit.limit) }
        var seen = Set<String>()
        return limits.compactMap { seen.insert($0.key).inserted ? LoginThrottleLimit(key: $0.key, limit: lowest[$0.key]!) : nil }
    }

    public func clearFailures(key: String) async throws {
        try await access.run { client in
            try await client.execute("DELETE FROM login_failures WHERE throttle_key = \(key)", logger: access.logger)
        }
    }

    /// A window that started at or before this has ended; in whole milliseconds, as SQLite computes it.
    static func cutoff(now: Date, window: TimeInterval) -> PostgresInstant {
        PostgresInstant(milliseconds: PostgresInstant(now).milliseconds - Int64((window * 1_000).rounded()))
    }

    /// Each key once, in the order given (an upsert may not touch one row twice).
    static func distinct(_ keys: [String]) -> [String] {
        var seen = Set<String>()
        return keys.filter { seen.insert($0).inserted }
    }

    static func counts(_ rows: PostgresRowSequence) async throws -> [String: LoginFailureCount] {
        var counts: [String: LoginFailureCount] = [:]
        for try await (key, failures, started) in rows.decode((String, Int, PostgresInstant).self) {
            counts[key] = LoginFailureCount(key: key, failures: failures, windowStartedAt: started.date)
        }
        return counts
    }
}
