/// The value rules of the rows a meal save writes, as domains instead of table CHECK constraints (issue 16 item 7).
///
/// PostgreSQL reads a table CHECK constraint's stored expression again (`stringToNode`), plans it and builds its
/// state for every statement that inserts or updates the table; a domain's check is parsed and planned once and kept
/// in the type cache. A meal save writes `meals`, bumps `users.last_version` and inserts into `analytics_events`, so
/// it paid for 13 such expressions per statement. Measured with callgrind on a single-user backend running the
/// save's statement (docs/benchmarks.md): 1.18 M instructions a save before, 0.85 M after.
///
/// The rules are the same: NULL still passes where it passed (a domain's check on NULL is not false), NOT NULL stays
/// on the columns, and a bad value is still refused with SQLSTATE 23514 (check_violation). Clients see the base
/// types (PostgreSQL describes a domain column by its base type). The cross-column rule of `meals` (a database
/// meal names its food and grams) stays a table constraint.
///
/// No table is rewritten: the columns change to domains without checks first (binary-coercible, no rewrite), then
/// each domain gets its check, which PostgreSQL validates by reading the rows once.
public enum PostgresValueDomainsSchema {
    public static let migrations: [PostgresMigration] = [
        PostgresMigration(version: 49, name: "value-domains", statements: [
            "CREATE DOMAIN wdiet_nonnegative AS double precision",
            "CREATE DOMAIN wdiet_positive AS double precision",
            "CREATE DOMAIN wdiet_count AS integer",
            "CREATE DOMAIN wdiet_meal_source AS text",
            "CREATE DOMAIN wdiet_meal_slot AS text",
            "CREATE DOMAIN wdiet_nonempty_text AS text",
            "CREATE DOMAIN wdiet_appearance AS text",
            "CREATE DOMAIN wdiet_json_object AS jsonb",
            """
            ALTER TABLE meals
                DROP CONSTRAINT meals_grams_check, DROP CONSTRAINT meals_kcal_check, DROP CONSTRAINT meals_protein_check,
                DROP CONSTRAINT meals_carbs_check, DROP CONSTRAINT meals_fat_check, DROP CONSTRAINT meals_fiber_check,
                DROP CONSTRAINT meals_source_check, DROP CONSTRAINT meals_slot_check,
                ALTER COLUMN grams TYPE wdiet_positive, ALTER COLUMN kcal TYPE wdiet_nonnegative,
                ALTER COLUMN protein TYPE wdiet_nonnegative, ALTER COLUMN carbs TYPE wdiet_nonnegative,
                ALTER COLUMN fat TYPE wdiet_nonnegative, ALTER COLUMN fiber TYPE wdiet_nonnegative,
                ALTER COLUMN source TYPE wdiet_meal_source, ALTER COLUMN slot TYPE wdiet_meal_slot
            """,
            "ALTER TABLE weights DROP CONSTRAINT weights_kg_check, ALTER COLUMN kg TYPE wdiet_positive",
            "ALTER TABLE logged_days DROP CONSTRAINT logged_days_entries_check, ALTER COLUMN entries TYPE wdiet_count",
            """
            ALTER TABLE users DROP CONSTRAINT users_language_check, DROP CONSTRAINT users_appearance_check,
                ALTER COLUMN language TYPE wdiet_nonempty_text, ALTER COLUMN appearance TYPE wdiet_appearance
            """,
            """
            ALTER TABLE analytics_events
                DROP CONSTRAINT analytics_events_name_check, DROP CONSTRAINT analytics_events_properties_check,
                ALTER COLUMN name TYPE wdiet_nonempty_text, ALTER COLUMN properties TYPE wdiet_json_object
            """,
            "ALTER DOMAIN wdiet_nonnegative ADD CONSTRAINT wdiet_nonnegative_check CHECK (VALUE >= 0)",
            "ALTER DOMAIN wdiet_positive ADD CONSTRAINT wdiet_positive_check CHECK (VALUE > 0)",
            "ALTER DOMAIN wdiet_count ADD CONSTRAINT wdiet_count_check CHECK (VALUE >= 0)",
            "ALTER DOMAIN wdiet_meal_source ADD CONSTRAINT wdiet_meal_source_check CHECK (VALUE IN ('manual', 'database', 'labelScan'))",
            "ALTER DOMAIN wdiet_meal_slot ADD CONSTRAINT wdiet_meal_slot_check CHECK (VALUE IN ('breakfast', 'lunch', 'dinner', 'snack'))",
            "ALTER DOMAIN wdiet_nonempty_text ADD CONSTRAINT wdiet_nonempty_text_check CHECK (VALUE <> '')",
            "ALTER DOMAIN wdiet_appearance ADD CONSTRAINT wdiet_appearance_check CHECK (VALUE IN ('light', 'dark'))",
            "ALTER DOMAIN wdiet_json_object ADD CONSTRAINT wdiet_json_object_check CHECK (jsonb_typeof(VALUE) = 'object')",
        ]),
    ]
}
