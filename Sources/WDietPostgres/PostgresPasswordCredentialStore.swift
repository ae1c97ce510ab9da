import Foundation
import PostgresNIO
import WDietStore

/// `PasswordCredentialStore` on PostgreSQL.
public struct PostgresPasswordCredentialStore: PasswordCredentialStore {
    let access: PostgresStoreAccess
    let now: @Sendable () -> Date

    /// `now` stamps `credentials.updated_at`.
    public init(client: PostgresClient, now: @escaping @Sendable () -> Date = Date.init) {
        access = PostgresStoreAccess(client: client, label: "wdiet.postgres.passwords")
        self.now = now
    }

    public func passwordHash(userId: UUID) async throws -> String? {
        try await access.run { client in
            let rows = try await client.query("""
                SELECT c.password_hash FROM credentials c JOIN users u ON u.id = c.user_id
                WHERE c.user_id = \(userId) AND u.deleted_at IS NULL
                """, logger: access.logger)
            for try await hash in rows.decode(String.self) { return hash }
            return nil
        }
    }

    @discardableResult
    public func replacePassword(userId: UUID, passwordHash: String) async throws -> Int {
        let now = PostgresInstant(now())
        return try await access.transaction { connection in
            let updated = try await connection.query("""
                UPDATE credentials SET password_hash = \(passwordHash), updated_at = \(now) WHERE user_id = \(userId)
                RETURNING 1
                """, logger: access.logger)
            var found = false
            for try await _ in updated.decode(Int.self) { found = true }
            guard found else { throw StoreError.notFound("This account has no password to change") }
            let ended = try await connection.query(
                "DELETE FROM sessions WHERE user_id = \(userId) RETURNING 1", logger: access.logger)
            var count = 0
            for try await _ in ended.decode(Int.self) { count += 1 }
            return count
        }
    }
}
