/// The account side on PostgreSQL (version 2): the twins of SQLite's `credentials`, `sessions`, `identities`,
/// `loginFailures`, `rateLimitEvents`, `dismissedTips` and `analytics_events`, with native types and snake_case
/// names, each keyed by `users.id` and gone with its user (`ON DELETE CASCADE`).
///
/// - `credentials`, `sessions`, `identities`, `login_failures` and `rate_limit_events` do not sync (no `version`):
///   they are the server's secrets and counters.
/// - A session row holds the SHA-256 of its token, never the token: the CHECK admits only 64 lowercase hex digits.
/// - `login_failures.throttle_key` is the SHA-256 the server makes of "account:<email>" or "address:<ip>", so no
///   email or address is kept in the clear.
/// - `dismissed_tips` and `analytics_events` sync: their `version` comes from the owning user's
///   `users.last_version`, bumped in the writing transaction.
/// - Session kinds, tip ids and event names are not pinned by CHECKs: the sets grow, and the stores read only the
///   values they know.
public enum PostgresAccountSchema {
    public static let migrations: [PostgresMigration] = [
        PostgresMigration(version: 2, name: "accounts", statements: [
            """
            CREATE TABLE credentials (
                user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
                password_hash text NOT NULL CHECK (password_hash <> ''),
                updated_at timestamptz NOT NULL
            )
            """,
            """
            CREATE TABLE sessions (
                token_hash text PRIMARY KEY CHECK (token_hash ~ '^[0-9a-f]{64}$'),
                user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                kind text NOT NULL CHECK (kind <> ''),
                created_at timestamptz NOT NULL,
                expires_at timestamptz NOT NULL,
                last_used_at timestamptz NOT NULL,
                CHECK (expires_at > created_at)
            )
            """,
            "CREATE INDEX sessions_user_id_expires_at ON sessions (user_id, expires_at)",
            """
            CREATE TABLE identities (
                issuer text NOT NULL CHECK (issuer <> ''),
                subject text NOT NULL CHECK (subject <> ''),
                user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                email text,
                linked_at timestamptz NOT NULL,
                PRIMARY KEY (issuer, subject)
            )
            """,
            "CREATE INDEX identities_user_id ON identities (user_id)",
            """
            CREATE TABLE login_failures (
                throttle_key text PRIMARY KEY CHECK (throttle_key <> ''),
                failure_count integer NOT NULL CHECK (failure_count > 0),
                window_started_at timestamptz NOT NULL
            )
            """,
            "CREATE INDEX login_failures_window_started_at ON login_failures (window_started_at)",
            """
            CREATE TABLE rate_limit_events (
                id uuid PRIMARY KEY,
                user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                action text NOT NULL CHECK (action <> ''),
                occurred_at timestamptz NOT NULL
            )
            """,
            "CREATE INDEX rate_limit_events_user_action_time ON rate_limit_events (user_id, action, occurred_at)",
            """
            CREATE TABLE dismissed_tips (
                user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                tip_id text NOT NULL CHECK (tip_id <> ''),
                dismissed_at timestamptz NOT NULL,
                version bigint NOT NULL,
                PRIMARY KEY (user_id, tip_id)
            )
            """,
            "CREATE INDEX dismissed_tips_user_id_version ON dismissed_tips (user_id, version)",
            """
            CREATE TABLE analytics_events (
                id uuid PRIMARY KEY,
                user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                name text NOT NULL CHECK (name <> ''),
                properties jsonb NOT NULL CHECK (jsonb_typeof(properties) = 'object'),
                occurred_at timestamptz NOT NULL,
                created_at timestamptz NOT NULL,
                updated_at timestamptz NOT NULL,
                version bigint NOT NULL,
                deleted_at timestamptz
            )
            """,
            "CREATE INDEX analytics_events_user_id_occurred_at ON analytics_events (user_id, occurred_at)",
            "CREATE INDEX analytics_events_user_id_version ON analytics_events (user_id, version)",
        ]),
        // The language a person chose in Settings, as SQLite's v10-user-language: a catalog language's tag ("en",
        // "de"), NULL to follow the browser's Accept-Language. Not pinned to today's languages by a CHECK, so a new
        // one needs no migration; the store reads only the ones it knows. Read with every session lookup.
        PostgresMigration(version: 6, name: "user-language", statements: [
            "ALTER TABLE users ADD COLUMN language text CHECK (language IS NULL OR language <> '')",
        ]),
        // The theme a person chose in Settings, as SQLite's v12-user-appearance: "light", "dark", or NULL for Auto.
        // Read with every session lookup, like the language.
        PostgresMigration(version: 8, name: "user-appearance", statements: [
            "ALTER TABLE users ADD COLUMN appearance text CHECK (appearance IS NULL OR appearance IN ('light', 'dark'))",
        ]),
        // "Forgot password?" (issue 21 item 11), as SQLite's v40-password-reset-tokens: one row per outstanding reset
        // link, keyed by the SHA-256 of its token (the token itself is only in the email), gone with its user.
        PostgresMigration(version: 40, name: "password-reset-tokens", statements: [
            """
            CREATE TABLE password_reset_tokens (
                token_hash text PRIMARY KEY CHECK (token_hash ~ '^[0-9a-f]{64}$'),
                user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                created_at timestamptz NOT NULL,
                expires_at timestamptz NOT NULL
            )
            """,
            "CREATE INDEX password_reset_tokens_user_id ON password_reset_tokens (user_id)",
        ]),
    ]
}
