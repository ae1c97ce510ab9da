import Foundation
import GRDB
import WDietStore

/// The media of a SQLite installation, in a database file of its own beside the main one (`wdiet.sqlite` →
/// `wdiet.sqlite-media`, with its own `-wal`), never in the main file's write-ahead log: a burst of photo uploads
/// writes megabytes there, and every page of it would otherwise go through the one writer and the WAL that meal
/// saves wait on (docs/media.md). Its own writer, WAL and checkpoints; the main database's group commit never waits
/// for a photo.
///
/// A main database in memory (tests) gets its media in memory too. The file is opened on first use
/// (`AppDatabase.media`), so the commands that never touch media (`wdiet foods`, `wdiet plan`) create no file.
public final class MediaDatabase: Sendable {
    public let writer: any DatabaseWriter
    /// The file, or nil in memory.
    public let path: String?

    /// `mainPath` is the main database's path; `:memory:` (or an empty path) keeps the media in memory.
    public static func open(besideMain mainPath: String) throws -> MediaDatabase {
        if mainPath.isEmpty || mainPath == ":memory:" || mainPath.hasPrefix("file:") {
            return try MediaDatabase(writer: DatabaseQueue(), path: nil)
        }
        let path = mediaPath(besideMain: mainPath)
        var config = Configuration()
        config.busyMode = .timeout(5)
        config.prepareDatabase { db in
            // As the main file: every commit synced before it is acknowledged, so a photo a journal entry names is
            // never lost to a power cut.
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // A deleted photo's bytes are overwritten in the file (issue 21 item 8), not left in free pages.
            try db.execute(sql: "PRAGMA secure_delete = ON")
            if !db.configuration.readonly {
                // Photos are a few hundred KB: trim the WAL back to 16 MB when it starts over.
                _ = try Row.fetchOne(db, sql: "PRAGMA journal_size_limit = \(16 * 1_024 * 1_024)")
            }
        }
        let pool = try DatabasePool(path: path, configuration: config)
        // GRDB sets the writer to NORMAL after `prepareDatabase` when it sets up WAL mode: FULL again on it.
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        return try MediaDatabase(writer: pool, path: path)
    }

    /// `wdiet.sqlite` → `wdiet.sqlite-media`: beside the main file, caught by a backup of `wdiet.sqlite*`.
    public static func mediaPath(besideMain mainPath: String) -> String { mainPath + "-media" }

    init(writer: any DatabaseWriter, path: String?) throws {
        self.writer = writer
        self.path = path
        try Self.migrator.migrate(writer)
    }

    /// The media file's own migrations (its history, apart from the main file's).
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-media") { db in
            // The bytes last, so that reading the metadata columns never touches a blob's overflow pages.
            try db.execute(sql: """
                CREATE TABLE media (
                    userId TEXT NOT NULL,
                    id TEXT NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('photo', 'audio')),
                    contentType TEXT NOT NULL,
                    bytes INTEGER NOT NULL,
                    thumbnailBytes INTEGER,
                    width INTEGER,
                    height INTEGER,
                    uploadDigest TEXT NOT NULL,
                    createdAt TEXT NOT NULL,
                    data BLOB NOT NULL,
                    thumbnail BLOB,
                    UNIQUE (userId, id)
                )
                """)
        }
        migrator.registerMigration("v2-media-unreferenced") { db in
            // When the sweep found that no row names the item (an upload: its upload); NULL while a row names it.
            // Items stored before are unmarked: the first sweep marks those no row names (docs/media.md).
            try db.execute(sql: "ALTER TABLE media ADD COLUMN unreferencedSince TEXT")
        }
        return migrator
    }
}

/// The media database of an `AppDatabase`, opened the first time a media store asks for it, once per main database.
public final class MediaDatabaseSlot: @unchecked Sendable {
    private let mainPath: String
    /// Guards `opened`.
    private let lock = NSLock()
    private var opened: MediaDatabase?

    init(mainPath: String) {
        self.mainPath = mainPath
    }

    /// The media database if it is open or its file exists (nil: no media was ever stored beside this database).
    public func databaseIfPresent() throws -> MediaDatabase? {
        let present = lock.withLock { opened != nil }
        if present || mainPath == ":memory:" || mainPath.isEmpty || mainPath.hasPrefix("file:")
            || FileManager.default.fileExists(atPath: MediaDatabase.mediaPath(besideMain: mainPath))
        {
            return try database()
        }
        return nil
    }

    public func database() throws -> MediaDatabase {
        try lock.withLock {
            if let opened { return opened }
            let new = try MediaDatabase.open(besideMain: mainPath)
            opened = new
            return new
        }
    }
}
