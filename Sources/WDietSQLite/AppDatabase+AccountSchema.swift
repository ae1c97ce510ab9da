import GRDB

extension AppDatabase {
    /// Sign-in: password hashes and sessions, beside `users` and keyed by its id. Neither table syncs (no
    /// `version`, no tombstones): they are the server's secrets, and a deleted session must be gone at once.
    ///
    /// A session row holds the SHA-256 of its token, never the token: the CHECK admits only 64 lowercase hex
    /// digits, so a raw token (base64url) cannot be written by mistake. `kind` is not pinned by a CHECK, like the
    /// coach's enumerations that may grow; the store reads only the kinds it knows.
    static func registerAccountMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v4-accounts") { db in
            try db.execute(sql: """
                CREATE TABLE credentials (
                    userId TEXT PRIMARY KEY NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    passwordHash TEXT NOT NULL CHECK (passwordHash <> ''),
                    updatedAt TEXT NOT NULL
                );

                CREATE TABLE sessions (
                    tokenHash TEXT PRIMARY KEY NOT NULL
                        CHECK (length(tokenHash) = 64 AND tokenHash NOT GLOB '*[^0-9a-f]*'),
                    userId TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    kind TEXT NOT NULL CHECK (kind <> ''),
                    createdAt TEXT NOT NULL,
                    expiresAt TEXT NOT NULL CHECK (expiresAt > createdAt),
                    lastUsedAt TEXT NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX sessions_userId_expiresAt ON sessions(userId, expiresAt);
                """)
        }
    }
}
