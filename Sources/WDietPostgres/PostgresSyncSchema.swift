/// Sync on PostgreSQL (version 4), the twins of SQLite's `syncRows` and `syncResults` (docs/sync.md):
/// - `sync_rows`: generic rows keyed by (user, collection, id) with a JSON object kept as the text that came
///   (canonical, keys sorted: jsonb would reorder and normalise it, and both backends must hand out equal text);
///   versions from `users.last_version` like every synced row, tombstones in `deleted_at`.
/// - `sync_results`: the answer given to each pushed change by (user, idempotency key), for replays; kept
///   `SyncLimits.resultRetention`, purged at the user's next push; not synced.
public enum PostgresSyncSchema {
    public static let migrations: [PostgresMigration] = [
        PostgresMigration(version: 4, name: "sync", statements: [
            """
            CREATE TABLE sync_rows (
                user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                collection text NOT NULL CHECK (collection <> ''),
                id uuid NOT NULL,
                data text NOT NULL,
                created_at timestamptz NOT NULL,
                updated_at timestamptz NOT NULL,
                version bigint NOT NULL,
                deleted_at timestamptz,
                PRIMARY KEY (user_id, collection, id)
            )
            """,
            "CREATE INDEX sync_rows_user_id_version ON sync_rows (user_id, version)",
            """
            CREATE TABLE sync_results (
                user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                idempotency_key text NOT NULL,
                result text NOT NULL,
                created_at timestamptz NOT NULL,
                PRIMARY KEY (user_id, idempotency_key)
            )
            """,
            "CREATE INDEX sync_results_user_id_created_at ON sync_results (user_id, created_at)",
        ]),
    ]
}
