/// The Challenge's server-only table (issue 20): the app lock's PIN hash per user (SQLite: "v45-challenge-app-lock").
enum PostgresChallengeSchema {
    static let migrations: [PostgresMigration] = [
        PostgresMigration(version: 45, name: "challenge-app-lock", statements: [
            """
            CREATE TABLE challenge_app_locks (
                user_id UUID PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                pin_hash TEXT NOT NULL,
                failed_attempts INTEGER NOT NULL DEFAULT 0,
                updated_at timestamptz NOT NULL
            )
            """,
        ]),
    ]
}
