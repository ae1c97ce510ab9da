/// Deleted rows lose their content after `DeletedRows.retention` (issue 21 item 8), as SQLite's
/// v47-deleted-rows-scrub: `scrubbed_at` marks a tombstone whose content is gone; the partial indexes hold only the
/// tombstones still to scrub.
public enum PostgresDeletedRowsSchema {
    public static let migrations: [PostgresMigration] = [
        PostgresMigration(version: 47, name: "deleted-rows-scrub", statements: [
            "ALTER TABLE meals ADD COLUMN scrubbed_at timestamptz",
            "ALTER TABLE weights ADD COLUMN scrubbed_at timestamptz",
            "CREATE INDEX meals_to_scrub ON meals (deleted_at) WHERE deleted_at IS NOT NULL AND scrubbed_at IS NULL",
            "CREATE INDEX weights_to_scrub ON weights (deleted_at) WHERE deleted_at IS NOT NULL AND scrubbed_at IS NULL",
            "CREATE INDEX sync_results_created_at ON sync_results (created_at)",
            // A row brought back (a sync upsert from the tombstone's version) or deleted anew is no longer scrubbed.
            """
            CREATE FUNCTION wdiet_unscrub() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF NEW.deleted_at IS DISTINCT FROM OLD.deleted_at THEN NEW.scrubbed_at := NULL; END IF;
                RETURN NEW;
            END $$
            """,
            "CREATE TRIGGER meals_unscrub BEFORE UPDATE OF deleted_at ON meals FOR EACH ROW EXECUTE FUNCTION wdiet_unscrub()",
            "CREATE TRIGGER weights_unscrub BEFORE UPDATE OF deleted_at ON weights FOR EACH ROW EXECUTE FUNCTION wdiet_unscrub()",
        ]),
        // Generic sync rows (issue 21 item 8, second half), as SQLite's v48-sync-rows-scrub: a scrubbed row's data is
        // '{}', its own mark; the partial index holds the tombstones whose data is still there.
        PostgresMigration(version: 48, name: "sync-rows-scrub", statements: [
            "CREATE INDEX sync_rows_to_scrub ON sync_rows (deleted_at) WHERE deleted_at IS NOT NULL AND data <> '{}'",
        ]),
    ]
}
