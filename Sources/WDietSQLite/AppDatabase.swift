import Foundation
import GRDB
import WDietStore

/// The one gatekeeper of the SQLite store: it owns the connection, runs the migrations, and offers
/// named reads and writes that keep the data conventions (UUIDs, userId, version, tombstones, UTC instants).
public final class AppDatabase: Sendable {
    /// A `DatabasePool` (WAL) for files, a `DatabaseQueue` in memory for tests.
    public let writer: any DatabaseWriter

    public init(_ writer: any DatabaseWriter) throws {
        self.writer = writer
        try Self.migrator.migrate(writer)
    }

    /// Opens (or creates) a database file in WAL mode and migrates it.
    public static func open(path: String) throws -> AppDatabase {
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        let pool = try DatabasePool(path: path, configuration: config)
        return try AppDatabase(pool)
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
        return migrator
    }
}
