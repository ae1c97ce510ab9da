/// The Journal on PostgreSQL (version 20), the twin of SQLite's "v20-journal" (docs/journal.md "Storage"): entries
/// are generic rows of `sync_rows` (collection `journal`), and `journal_entries` holds the live ones again as real
/// columns and an index, kept in step by a row trigger on `sync_rows` (a push, an import, a delete, an account's
/// erasure). A row whose data is not an entry (free-form, pushed before this version) is left out. A trigger on
/// `journal_entries` counts its days in `logged_days`, so a journal day counts toward the streak.
public enum PostgresJournalSchema {
    public static let migrations: [PostgresMigration] = [
        PostgresMigration(version: 20, name: "journal", statements: [
            """
            CREATE TABLE journal_entries (
                user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                id uuid NOT NULL,
                date date NOT NULL,
                minute integer NOT NULL,
                created_at timestamptz NOT NULL,
                updated_at timestamptz,
                input_type text NOT NULL,
                raw_input text NOT NULL,
                description text NOT NULL,
                category text,
                media_ids text NOT NULL,
                version bigint NOT NULL,
                PRIMARY KEY (user_id, id)
            )
            """,
            "CREATE INDEX journal_entries_day ON journal_entries (user_id, date, minute, created_at, id)",
            """
            CREATE FUNCTION journal_entries_logged_days() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP = 'DELETE' THEN
                    UPDATE logged_days SET entries = entries - 1 WHERE user_id = OLD.user_id AND local_date = OLD.date;
                    DELETE FROM logged_days WHERE user_id = OLD.user_id AND local_date = OLD.date AND entries = 0;
                ELSE
                    INSERT INTO logged_days (user_id, local_date, entries) VALUES (NEW.user_id, NEW.date, 1)
                        ON CONFLICT (user_id, local_date) DO UPDATE SET entries = logged_days.entries + 1;
                END IF;
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE TRIGGER journal_entries_logged_days AFTER INSERT OR DELETE ON journal_entries
                FOR EACH ROW EXECUTE FUNCTION journal_entries_logged_days()
            """,
            """
            CREATE FUNCTION journal_entries_from_row(r sync_rows) RETURNS void LANGUAGE plpgsql AS $$
            DECLARE d jsonb := r.data::jsonb;
            BEGIN
                IF jsonb_typeof(d->'date') = 'string' AND jsonb_typeof(d->'time') = 'string'
                    AND jsonb_typeof(d->'createdAt') = 'string' AND jsonb_typeof(d->'inputType') = 'string'
                    AND jsonb_typeof(d->'processedDescription') = 'string' THEN
                    INSERT INTO journal_entries (user_id, id, date, minute, created_at, updated_at, input_type, raw_input,
                        description, category, media_ids, version)
                    VALUES (r.user_id, r.id, (d->>'date')::date,
                        substr(d->>'time', 1, 2)::integer * 60 + substr(d->>'time', 4, 2)::integer,
                        (d->>'createdAt')::timestamptz, (d->>'updatedAt')::timestamptz,
                        CASE d->>'inputType' WHEN 'image' THEN 'photo' ELSE d->>'inputType' END,
                        coalesce(d->>'rawInput', ''), d->>'processedDescription', d->>'category',
                        coalesce(d->'mediaIds', '[]'::jsonb)::text, r.version);
                END IF;
            END
            $$
            """,
            """
            CREATE FUNCTION journal_entries_sync() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.collection = 'journal' THEN
                    DELETE FROM journal_entries WHERE user_id = OLD.user_id AND id = OLD.id;
                END IF;
                IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.collection = 'journal' AND NEW.deleted_at IS NULL THEN
                    PERFORM journal_entries_from_row(NEW);
                END IF;
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE TRIGGER sync_rows_journal AFTER INSERT OR UPDATE OR DELETE ON sync_rows
                FOR EACH ROW EXECUTE FUNCTION journal_entries_sync()
            """,
            "SELECT journal_entries_from_row(r) FROM sync_rows r WHERE r.collection = 'journal' AND r.deleted_at IS NULL",
        ]),
        // The search (docs/journal.md "Search"): the description and raw input in lower case as a generated column,
        // so `LIKE` compares without folding every row on every search, and a trigram index over it per user
        // (pg_trgm and btree_gin, PostgreSQL's contrib extensions, both "trusted": a database owner may create
        // them) that finds the rows of a rare word without reading the others. Without the extensions (a server
        // whose PostgreSQL lacks contrib, or a role that may not create them), the column alone: the search is
        // the same, only slower for rare words.
        PostgresMigration(version: 21, name: "journal-search", statements: [
            """
            ALTER TABLE journal_entries ADD COLUMN search_text text NOT NULL
                GENERATED ALWAYS AS (lower(description || chr(10) || raw_input)) STORED
            """,
            """
            DO $$
            BEGIN
                IF (SELECT count(*) FROM pg_available_extensions WHERE name IN ('pg_trgm', 'btree_gin')) = 2 THEN
                    CREATE EXTENSION IF NOT EXISTS pg_trgm;
                    CREATE EXTENSION IF NOT EXISTS btree_gin;
                    CREATE INDEX journal_entries_search ON journal_entries USING gin (user_id, search_text gin_trgm_ops);
                ELSE
                    RAISE WARNING 'journal search: pg_trgm or btree_gin is not installed; searching without the trigram index';
                END IF;
            EXCEPTION WHEN insufficient_privilege THEN
                RAISE WARNING 'journal search: % (searching without the trigram index)', SQLERRM;
            END
            $$
            """,
        ]),
    ]
}
