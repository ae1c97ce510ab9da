import Foundation
import PostgresNIO
import WDietStore

/// Password-reset tokens on PostgreSQL: `password_reset_tokens`, gone with its user. A use deletes the token's row
/// first, so of two uses of one token at once the second finds nothing.
extension PostgresPasswordCredentialStore {
    public func saveResetToken(tokenHash: String, userId: UUID, createdAt: Date, expiresAt: Date) async throws {
        let created = PostgresInstant(createdAt), expires = PostgresInstant(expiresAt)
        try await access.transaction { connection in
            try await connection.query("""
                DELETE FROM password_reset_tokens WHERE user_id = \(userId) OR expires_at <= \(created)
                """, logger: access.logger)
            try await connection.query("""
                INSERT INTO password_reset_tokens (token_hash, user_id, created_at, expires_at)
                VALUES (\(tokenHash), \(userId), \(created), \(expires))
                """, logger: access.logger)
        }
    }

    public func resetTokenUser(tokenHash: String, now: Date) async throws -> UUID? {
        let now = PostgresInstant(now)
        return try await access.run { client in
            let rows = try await client.query("""
                SELECT t.user_id FROM password_reset_tokens t JOIN users u ON u.id = t.user_id
                WHERE t.token_hash = \(tokenHash) AND t.expires_at > \(now) AND u.deleted_at IS NULL
                """, logger: access.logger)
            for try await id in rows.decode(UUID.self) { return id }
            return nil
        }
    }

    public func resetPassword(tokenHash: String, passwordHash: String, now: Date) async throws -> UUID? {
        let instant = PostgresInstant(now)
        return try await access.transaction { connection in
            let used = try await connection.query("""
                DELETE FROM password_reset_tokens WHERE token_hash = \(tokenHash)
                RETURNING user_id, expires_at > \(instant)
                """, logger: access.logger)
            var found: (UUID, Bool)?
            for try await row in used.decode((UUID, Bool).self) { found = row }
            guard let (userId, open) = found, open else { return nil }
            let updated = try await connection.query("""
                UPDATE credentials SET password_hash = \(passwordHash), updated_at = \(instant)
                FROM users WHERE credentials.user_id = \(userId) AND users.id = credentials.user_id AND users.deleted_at IS NULL
                RETURNING 1
                """, logger: access.logger)
            var changed = false
            for try await _ in updated.decode(Int.self) { changed = true }
            guard changed else { return nil }
            try await connection.query("DELETE FROM password_reset_tokens WHERE user_id = \(userId)", logger: access.logger)
            try await connection.query("DELETE FROM sessions WHERE user_id = \(userId)", logger: access.logger)
            return userId
        }
    }
}
