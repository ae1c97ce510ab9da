import Foundation
import GRDB

/// The client's own SQLite file (or memory), with its schema. One `DatabaseQueue`: a phone app has one writer, and
/// serialized transactions are what make "an edit during a push" well defined (the edit commits before or after the
/// push's acknowledgement is stored, never in between).
///
/// Tables:
/// - `records`: the user's meals, weights, profile and generic rows as this device shows them, tombstones included,
///   with the server version and copy they were last in step with (`serverVersion`, `serverPayload`) and a local
///   `revision` that every local edit bumps.
/// - `outbox`: the changes waiting for the server, at most one not yet sent per row (edits coalesce into it) and at
///   most one sent whose answer has not arrived (`sentChange`, the exact change with its idempotency key).
/// - `deferred`: the newest pulled server copy of a row that had pending edits (the push decides that row; this
///   copy is applied afterwards if it is newer than what the push answered).
/// - `notices`: what the user must hear about (edits lost to another device, refused changes, the profile conflict).
/// - `settings`: server, token, user, pull cursor, last sync. `tips`: dismissed coach tips as pulled.
struct ClientDatabase: Sendable {
    let queue: DatabaseQueue

    /// A file (created when missing) or, with nil, memory.
    init(path: String?) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.label = "wdiet-client"
        if let path {
            // WAL with synchronous FULL: one fsync per local edit instead of two, and still durable once `save…`
            // returns (a phone can lose power right after the user taps Save).
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA journal_mode = WAL")
                try db.execute(sql: "PRAGMA synchronous = FULL")
            }
            queue = try DatabaseQueue(path: path, configuration: configuration)
        } else {
            queue = try DatabaseQueue(configuration: configuration)
        }
        try Self.migrator.migrate(queue)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-client") { db in
            try db.execute(sql: """
                CREATE TABLE settings (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) STRICT;
                CREATE TABLE records (
                    entity TEXT NOT NULL,
                    collection TEXT NOT NULL DEFAULT '',
                    id TEXT NOT NULL,
                    payload TEXT NOT NULL,
                    localDate TEXT,
                    deleted INTEGER NOT NULL DEFAULT 0,
                    serverVersion INTEGER,
                    serverPayload TEXT,
                    revision INTEGER NOT NULL DEFAULT 0,
                    updatedAt TEXT NOT NULL,
                    PRIMARY KEY (entity, collection, id)
                ) STRICT;
                CREATE INDEX records_day ON records(entity, localDate) WHERE deleted = 0;
                CREATE TABLE outbox (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    entity TEXT NOT NULL,
                    collection TEXT NOT NULL DEFAULT '',
                    id TEXT NOT NULL,
                    idempotencyKey TEXT NOT NULL UNIQUE,
                    op TEXT NOT NULL CHECK (op IN ('upsert', 'delete')),
                    revision INTEGER NOT NULL,
                    sentChange TEXT,
                    parkedMessage TEXT,
                    queuedAt TEXT NOT NULL
                ) STRICT;
                CREATE INDEX outbox_row ON outbox(entity, collection, id);
                CREATE TABLE deferred (
                    entity TEXT NOT NULL,
                    collection TEXT NOT NULL DEFAULT '',
                    id TEXT NOT NULL,
                    version INTEGER NOT NULL,
                    item TEXT NOT NULL,
                    PRIMARY KEY (entity, collection, id)
                ) STRICT;
                CREATE TABLE notices (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    kind TEXT NOT NULL,
                    entity TEXT NOT NULL,
                    collection TEXT NOT NULL DEFAULT '',
                    id TEXT NOT NULL,
                    message TEXT NOT NULL,
                    local TEXT,
                    server TEXT,
                    createdAt TEXT NOT NULL,
                    dismissed INTEGER NOT NULL DEFAULT 0
                ) STRICT;
                CREATE TABLE tips (tip TEXT PRIMARY KEY NOT NULL, version INTEGER NOT NULL) STRICT;
                """)
        }
        return migrator
    }
}
