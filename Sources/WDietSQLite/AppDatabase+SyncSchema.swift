import GRDB

extension AppDatabase {
    /// Sync (docs/sync.md).
    /// - `syncRows`: generic rows keyed by (user, collection, id) with a JSON object, so that a module added later
    ///   (the journal) syncs through the same push and pull without a new table or protocol. Versions and
    ///   tombstones as every synced row.
    /// - `syncResults`: the answer given to each pushed change, by (user, idempotency key), so that a replayed push
    ///   changes nothing and answers the same. Kept `SyncLimits.resultRetention` (purged at the user's next push);
    ///   not synced, so no version.
    static func registerSyncMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v8-sync") { db in
            try db.execute(sql: """
                CREATE TABLE syncRows (
                    userId TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    collection TEXT NOT NULL CHECK (collection <> ''),
                    id TEXT NOT NULL,
                    data TEXT NOT NULL CHECK (json_valid(data) AND json_type(data) = 'object'),
                    createdAt TEXT NOT NULL,
                    updatedAt TEXT NOT NULL,
                    version INTEGER NOT NULL,
                    deletedAt TEXT,
                    PRIMARY KEY (userId, collection, id)
                ) WITHOUT ROWID;
                CREATE INDEX syncRows_userId_version ON syncRows(userId, version);

                CREATE TABLE syncResults (
                    userId TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    idempotencyKey TEXT NOT NULL,
                    result TEXT NOT NULL CHECK (json_valid(result)),
                    createdAt TEXT NOT NULL,
                    PRIMARY KEY (userId, idempotencyKey)
                ) WITHOUT ROWID;
                CREATE INDEX syncResults_userId_createdAt ON syncResults(userId, createdAt);
                """)
        }
    }
}
