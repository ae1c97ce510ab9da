import GRDB

extension AppDatabase {
    /// The Journal (issue 18, docs/journal.md "Storage"). Entries are generic sync rows of the collection `journal`
    /// (`syncRows`: versions, tombstones, push, pull, export, import and account deletion as every synced row).
    /// `journalEntries` holds the live ones again as real columns, so that a day, a search and a year's insights
    /// read indexed columns instead of decoding JSON: triggers on `syncRows` keep it in step with every write (a
    /// push, an import, a delete), so no write path can forget it.
    /// - `minute` is the local time as minutes after midnight; `createdAtMs`/`updatedAtMs` the instants as
    ///   milliseconds since 1970 (read without parsing text), `mediaIds` the JSON array as it came.
    /// - A row whose data is not an entry (a free-form row pushed before this version) is left out.
    /// - Triggers on `journalEntries` count its days in `loggedDays`, so a journal day counts toward the streak
    ///   (PRODUCT.md "streak") wherever the streak is read.
    static func registerJournalMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v20-journal") { db in
            let d = "NEW.data"
            let values = """
                SELECT NEW.userId, NEW.id, json_extract(\(d), '$.date'),
                    CAST(substr(json_extract(\(d), '$.time'), 1, 2) AS INTEGER) * 60
                        + CAST(substr(json_extract(\(d), '$.time'), 4, 2) AS INTEGER),
                    \(msExpression("json_extract(\(d), '$.createdAt')")),
                    \(msExpression("json_extract(\(d), '$.updatedAt')")),
                    CASE json_extract(\(d), '$.inputType') WHEN 'image' THEN 'photo' ELSE json_extract(\(d), '$.inputType') END,
                    coalesce(json_extract(\(d), '$.rawInput'), ''), json_extract(\(d), '$.processedDescription'),
                    json_extract(\(d), '$.category'), coalesce(json_extract(\(d), '$.mediaIds'), '[]'), NEW.version
                WHERE json_type(\(d), '$.date') = 'text' AND json_type(\(d), '$.time') = 'text'
                    AND json_type(\(d), '$.createdAt') = 'text' AND json_type(\(d), '$.inputType') = 'text'
                    AND json_type(\(d), '$.processedDescription') = 'text'
                """
            let insert = """
                INSERT INTO journalEntries (userId, id, date, minute, createdAtMs, updatedAtMs, inputType, rawInput,
                    description, category, mediaIds, version)
                """
            try db.execute(sql: """
                CREATE TABLE journalEntries (
                    userId TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    id TEXT NOT NULL,
                    date TEXT NOT NULL,
                    minute INTEGER NOT NULL,
                    createdAtMs INTEGER NOT NULL,
                    updatedAtMs INTEGER,
                    inputType TEXT NOT NULL,
                    rawInput TEXT NOT NULL,
                    description TEXT NOT NULL,
                    category TEXT,
                    mediaIds TEXT NOT NULL,
                    version INTEGER NOT NULL,
                    PRIMARY KEY (userId, id)
                ) WITHOUT ROWID;
                CREATE INDEX journalEntries_day ON journalEntries(userId, date, minute, createdAtMs, id);

                CREATE TRIGGER journalEntries_loggedDays_insert AFTER INSERT ON journalEntries BEGIN
                    INSERT INTO loggedDays (userId, localDate, entries) VALUES (NEW.userId, NEW.date, 1)
                        ON CONFLICT (userId, localDate) DO UPDATE SET entries = entries + 1;
                END;
                CREATE TRIGGER journalEntries_loggedDays_delete AFTER DELETE ON journalEntries BEGIN
                    UPDATE loggedDays SET entries = entries - 1 WHERE userId = OLD.userId AND localDate = OLD.date;
                    DELETE FROM loggedDays WHERE userId = OLD.userId AND localDate = OLD.date AND entries = 0;
                END;

                CREATE TRIGGER syncRows_journal_insert AFTER INSERT ON syncRows
                WHEN NEW.collection = 'journal' AND NEW.deletedAt IS NULL BEGIN
                    \(insert) \(values);
                END;
                CREATE TRIGGER syncRows_journal_update AFTER UPDATE ON syncRows
                WHEN NEW.collection = 'journal' OR OLD.collection = 'journal' BEGIN
                    DELETE FROM journalEntries WHERE userId = OLD.userId AND id = OLD.id AND OLD.collection = 'journal';
                    \(insert) \(values) AND NEW.collection = 'journal' AND NEW.deletedAt IS NULL;
                END;
                CREATE TRIGGER syncRows_journal_delete AFTER DELETE ON syncRows WHEN OLD.collection = 'journal' BEGIN
                    DELETE FROM journalEntries WHERE userId = OLD.userId AND id = OLD.id;
                END;
                """)
            // The rows pushed before this version.
            try db.execute(sql: """
                \(insert) \(values.replacingOccurrences(of: "NEW.", with: "syncRows.")
                    .replacingOccurrences(of: "WHERE json_type", with: "FROM syncRows WHERE collection = 'journal' AND deletedAt IS NULL AND json_type"))
                """)
        }
    }

    /// Milliseconds since 1970 of an ISO 8601 instant (`…T07:16:02.000Z`, the fraction optional), NULL for NULL.
    private static func msExpression(_ text: String) -> String {
        "CAST(strftime('%s', \(text)) AS INTEGER) * 1000 + CAST(substr(strftime('%f', \(text)), 4, 3) AS INTEGER)"
    }
}
