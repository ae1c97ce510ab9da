import Foundation
import GRDB
import WDietStore

/// `ChallengeAppLockStore` on SQLite (`challengeAppLocks`).
public struct SQLiteChallengeAppLockStore: ChallengeAppLockStore {
    let database: AppDatabase

    public init(database: AppDatabase) { self.database = database }

    public func appLock(userId: UUID) async throws -> ChallengeAppLockState? {
        let user = AppDatabase.idText(userId)
        return try await database.storeRead { db in
            guard let row = try Row.fetchOne(
                db, sql: "SELECT pinHash, failedAttempts, updatedAt FROM challengeAppLocks WHERE userId = ?", arguments: [user])
            else { return nil }
            return ChallengeAppLockState(
                pinHash: row["pinHash"], failedAttempts: row["failedAttempts"],
                updatedAt: AppDatabase.instant(fromText: row["updatedAt"]) ?? Date(timeIntervalSince1970: 0))
        }
    }

    public func setPin(userId: UUID, pinHash: String, now: Date) async throws {
        let user = AppDatabase.idText(userId), instant = AppDatabase.instantText(now)
        try await database.storeWrite { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM users WHERE id = ?", arguments: [user]) ?? false else {
                throw StoreError.notFound("user")
            }
            try db.execute(sql: """
                INSERT INTO challengeAppLocks (userId, pinHash, failedAttempts, updatedAt) VALUES (?, ?, 0, ?)
                ON CONFLICT (userId) DO UPDATE SET pinHash = excluded.pinHash, failedAttempts = 0, updatedAt = excluded.updatedAt
                """, arguments: [user, pinHash, instant])
        }
    }

    public func removePin(userId: UUID) async throws -> Bool {
        let user = AppDatabase.idText(userId)
        return try await database.storeWrite { db in
            try db.execute(sql: "DELETE FROM challengeAppLocks WHERE userId = ?", arguments: [user])
            return db.changesCount > 0
        }
    }

    public func recordFailure(userId: UUID) async throws -> Int {
        let user = AppDatabase.idText(userId)
        return try await database.storeWrite { db in
            try Int.fetchOne(db, sql: """
                UPDATE challengeAppLocks SET failedAttempts = failedAttempts + 1 WHERE userId = ? RETURNING failedAttempts
                """, arguments: [user]) ?? 0
        }
    }

    public func resetFailures(userId: UUID) async throws {
        let user = AppDatabase.idText(userId)
        try await database.storeWrite { db in
            try db.execute(sql: "UPDATE challengeAppLocks SET failedAttempts = 0 WHERE userId = ?", arguments: [user])
        }
    }
}
