import GRDB

extension AppDatabase {
    /// One row per counted use of a rate-limited action (`RateLimitStore`). Rows older than the window are
    /// deleted by the next `acquire` of the same user and action, so the table holds at most `limit` rows per pair.
    /// Plain SQL on purpose: the PostgreSQL store creates the same table.
    static func registerRateLimitMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v6-rate-limit-events") { db in
            try db.execute(sql: """
                CREATE TABLE rateLimitEvents (
                    id TEXT PRIMARY KEY NOT NULL,
                    userId TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    action TEXT NOT NULL CHECK (action <> ''),
                    occurredAt TEXT NOT NULL
                );
                CREATE INDEX rateLimitEvents_user_action_time ON rateLimitEvents(userId, action, occurredAt);
                """)
        }
    }
}
