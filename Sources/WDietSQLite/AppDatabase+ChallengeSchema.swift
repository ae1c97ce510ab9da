import GRDB

extension AppDatabase {
    /// The Challenge's app lock (issue 20): one row per user with a PIN, its bcrypt hash and the wrong attempts in a
    /// row, gone with its user. Server-only (not a synced row). The PostgreSQL store creates the same (migration 45).
    static func registerChallengeMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v45-challenge-app-lock") { db in
            try db.execute(sql: """
                CREATE TABLE challengeAppLocks (
                    userId TEXT PRIMARY KEY NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    pinHash TEXT NOT NULL,
                    failedAttempts INTEGER NOT NULL DEFAULT 0,
                    updatedAt TEXT NOT NULL
                ) WITHOUT ROWID;
                """)
        }
    }
}
