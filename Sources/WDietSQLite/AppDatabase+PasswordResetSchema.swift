import GRDB

extension AppDatabase {
    /// "Forgot password?" (issue 21 item 11): one row per outstanding reset link, keyed by the SHA-256 of its token
    /// (the token itself is only in the email), gone with its user. Instants are stored as the other tables' text.
    /// Plain SQL on purpose: the PostgreSQL store creates the same table (migration 40).
    static func registerPasswordResetMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v40-password-reset-tokens") { db in
            try db.execute(sql: """
                CREATE TABLE passwordResetTokens (
                    tokenHash TEXT PRIMARY KEY NOT NULL CHECK (length(tokenHash) = 64),
                    userId TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    createdAt TEXT NOT NULL,
                    expiresAt TEXT NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX passwordResetTokens_userId ON passwordResetTokens(userId);
                """)
        }
    }
}
