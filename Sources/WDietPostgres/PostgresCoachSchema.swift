/// The coach's tables on PostgreSQL: users, profiles, meals, weights, logged days (versions 1–99).
///
/// In this branch migration 1 holds only `users`, as the account tables need it; the coach branch's migration 1
/// begins with the identical `users` statements and adds the coach's tables after them.
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
        ])
    ]
}
