import Foundation
import GRDB
import WDietStore

/// `RateLimitStore` on the SQLite gatekeeper: a sliding window over `rateLimitEvents`.
public struct SQLiteRateLimitStore: RateLimitStore {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func acquire(
        _ action: RateLimitedAction, userId: UUID, limit: Int, window: TimeInterval, now: Date
    ) async throws -> RateLimitDecision {
        let user = AppDatabase.idText(userId)
        let windowStart = AppDatabase.instantText(now.addingTimeInterval(-window))
        let id = UUID()
        return try await database.storeWrite { db in
            // Uses that left the window no longer count; `occurredAt` text sorts as the instants do.
            try db.execute(
                sql: "DELETE FROM rateLimitEvents WHERE userId = ? AND action = ? AND occurredAt <= ?",
                arguments: [user, action.rawValue, windowStart]
            )
            let counted = try String.fetchAll(
                db,
                sql: "SELECT occurredAt FROM rateLimitEvents WHERE userId = ? AND action = ? ORDER BY occurredAt",
                arguments: [user, action.rawValue]
            )
            if counted.count >= limit {
                // The slot frees when the oldest use that keeps the count at the limit leaves the window.
                let oldest = try AppDatabase.instant(fromStoredText: counted[counted.count - limit])
                return .limited(retryAt: oldest.addingTimeInterval(window))
            }
            try db.execute(
                sql: "INSERT INTO rateLimitEvents (id, userId, action, occurredAt) VALUES (?, ?, ?, ?)",
                arguments: [AppDatabase.idText(id), user, action.rawValue, AppDatabase.instantText(now)]
            )
            return .allowed(id: id)
        }
    }

    public func release(_ id: UUID) async throws {
        try await database.storeWrite { db in
            try db.execute(sql: "DELETE FROM rateLimitEvents WHERE id = ?", arguments: [AppDatabase.idText(id)])
        }
    }
}
