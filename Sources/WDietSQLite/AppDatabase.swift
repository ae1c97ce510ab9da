import Foundation
import GRDB
import WDietStore

/// The one gatekeeper of the SQLite store: it owns the connection, runs the migrations, and offers
/// named reads and writes that keep the data conventions (UUIDs, userId, version, tombstones, UTC instants).
public final class AppDatabase: Sendable {
    /// A `DatabasePool` (WAL) for files, a `DatabaseQueue` in memory for tests.
    public let writer: any DatabaseWriter
    /// Files only: checkpoints off the write path (see `WALCheckpointer`).
    private let checkpointer: WALCheckpointer?
    /// Per-user generations of the coach data, for caches that must never outlive a write.
    public let userDataChanges = UserDataChanges()
    /// Profiles as last read, per user, while their profile generation holds (see `SQLiteProfileStore`).
    let profiles = UserGenerationCache<StoredProfile>(capacity: 16_384)
    /// Every store write goes through it (see `GroupCommit`).
    let groupCommit: GroupCommit
    /// Photos and recordings, in a database file of their own beside this one (`MediaDatabase`), opened on first use.
    public let media: MediaDatabaseSlot
    /// Files in WAL mode: which catalog the file holds, checked per search for less than reading it (`FoodSearch`).
    let catalogWatch: CatalogVersionWatch?

    public convenience init(_ writer: any DatabaseWriter) throws {
        try self.init(writer, checkpointer: nil)
    }

    init(_ writer: any DatabaseWriter, checkpointer: WALCheckpointer?) throws {
        self.writer = writer
        self.checkpointer = checkpointer
        groupCommit = GroupCommit(writer: writer)
        media = MediaDatabaseSlot(mainPath: writer.path)
        catalogWatch = (writer as? DatabasePool).map { CatalogVersionWatch(path: $0.path) }
        try Self.migrator.migrate(writer)
        try writer.writeWithoutTransaction { [userDataChanges] db in try userDataChanges.install(in: db) }
        checkpointer?.start()
    }

    deinit {
        checkpointer?.stop()
    }

    /// Opens (or creates) a database file in WAL mode and migrates it.
    public static func open(path: String) throws -> AppDatabase {
        var config = Configuration()
        config.foreignKeysEnabled = true
        // Another process may hold a lock for a moment (a command line opening the file while the server
        // checkpoints, a process closing it): wait for it instead of failing at once.
        config.busyMode = .timeout(5)
        config.prepareDatabase { db in
            // WAL with FULL: the WAL is synced at every commit, so a save is on disk before it is acknowledged and
            // a power cut loses nothing a user saved (issue 21 item 12; NORMAL synced only at checkpoints). The group
            // commit puts concurrent saves in one transaction, so one sync serves them all (docs/benchmarks.md).
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // Deleted content is overwritten with zeros in the file, not left in free pages and cells (issue 21
            // item 8: an erased account leaves no readable trace; see `scrubWriteAheadLog` for the WAL).
            try db.execute(sql: "PRAGMA secure_delete = ON")
            // Reads straight from a memory map of the file instead of a pread and copy per page: on the seeded
            // 1 GB benchmark file, pread was a fifth of a dashboard request's CPU. (Capped by SQLite's compile-time
            // maximum; writes still go through the WAL.)
            try db.execute(sql: "PRAGMA mmap_size = 4294967296")
            // 16 MB of page cache per connection (default 2 MB): the indexes of the hot tables stay in it.
            try db.execute(sql: "PRAGMA cache_size = -16384")
            // The writer leaves checkpoints to `WALCheckpointer`. Under sustained saves the WAL grows (its passive
            // checkpoints cannot start it over while writes keep coming: 2.3 GB in a 20 s benchmark); when the
            // writer next starts it over, it trims the file to 64 MB (the writer is the connection that does).
            if !db.configuration.readonly {
                try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
                _ = try Row.fetchOne(db, sql: "PRAGMA journal_size_limit = \(64 * 1_024 * 1_024)")
            }
        }
        let pool = try DatabasePool(path: path, configuration: config)
        // GRDB turns the writer to NORMAL when it sets up WAL mode, after `prepareDatabase`; the writer is the one
        // connection whose commits count, and it lives as long as the pool, so FULL is set on it again here.
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        let checkpointer: WALCheckpointer?
        do {
            checkpointer = try WALCheckpointer(path: path)
        } catch {
            // Without a checkpoint connection the writer checkpoints as SQLite does by default.
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 1000") }
            checkpointer = nil
        }
        return try AppDatabase(pool, checkpointer: checkpointer)
    }

    /// After an erasure (an account deleted): copies the WAL into the file and truncates it to zero bytes, so the
    /// pages that held the person's rows before the delete are no longer in the WAL (with `secure_delete` the file
    /// itself holds zeros where they were). A TRUNCATE checkpoint waits for readers on older snapshots and fails at
    /// once while another checkpoint (`WALCheckpointer`) runs: tried again for up to about 2 s. True when done.
    @discardableResult
    public func scrubWriteAheadLog() async -> Bool {
        await Self.truncateWriteAheadLog(writer)
    }

    static func truncateWriteAheadLog(_ writer: any DatabaseWriter) async -> Bool {
        for attempt in 0..<40 {
            if attempt > 0 { try? await Task.sleep(for: .milliseconds(50)) }
            let done = try? await writer.writeWithoutTransaction { db -> Bool in
                // (busy, WAL frames, frames checkpointed); busy 0 when it completed. -1 frames: not in WAL mode.
                guard let row = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)") else { return false }
                return (row[0] as Int?) == 0
            }
            if done == true { return true }
        }
        return false
    }

    /// A fresh in-memory database, for tests.
    public static func inMemory() throws -> AppDatabase {
        var config = Configuration()
        config.foreignKeysEnabled = true
        return try AppDatabase(DatabaseQueue(configuration: config))
    }

    /// Migrations are history: once merged, never edited; new changes are new migrations.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        registerCoachMigrations(&migrator)
        registerFoodCatalogMigrations(&migrator)
        registerAccountMigrations(&migrator)
        registerTipMigrations(&migrator)
        registerRateLimitMigrations(&migrator)
        registerSignInMigrations(&migrator)
        registerProfileMigrations(&migrator)
        registerSyncMigrations(&migrator)
        registerLoggedDaysMigrations(&migrator)
        registerLanguageMigrations(&migrator)
        registerMealSlotMigrations(&migrator)
        registerAppearanceMigrations(&migrator)
        registerPlanHistoryMigrations(&migrator)
        registerJournalMigrations(&migrator)
        registerChallengeMigrations(&migrator)
        registerPasswordResetMigrations(&migrator)
        registerImportMigrations(&migrator)
        registerDeletedRowsMigrations(&migrator)
        return migrator
    }
}
