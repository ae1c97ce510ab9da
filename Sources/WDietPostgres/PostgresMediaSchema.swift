/// Media on PostgreSQL (version 201; media migrations use 201–299): photos and recordings as `bytea` in a table of
/// their own (docs/media.md says why `bytea` and not large objects). The bytes are stored `EXTERNAL`: out of line in
/// TOAST, uncompressed (JPEG and recordings do not compress, and trying costs CPU), so reading the metadata never
/// touches them.
public enum PostgresMediaSchema {
    public static let migrations: [PostgresMigration] = [
        PostgresMigration(version: 201, name: "media", statements: [
            """
            CREATE TABLE media (
                user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                id uuid NOT NULL,
                kind text NOT NULL CHECK (kind IN ('photo', 'audio')),
                content_type text NOT NULL,
                bytes integer NOT NULL,
                thumbnail_bytes integer,
                width integer,
                height integer,
                upload_digest text NOT NULL,
                created_at timestamptz NOT NULL,
                data bytea NOT NULL,
                thumbnail bytea,
                PRIMARY KEY (user_id, id)
            )
            """,
            "ALTER TABLE media ALTER COLUMN data SET STORAGE EXTERNAL, ALTER COLUMN thumbnail SET STORAGE EXTERNAL",
        ]),
        // When the sweep found that no row names the item (an upload: its upload); NULL while a row names it. Items
        // stored before are unmarked: the first sweep marks those no row names (docs/media.md).
        PostgresMigration(version: 202, name: "media-unreferenced", statements: [
            "ALTER TABLE media ADD COLUMN unreferenced_since timestamptz",
        ]),
    ]
}
