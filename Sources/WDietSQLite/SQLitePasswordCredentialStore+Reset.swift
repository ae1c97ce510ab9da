import Foundation
import GRDB
import WDietStore

/// Password-reset tokens on the SQLite gatekeeper: `passwordResetTokens`, gone with its user. A use runs in the
/// single writer's transaction, so of two uses of one token the second finds it gone.
extension SQLitePasswordCredentialStore {
    public func saveResetToken(tokenHash: String, userId: UUID, createdAt: Date, expiresAt: Date) async throws {
        let user = AppDatabase.idText(userId)
        let created = AppDatabase.instantText(createdAt), expires = AppDatabase.instantText(expiresAt)
        try await database.storeWrite { db in
            try db.execute(sql: "DELETE FROM passwordResetTokens WHERE userId = ? OR expiresAt <= ?", arguments: [user, created])
            try db.execute(
                sql: "INSERT INTO passwordResetTokens (tokenHash, userId, createdAt, expiresAt) VALUES (?, ?, ?, ?)",
                arguments: [tokenHash, user, created, expires])
        }
    }

    public func resetTokenUser(tokenHash: String, now: Date) async throws -> UUID? {
        let now = AppDatabase.instantText(now)
        return try await database.storeRead { db in
            try Self.openUser(db, tokenHash: tokenHash, now: now).flatMap(UUID.init(uuidString:))
        }
    }

    public func resetPassword(tokenHash: String, passwordHash: String, now: Date) async throws -> UUID? {
        let nowText = AppDatabase.instantText(now)
        return try await database.storeWrite { db in
            guard let user = try Self.openUser(db, tokenHash: tokenHash, now: nowText) else {
                try db.execute(sql: "DELETE FROM passwordResetTokens WHERE tokenHash = ?", arguments: [tokenHash])
                return nil
            }
            try db.execute(
                sql: "UPDATE credentials SET passwordHash = ?, updatedAt = ? WHERE userId = ?",
                arguments: [passwordHash, nowText, user])
            guard db.changesCount == 1 else { return nil }
            try db.execute(sql: "DELETE FROM passwordResetTokens WHERE userId = ?", arguments: [user])
            try db.execute(sql: "DELETE FROM sessions WHERE userId = ?", arguments: [user])
            return UUID(uuidString: user)
        }
    }

    private static func openUser(_ db: Database, tokenHash: String, now: String) throws -> String? {
        try String.fetchOne(db, sql: """
            SELECT t.userId FROM passwordResetTokens t JOIN users u ON u.id = t.userId
            WHERE t.tokenHash = ? AND t.expiresAt > ? AND u.deletedAt IS NULL
            """, arguments: [tokenHash, now])
    }
}
