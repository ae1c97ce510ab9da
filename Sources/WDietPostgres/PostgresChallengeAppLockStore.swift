import Foundation
import PostgresNIO
import WDietStore

/// `ChallengeAppLockStore` on PostgreSQL (`challenge_app_locks`).
public struct PostgresChallengeAppLockStore: ChallengeAppLockStore {
    let access: PostgresStoreAccess

    public init(client: PostgresClient) {
        access = PostgresStoreAccess(client: client, label: "wdiet.postgres.challenge-app-lock")
    }

    public func appLock(userId: UUID) async throws -> ChallengeAppLockState? {
        try await access.run { client in
            let rows = try await client.query(
                "SELECT pin_hash, failed_attempts, updated_at FROM challenge_app_locks WHERE user_id = \(userId)", logger: access.logger)
            for try await (hash, failed, updated) in rows.decode((String, Int32, PostgresInstant).self) {
                return ChallengeAppLockState(pinHash: hash, failedAttempts: Int(failed), updatedAt: updated.date)
            }
            return nil
        }
    }

    public func setPin(userId: UUID, pinHash: String, now: Date) async throws {
        let instant = PostgresInstant(now)
        try await access.transaction { connection in
            let known = try await connection.query("SELECT 1 FROM users WHERE id = \(userId)", logger: access.logger)
            var exists = false
            for try await _ in known.decode(Int32.self) { exists = true }
            guard exists else { throw StoreError.notFound("user") }
            try await connection.query("""
                INSERT INTO challenge_app_locks (user_id, pin_hash, failed_attempts, updated_at) VALUES (\(userId), \(pinHash), 0, \(instant))
                ON CONFLICT (user_id) DO UPDATE SET pin_hash = excluded.pin_hash, failed_attempts = 0, updated_at = excluded.updated_at
                """, logger: access.logger)
        }
    }

    public func removePin(userId: UUID) async throws -> Bool {
        try await access.run { client in
            let rows = try await client.query(
                "DELETE FROM challenge_app_locks WHERE user_id = \(userId) RETURNING 1", logger: access.logger)
            var removed = false
            for try await _ in rows.decode(Int32.self) { removed = true }
            return removed
        }
    }

    public func recordFailure(userId: UUID) async throws -> Int {
        try await access.run { client in
            let rows = try await client.query("""
                UPDATE challenge_app_locks SET failed_attempts = failed_attempts + 1 WHERE user_id = \(userId) RETURNING failed_attempts
                """, logger: access.logger)
            for try await count in rows.decode(Int32.self) { return Int(count) }
            return 0
        }
    }

    public func resetFailures(userId: UUID) async throws {
        try await access.run { client in
            try await client.query("UPDATE challenge_app_locks SET failed_attempts = 0 WHERE user_id = \(userId)", logger: access.logger)
        }
    }
}
