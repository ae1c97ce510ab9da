import Foundation
import GRDB
import WDietStore

/// `LoginThrottleStore` on the SQLite gatekeeper. Every count is one UPSERT, so failures counted at the same time
/// (by this or another process on the same file) all count.
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
            // Ended windows count for nothing: the next failure would start over at 1 anyway.
            try db.execute(sql: "DELETE FROM loginFailures WHERE windowStartedAt <= ?", arguments: [cutoff])
            return try keys.compactMap { key in
                try db.execute(sql: """
                    INSERT INTO loginFailures (throttleKey, failureCount, windowStartedAt) VALUES (?, 1, ?)
                    ON CONFLICT (throttleKey) DO UPDATE SET
                        failureCount = CASE WHEN loginFailures.windowStartedAt > ? THEN loginFailures.failureCount + 1 ELSE 1 END,
                        windowStartedAt = CASE WHEN loginFailures.windowStartedAt > ? THEN loginFailures.windowStartedAt ELSE excluded.windowStartedAt END
                    """, arguments: [key, nowMs, cutoff, cutoff])
                return try Self.count(db, key: key, after: cutoff)
            }
        }
    }

    public func clearFailures(key: String) async throws {
        try await database.storeWrite { db in
            try db.execute(sql: "DELETE FROM loginFailures WHERE throttleKey = ?", arguments: [key])
        }
    }

    private static func count(_ db: Database, key: String, after cutoff: Int64) throws -> LoginFailureCount? {
        guard let row = try Row.fetchOne(db, sql: """
            SELECT failureCount, windowStartedAt FROM loginFailures WHERE throttleKey = ? AND windowStartedAt > ?
            """, arguments: [key, cutoff])
        else { return nil }
        let started: Int64 = row["windowStartedAt"]
        return LoginFailureCount(key: key, failures: row["failureCount"], windowStartedAt: Date(timeIntervalSince1970: Double(started) / 1_000))
    }

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1_000).rounded()) }
    static func milliseconds(_ interval: TimeInterval) -> Int64 { Int64((interval * 1_000).rounded()) }
}
