/// The coach's tables on PostgreSQL: the same rows as the SQLite schema (`AppDatabase+CoachSchema`, migrations
/// v1–v3, and `AppDatabase+ProfileSchema`'s v7 as version 3), in snake case and native types: `uuid` ids,
/// `timestamptz` instants (whole milliseconds, as SQLite's text keeps them), `date` for local dates,
/// `double precision`, `jsonb` for the JSON columns.
///
/// **Versions.** Each user has a change counter, `users.last_version`. Every write transaction first locks the
/// owning user's row (`SELECT … FOR NO KEY UPDATE`), decides which rows change, bumps the counter by that number —
/// `UPDATE users SET last_version = last_version + n WHERE id = $1 RETURNING last_version` — and stamps its n rows
/// with the consecutive values ending there. The row lock serialises one user's writers, so one user's versions
/// grow in commit order: a sync cursor (issue 5) that has seen version N of a user has seen every change of theirs
/// numbered below N, and never skips a row whose transaction committed late. (SQLite has one writer, so one
/// database-wide counter gives the same guarantee there.) A user's own row is version 1 of their counter.
///
/// **Logged days.** `logged_days` counts the live meals and weights of each (user, local day), exact after every
/// insert, edit, tombstone and delete, so a streak is one backward walk over the primary key that stops at the
/// first gap. Row triggers count edits, tombstones and deletes; an insert counts its own rows in the same statement
/// (migration 50; `PostgresOwnedRow.countLoggedDaysSQL`), so a new insert into `meals` or `weights` goes through
/// `PostgresOwnedRow.insert` or `insertNewWithEvent`, never plain SQL.
///
/// Enumerations whose cases may grow (the deficit setting) are not pinned by CHECK constraints, as on SQLite.
public enum PostgresCoachSchema {
    public static let migrations: [PostgresMigration] = [
        PostgresMigration(version: 1, name: "coach", statements: [
            """
            CREATE TABLE users (
                id uuid PRIMARY KEY,
                email text,
                display_name text NOT NULL,
                created_at timestamptz NOT NULL,
                updated_at timestamptz NOT NULL,
                version bigint NOT NULL,
                deleted_at timestamptz,
                last_version bigint NOT NULL DEFAULT 0
            )
            """,
            "CREATE UNIQUE INDEX users_email_key ON users (lower(email))",
            """
            CREATE TABLE profiles (
                id uuid PRIMARY KEY,
                user_id uuid NOT NULL UNIQUE REFERENCES users (id) ON DELETE CASCADE,
                date_of_birth date NOT NULL,
                sex text NOT NULL CHECK (sex IN ('male', 'female', 'other')),
                height_cm double precision NOT NULL CHECK (height_cm > 0),
                weight_kg double precision NOT NULL CHECK (weight_kg > 0),
                target_weight_kg double precision CHECK (target_weight_kg > 0),
                target_date date,
                goal text NOT NULL CHECK (goal IN ('lose', 'maintain', 'gain')),
                activity text NOT NULL CHECK (activity IN ('sedentary', 'light', 'moderate', 'very', 'extreme')),
                dietary_preferences jsonb NOT NULL CHECK (jsonb_typeof(dietary_preferences) = 'array'),
                allergies jsonb NOT NULL CHECK (jsonb_typeof(allergies) = 'array'),
                meals_per_day integer NOT NULL CHECK (meals_per_day >= 1),
                time_zone text NOT NULL CHECK (time_zone <> ''),
                eating_window_start_minute integer NOT NULL
                    CHECK (eating_window_start_minute BETWEEN 0 AND 1439 AND eating_window_start_minute % 30 = 0),
                plan_start_date date NOT NULL,
                deficit text NOT NULL,
                weight_unit text NOT NULL CHECK (weight_unit IN ('kg', 'lb')),
                height_unit text NOT NULL CHECK (height_unit IN ('cm', 'ftIn')),
                -- "Changes apply tomorrow": the target inputs the day of the change began with, and that day.
                plan_previous_inputs jsonb CHECK (jsonb_typeof(plan_previous_inputs) = 'object'),
                plan_changed_on date,
                created_at timestamptz NOT NULL,
                updated_at timestamptz NOT NULL,
                version bigint NOT NULL,
                deleted_at timestamptz,
                CHECK ((plan_changed_on IS NULL) = (plan_previous_inputs IS NULL))
            )
            """,
            """
            CREATE TABLE meals (
                id uuid PRIMARY KEY,
                user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                name text NOT NULL,
                food_id text,
                grams double precision CHECK (grams > 0),
                kcal double precision NOT NULL CHECK (kcal >= 0),
                protein double precision CHECK (protein >= 0),
                carbs double precision CHECK (carbs >= 0),
                fat double precision CHECK (fat >= 0),
                fiber double precision CHECK (fiber >= 0),
                source text NOT NULL CHECK (source IN ('manual', 'database', 'labelScan')),
                logged_at timestamptz NOT NULL,
                local_date date NOT NULL,
                created_at timestamptz NOT NULL,
                updated_at timestamptz NOT NULL,
                version bigint NOT NULL,
                deleted_at timestamptz,
                CHECK (source <> 'database' OR (food_id IS NOT NULL AND grams IS NOT NULL))
            )
            """,
            "CREATE INDEX meals_user_id_local_date ON meals (user_id, local_date)",
            "CREATE INDEX meals_user_id_version ON meals (user_id, version)",
            """
            CREATE TABLE weights (
                id uuid PRIMARY KEY,
                user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                kg double precision NOT NULL CHECK (kg > 0),
                logged_at timestamptz NOT NULL,
                local_date date NOT NULL,
                created_at timestamptz NOT NULL,
                updated_at timestamptz NOT NULL,
                version bigint NOT NULL,
                deleted_at timestamptz
            )
            """,
            // Read backwards, each day's first row is its current value (the dashboard's last 8 days).
            "CREATE INDEX weights_user_id_local_date_logged_at ON weights (user_id, local_date, logged_at, version)",
            "CREATE INDEX weights_user_id_logged_at ON weights (user_id, logged_at)",
            "CREATE INDEX weights_user_id_version ON weights (user_id, version)",
            """
            CREATE TABLE logged_days (
                user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                local_date date NOT NULL,
                entries integer NOT NULL CHECK (entries >= 0),
                PRIMARY KEY (user_id, local_date)
            )
            """,
            // One function for both tables: a live row counts toward its (user, day), a tombstone does not.
            """
            CREATE FUNCTION logged_days_count() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.deleted_at IS NULL THEN
                    UPDATE logged_days SET entries = entries - 1
                        WHERE user_id = OLD.user_id AND local_date = OLD.local_date;
                    DELETE FROM logged_days
                        WHERE user_id = OLD.user_id AND local_date = OLD.local_date AND entries = 0;
                END IF;
                IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.deleted_at IS NULL THEN
                    INSERT INTO logged_days (user_id, local_date, entries) VALUES (NEW.user_id, NEW.local_date, 1)
                        ON CONFLICT (user_id, local_date) DO UPDATE SET entries = logged_days.entries + 1;
                END IF;
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE TRIGGER meals_logged_days AFTER INSERT OR DELETE OR UPDATE OF user_id, local_date, deleted_at
                ON meals FOR EACH ROW EXECUTE FUNCTION logged_days_count()
            """,
            """
            CREATE TRIGGER weights_logged_days AFTER INSERT OR DELETE OR UPDATE OF user_id, local_date, deleted_at
                ON weights FOR EACH ROW EXECUTE FUNCTION logged_days_count()
            """,
        ]),
        // 001 §3: "Other" may carry the person's own words, as SQLite's v7-profile-gender-description. At most 20
        // characters as a person sees them, which SQL cannot count (the store checks it); never empty, and only
        // beside sex = 'other', so choosing another option cannot leave a stale description behind.
        PostgresMigration(version: 3, name: "profile-gender-description", statements: [
            """
            ALTER TABLE profiles ADD COLUMN gender_description text,
                ADD CONSTRAINT profiles_gender_description_check
                    CHECK (gender_description IS NULL OR (gender_description <> '' AND sex = 'other'))
            """,
        ]),
        // Counting logged days cheaply for batches (issue 5: a sync push writes 1,000 rows in one statement).
        // Version 1's row trigger fired on every UPDATE that named local_date or deleted_at, which the sync batch
        // and the stores always do, and ran three statements per row even when neither changed: 800 edited meals
        // cost 78 ms of trigger work. Now an UPDATE counts only when a row changes its (user, day) or comes alive or
        // dies (the WHEN test runs in C, per row), and an INSERT counts its rows once per statement, grouped by day
        // from the statement's transition table. DELETE (hard deletes, an account's erasure) keeps the row trigger.
        PostgresMigration(version: 5, name: "logged-days-batch-triggers", statements: [
            "DROP TRIGGER meals_logged_days ON meals",
            "DROP TRIGGER weights_logged_days ON weights",
            """
            CREATE FUNCTION logged_days_count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO logged_days (user_id, local_date, entries)
                    SELECT user_id, local_date, count(*) FROM inserted WHERE deleted_at IS NULL GROUP BY user_id, local_date
                    ON CONFLICT (user_id, local_date) DO UPDATE SET entries = logged_days.entries + EXCLUDED.entries;
                RETURN NULL;
            END
            $$
            """,
        ] + ["meals", "weights"].flatMap { table in [
            """
            CREATE TRIGGER \(table)_logged_days_insert AFTER INSERT ON \(table)
                REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION logged_days_count_inserted()
            """,
            """
            CREATE TRIGGER \(table)_logged_days_update AFTER UPDATE ON \(table) FOR EACH ROW
                WHEN (OLD.user_id IS DISTINCT FROM NEW.user_id OR OLD.local_date IS DISTINCT FROM NEW.local_date
                    OR (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL))
                EXECUTE FUNCTION logged_days_count()
            """,
            "CREATE TRIGGER \(table)_logged_days_delete AFTER DELETE ON \(table) FOR EACH ROW EXECUTE FUNCTION logged_days_count()",
        ] }),
        // The meal's slot (issue 17), as SQLite's v11-meal-slot: the one the person chose, or NULL for a meal logged
        // without one (every meal before this migration, a push from an older client), which is the slot of its local
        // time when read (002's buckets). Left NULL here rather than filled from the profile's time zone, so that both
        // backends hold the same values for the same history.
        PostgresMigration(version: 7, name: "meal-slot", statements: [
            "ALTER TABLE meals ADD COLUMN slot text CHECK (slot IS NULL OR slot IN ('breakfast', 'lunch', 'dinner', 'snack'))",
        ]),
        // Every change of the profile's target inputs (issue 17, "a day's targets are that day's"), as SQLite's
        // v13-profile-plan-history: `plan_previous_inputs` and `plan_changed_on` stay the latest change, the earlier
        // ones are a JSON array of `PlanChange` objects, oldest first.
        PostgresMigration(version: 9, name: "profile-plan-history", statements: [
            """
            ALTER TABLE profiles ADD COLUMN plan_earlier_changes jsonb NOT NULL DEFAULT '[]'::jsonb
                CHECK (jsonb_typeof(plan_earlier_changes) = 'array')
            """,
        ]),
        // The count of an insert moves into the inserting statement (issue 16 item 7): every insert into meals and
        // weights is one of the two statements of `PostgresOwnedRow` (`insertNewWithEvent`, `insert`), and both now
        // count their live rows by day in a `WITH` part of their own (`countLoggedDaysSQL`). The statement trigger
        // cost a transition table, a PL/pgSQL call and a plan of its own for every meal save (about a tenth of the
        // database's CPU a save, docs/benchmarks.md). Edits, tombstones and hard deletes keep their row triggers.
        // Rows already counted stay as they are: nothing to recount.
        PostgresMigration(version: 50, name: "logged-days-in-save", statements: [
            "DROP TRIGGER meals_logged_days_insert ON meals",
            "DROP TRIGGER weights_logged_days_insert ON weights",
            "DROP FUNCTION logged_days_count_inserted()",
        ]),
    ]
}
