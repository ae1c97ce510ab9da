import GRDB

extension AppDatabase {
    /// v3's update triggers on meals and weights fired on every UPDATE naming userId, localDate or deletedAt, which
    /// every store write and sync edit does, and took the row off its day and put it back (three statements) even
    /// when neither changed: for a sync push of 1,000 edits, 2,000 trigger runs for nothing. Now they fire only when
    /// the row changes its (user, day) or comes alive or dies.
    static func registerLoggedDaysMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v9-logged-days-update-when") { db in
            var sql = ""
            for table in ["meals", "weights"] {
                let moved = "(OLD.userId IS NOT NEW.userId OR OLD.localDate IS NOT NEW.localDate)"
                sql += """
                    DROP TRIGGER \(table)_loggedDays_update_old;
                    DROP TRIGGER \(table)_loggedDays_update_new;
                    CREATE TRIGGER \(table)_loggedDays_update_old AFTER UPDATE OF userId, localDate, deletedAt ON \(table)
                    WHEN OLD.deletedAt IS NULL AND (NEW.deletedAt IS NOT NULL OR \(moved)) BEGIN
                        UPDATE loggedDays SET entries = entries - 1 WHERE userId = OLD.userId AND localDate = OLD.localDate;
                        DELETE FROM loggedDays WHERE userId = OLD.userId AND localDate = OLD.localDate AND entries = 0;
                    END;
                    CREATE TRIGGER \(table)_loggedDays_update_new AFTER UPDATE OF userId, localDate, deletedAt ON \(table)
                    WHEN NEW.deletedAt IS NULL AND (OLD.deletedAt IS NOT NULL OR \(moved)) BEGIN
                        INSERT INTO loggedDays (userId, localDate, entries) VALUES (NEW.userId, NEW.localDate, 1)
                            ON CONFLICT (userId, localDate) DO UPDATE SET entries = entries + 1;
                    END;

                    """
            }
            try db.execute(sql: sql)
        }
    }
}
