import GRDB

extension AppDatabase {
    /// The coach's tables. Conventions shared by every user-owned table:
    /// - `id` is a lowercase UUID made by whoever creates the row (offline clients create rows too);
    /// - instants are UTC ISO-8601 text with milliseconds (`2026-03-01T11:30:00.000Z`), which sorts as it reads;
    /// - `localDate` is `YYYY-MM-DD` in the user's time zone at logging time, so day queries are index lookups;
    /// - `version` comes from the one-row `syncVersion` counter, bumped in the same transaction as the write, so
    ///   versions grow in commit order across the whole database (the sync cursor);
    /// - `deletedAt` marks a tombstone: rows are not removed while sync may still need to hand them out.
    ///
    /// Enumerations whose cases may grow (the deficit setting) are not pinned by CHECK constraints: SQLite cannot
    /// alter a CHECK without rebuilding the table.
    static func registerCoachMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v1-coach") { db in
            try db.execute(sql: """
                CREATE TABLE syncVersion (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    value INTEGER NOT NULL CHECK (value >= 0)
                );
                INSERT INTO syncVersion (id, value) VALUES (1, 0);

                CREATE TABLE users (
                    id TEXT PRIMARY KEY NOT NULL,
                    email TEXT UNIQUE COLLATE NOCASE,
                    displayName TEXT NOT NULL,
                    createdAt TEXT NOT NULL,
                    updatedAt TEXT NOT NULL,
                    version INTEGER NOT NULL,
                    deletedAt TEXT
                );

                CREATE TABLE profiles (
                    id TEXT PRIMARY KEY NOT NULL,
                    userId TEXT NOT NULL UNIQUE REFERENCES users(id) ON DELETE CASCADE,
                    dateOfBirth TEXT NOT NULL CHECK (dateOfBirth GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
                    sex TEXT NOT NULL CHECK (sex IN ('male', 'female', 'other')),
                    heightCm REAL NOT NULL CHECK (heightCm > 0),
                    weightKg REAL NOT NULL CHECK (weightKg > 0),
                    targetWeightKg REAL CHECK (targetWeightKg > 0),
                    targetDate TEXT CHECK (targetDate GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
                    goal TEXT NOT NULL CHECK (goal IN ('lose', 'maintain', 'gain')),
                    activity TEXT NOT NULL CHECK (activity IN ('sedentary', 'light', 'moderate', 'very', 'extreme')),
                    dietaryPreferences TEXT NOT NULL CHECK (json_valid(dietaryPreferences) AND json_type(dietaryPreferences) = 'array'),
                    allergies TEXT NOT NULL CHECK (json_valid(allergies) AND json_type(allergies) = 'array'),
                    mealsPerDay INTEGER NOT NULL CHECK (mealsPerDay >= 1),
                    timeZone TEXT NOT NULL CHECK (timeZone <> ''),
                    eatingWindowStartMinute INTEGER NOT NULL
                        CHECK (eatingWindowStartMinute BETWEEN 0 AND 1439 AND eatingWindowStartMinute % 30 = 0),
                    planStartDate TEXT NOT NULL CHECK (planStartDate GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
                    deficit TEXT NOT NULL,
                    weightUnit TEXT NOT NULL CHECK (weightUnit IN ('kg', 'lb')),
                    heightUnit TEXT NOT NULL CHECK (heightUnit IN ('cm', 'ftIn')),
                    createdAt TEXT NOT NULL,
                    updatedAt TEXT NOT NULL,
                    version INTEGER NOT NULL,
                    deletedAt TEXT
                );

                CREATE TABLE meals (
                    id TEXT PRIMARY KEY NOT NULL,
                    userId TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    name TEXT NOT NULL,
                    foodId TEXT,
                    grams REAL CHECK (grams > 0),
                    kcal REAL NOT NULL CHECK (kcal >= 0),
                    protein REAL CHECK (protein >= 0),
                    carbs REAL CHECK (carbs >= 0),
                    fat REAL CHECK (fat >= 0),
                    fiber REAL CHECK (fiber >= 0),
                    source TEXT NOT NULL CHECK (source IN ('manual', 'database', 'labelScan')),
                    loggedAt TEXT NOT NULL,
                    localDate TEXT NOT NULL CHECK (localDate GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
                    createdAt TEXT NOT NULL,
                    updatedAt TEXT NOT NULL,
                    version INTEGER NOT NULL,
                    deletedAt TEXT,
                    CHECK (source <> 'database' OR (foodId IS NOT NULL AND grams IS NOT NULL))
                );
                CREATE INDEX meals_userId_localDate ON meals(userId, localDate);
                CREATE INDEX meals_userId_version ON meals(userId, version);

                CREATE TABLE weights (
                    id TEXT PRIMARY KEY NOT NULL,
                    userId TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    kg REAL NOT NULL CHECK (kg > 0),
                    loggedAt TEXT NOT NULL,
                    localDate TEXT NOT NULL CHECK (localDate GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
                    createdAt TEXT NOT NULL,
                    updatedAt TEXT NOT NULL,
                    version INTEGER NOT NULL,
                    deletedAt TEXT
                );
                CREATE INDEX weights_userId_localDate ON weights(userId, localDate);
                CREATE INDEX weights_userId_version ON weights(userId, version);
                CREATE INDEX weights_userId_loggedAt ON weights(userId, loggedAt);

                CREATE TABLE analytics_events (
                    id TEXT PRIMARY KEY NOT NULL,
                    userId TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    name TEXT NOT NULL CHECK (name <> ''),
                    properties TEXT NOT NULL CHECK (json_valid(properties) AND json_type(properties) = 'object'),
                    occurredAt TEXT NOT NULL,
                    createdAt TEXT NOT NULL,
                    updatedAt TEXT NOT NULL,
                    version INTEGER NOT NULL,
                    deletedAt TEXT
                );
                CREATE INDEX analytics_events_userId_occurredAt ON analytics_events(userId, occurredAt);
                CREATE INDEX analytics_events_userId_version ON analytics_events(userId, version);
                """)
        }

        // "Changes apply tomorrow": a profile change that alters the targets waits for the user's next local
        // midnight. The row keeps the target inputs the day of the change began with (`Profile.TargetInputs` as a
        // JSON object) and that day; both or neither. They sync with the row, under its version. (json_valid(NULL)
        // is 0 in older SQLite, hence the IS NULL.)
        migrator.registerMigration("v2-profile-pending-changes") { db in
            try db.execute(sql: """
                ALTER TABLE profiles ADD COLUMN planPreviousInputs TEXT
                    CHECK (planPreviousInputs IS NULL
                        OR (json_valid(planPreviousInputs) AND json_type(planPreviousInputs) = 'object'));
                ALTER TABLE profiles ADD COLUMN planChangedOn TEXT
                    CHECK (planChangedOn GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]')
                    CHECK ((planChangedOn IS NULL) = (planPreviousInputs IS NULL));
                """)
        }

        // The dashboard reads a streak and the last week of weights on every load. `loggedDays` counts the live
        // meals and weights of each (user, local day); triggers keep it in step with every insert, edit, tombstone
        // and delete, so a streak is one backward walk over a covering index that stops at the first gap, and no
        // write path can forget it. The weights index lets "the day's latest entry" be read in index order.
        migrator.registerMigration("v3-logged-days") { db in
            var sql = """
                CREATE TABLE loggedDays (
                    userId TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    localDate TEXT NOT NULL,
                    entries INTEGER NOT NULL CHECK (entries >= 0),
                    PRIMARY KEY (userId, localDate)
                ) WITHOUT ROWID;
                INSERT INTO loggedDays (userId, localDate, entries)
                    SELECT userId, localDate, COUNT(*) FROM (
                        SELECT userId, localDate FROM meals WHERE deletedAt IS NULL
                        UNION ALL
                        SELECT userId, localDate FROM weights WHERE deletedAt IS NULL
                    ) GROUP BY userId, localDate;
                DROP INDEX weights_userId_localDate;
                CREATE INDEX weights_userId_localDate_loggedAt ON weights(userId, localDate, loggedAt, version);

                """
            for table in ["meals", "weights"] {
                let count = { (row: String) in """
                    INSERT INTO loggedDays (userId, localDate, entries) VALUES (\(row).userId, \(row).localDate, 1)
                        ON CONFLICT (userId, localDate) DO UPDATE SET entries = entries + 1;
                    """ }
                let uncount = { (row: String) in """
                    UPDATE loggedDays SET entries = entries - 1 WHERE userId = \(row).userId AND localDate = \(row).localDate;
                    DELETE FROM loggedDays WHERE userId = \(row).userId AND localDate = \(row).localDate AND entries = 0;
                    """ }
                sql += """
                    CREATE TRIGGER \(table)_loggedDays_insert AFTER INSERT ON \(table) WHEN NEW.deletedAt IS NULL BEGIN
                        \(count("NEW"))
                    END;
                    CREATE TRIGGER \(table)_loggedDays_update_old AFTER UPDATE OF userId, localDate, deletedAt ON \(table)
                    WHEN OLD.deletedAt IS NULL BEGIN
                        \(uncount("OLD"))
                    END;
                    CREATE TRIGGER \(table)_loggedDays_update_new AFTER UPDATE OF userId, localDate, deletedAt ON \(table)
                    WHEN NEW.deletedAt IS NULL BEGIN
                        \(count("NEW"))
                    END;
                    CREATE TRIGGER \(table)_loggedDays_delete AFTER DELETE ON \(table) WHEN OLD.deletedAt IS NULL BEGIN
                        \(uncount("OLD"))
                    END;

                    """
            }
            try db.execute(sql: sql)
        }
    }
}
