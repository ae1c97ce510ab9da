import GRDB

extension AppDatabase {
    /// Deleted rows lose their content after `DeletedRows.retention` (issue 21 item 8, `SQLiteDeletedRowStore`).
    /// `scrubbedAt` marks a tombstone whose content is gone; the partial indexes hold only the tombstones still to
    /// scrub, so a sweep finds them without reading every row, and a scrubbed row leaves its index.
    static func registerDeletedRowsMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v47-deleted-rows-scrub") { db in
            try db.execute(sql: """
                ALTER TABLE meals ADD COLUMN scrubbedAt TEXT;
                ALTER TABLE weights ADD COLUMN scrubbedAt TEXT;
                CREATE INDEX meals_toScrub ON meals(deletedAt) WHERE deletedAt IS NOT NULL AND scrubbedAt IS NULL;
                CREATE INDEX weights_toScrub ON weights(deletedAt) WHERE deletedAt IS NOT NULL AND scrubbedAt IS NULL;
                CREATE INDEX syncResults_createdAt ON syncResults(createdAt);
                """)
            // A row brought back (a sync upsert from the tombstone's version) or deleted anew is no longer scrubbed:
            // its next deletion is scrubbed in its turn.
            for table in ["meals", "weights"] {
                try db.execute(sql: """
                    CREATE TRIGGER \(table)_unscrub AFTER UPDATE OF deletedAt ON \(table)
                    WHEN NEW.scrubbedAt IS NOT NULL AND NEW.deletedAt IS NOT OLD.deletedAt BEGIN
                        UPDATE \(table) SET scrubbedAt = NULL WHERE id = NEW.id;
                    END;
                    """)
            }
        }
        // Generic sync rows (issue 21 item 8, second half): a scrubbed row's data is the empty object, which is also
        // its mark (no column: docs/sync.md). The partial index holds the tombstones whose data is still there.
        migrator.registerMigration("v48-sync-rows-scrub") { db in
            try db.execute(sql: """
                CREATE INDEX syncRows_toScrub ON syncRows(deletedAt) WHERE deletedAt IS NOT NULL AND data <> '{}';
                """)
        }
    }
}
