import GRDB

extension AppDatabase {
    /// The coach's tips each user has dismissed (004 Story 2.4: "dismissed once"). One row per (user, tip); a
    /// dismissal is never undone, so there are no tombstones, but the row carries a `version` from the change
    /// counter like every synced row, so a device can learn of a dismissal made on another. `tipId` is not pinned
    /// by a CHECK: the set of tips grows, and the store reads only the ids it knows.
    static func registerTipMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v5-dismissed-tips") { db in
            try db.execute(sql: """
                CREATE TABLE dismissedTips (
                    userId TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    tipId TEXT NOT NULL CHECK (tipId <> ''),
                    dismissedAt TEXT NOT NULL,
                    version INTEGER NOT NULL,
                    PRIMARY KEY (userId, tipId)
                ) WITHOUT ROWID;
                CREATE INDEX dismissedTips_userId_version ON dismissedTips(userId, version);
                """)
        }
    }
}
