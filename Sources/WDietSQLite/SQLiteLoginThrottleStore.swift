import Foundation
import GRDB
import WDietStore

/// `LoginThrottleStore` on the SQLite gatekeeper. Every count is one UPSERT, so failures counted at the same time
/// (by this or another process on the same file) all count; an attempt's slot is taken by writing first and reading
/// after, in one savepoint, so the count it reads is its own transaction's (the write lock is held).
public struct SQLiteLoginThrottleStore: LoginThrottleStore {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func failureCounts(keys: [String], now: Date, window: TimeInterval) async throws -> [LoginFailureCount] {
        guard !keys.isEmpty else { return [] }
        let cutoff = Self.milliseconds(now) - Self.milliseconds(window)
        return try await database.storeRead { db in
            try keys.compactMap { key in
                try Self.count(db, key: key, after: cutoff)
            }
        }
    }

    @discardableResult
    public func recordFailure(keys: [String], now: Date, window: TimeInterval) async throws -> [LoginFailureCount] {
        guard !keys.isEmpty else { return [] }
        let nowMs = Self.milliseconds(now)
        let cutoff = nowMs - Self.milliseconds(window)
        return try await database.storeWrite { db in
            try Self.forgetEnded(db, now: nowMs)
            return try keys.compactMap { key in
                try Self.countOne(db, key: key, now: nowMs, cutoff: cutoff)
                return try Self.count(db, key: key, after: cutoff)
            }
        }
    }

    public func takeAttempt(_ limits: [LoginThrottleLimit], now: Date, window: TimeInterval) async throws -> LoginAttemptDecision {
        let limits = Self.distinct(limits)
        guard !limits.isEmpty else { return .taken }
        let nowMs = Self.milliseconds(now)
        let cutoff = nowMs - Self.milliseconds(window)
        return try await database.storeWrite { db in
            try Self.forgetEnded(db, now: nowMs)
            var refused: [LoginFailureCount] = []
            // Counted first, read after: the counts read include every attempt committed before this one.
            try db.inSavepoint {
                for limit in limits {
                    try Self.countOne(db, key: limit.key, now: nowMs, cutoff: cutoff)
                    if let count = try Self.count(db, key: limit.key, after: cutoff), count.failures > limit.limit {
                        refused.append(LoginFailureCount(key: limit.key, failures: count.failures - 1, windowStartedAt: count.windowStartedAt))
                    }
                }
                return refused.isEmpty ? .commit : .rollback
            }
            return refused.isEmpty ? .taken : .refused(refused)
        }
    }

    public func returnAttempt(keys: [String]) async throws {
        guard !keys.isEmpty else { return }
        try await database.storeWrite { db in
            for key in Set(keys) {
                try db.execute(sql: "DELETE FROM loginFailures WHERE throttleKey = ? AND failureCount <= 1", arguments: [key])
                try db.execute(sql: "UPDATE loginFailures SET failureCount = failureCount - 1 WHERE throttleKey = ?", arguments: [key])
            }
        }
    }

    public func clearFailures(key: String) async throws {
        try await database.storeWrite { db in
            try db.execute(sql: "DELETE FROM loginFailures WHERE throttleKey = ?", arguments: [key])
        }
    }

    /// Windows that ended long ago count for nothing: the next attempt would start over at 1 anyway.
    private static func forgetEnded(_ db: Database, now: Int64) throws {
        try db.execute(sql: "DELETE FROM loginFailures WHERE windowStartedAt <= ?", arguments: [now - milliseconds(longestWindow)])
    }

    private static func countOne(_ db: Database, key: String, now: Int64, cutoff: Int64) throws {
        try db.execute(sql: """
            INSERT INTO loginFailures (throttleKey, failureCount, windowStartedAt) VALUES (?, 1, ?)
            ON CONFLICT (throttleKey) DO UPDATE SET
                failureCount = CASE WHEN loginFailures.windowStartedAt > ? THEN loginFailures.failureCount + 1 ELSE 1 END,
                windowStartedAt = CASE WHEN loginFailures.windowStartedAt > ? THEN loginFailures.windowStartedAt ELSE excluded.windowStartedAt END
            """, arguments: [key, now, cutoff, cutoff])
    }

    private static func count(_ db: Database, key: String, after cutoff: Int64) throws -> LoginFailureCount? {
        guard let row = try Row.fetchOne(db, sql: """
            SELECT failureCount, windowStartedAt FROM loginFailures WHERE throttleKey = ? AND windowStartedAt > ?
            """, arguments: [key, cutoff])
        else { return nil }
        let started: Int64 = row["windowStartedAt"]
        return LoginFailureCount(key: key, failures: row["failureCount"], windowStartedAt: Date(timeIntervalSince1970: Double(started) / 1_000))
    }

    /// Each key once (the lowest limit given for it), in the order given.
    static func distinct(_ limits: [LoginThrottleLimit]) -> [LoginThrottleLimit] {
        var lowest: [String: Int] = [:]
        for limit in limits { lowest[limit.key] = min(lowest[limit.key] ?? .max, limit.limit) }
        var seen = Set<String>()
        return limits.compactMap { seen.insert($0.key).inserted ? LoginThrottleLimit(key: $0.key, limit: lowest[$0.key]!) : nil }
    }

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1_000).rounded()) }
    static func milliseconds(_ interval: TimeInterval) -> Int64 { Int64((interval * 1_000).rounded()) }
}
