import Foundation
import Logging
import WDietPostgres
import WDietSQLite

/// A database opened by `StoreLocation.open`: SQLite's `AppDatabase` or PostgreSQL's `PostgresDatabase`, and what the
/// opening did to its schema.
public struct OpenedStore: Sendable {
    public enum Backend: Sendable {
        case sqlite(AppDatabase)
        case postgres(PostgresDatabase)
    }

    public let location: StoreLocation
    public let backend: Backend
    /// The migrations this opening applied, in order, named as each backend names them ("v1-coach" on SQLite,
    /// "1 coach" on PostgreSQL); empty when the schema was up to date.
    public let appliedMigrations: [String]
    /// How many migrations this binary knows for the backend (the database now has all of them).
    public let knownMigrationCount: Int

    /// Ends the PostgreSQL pool (a SQLite file closes with its last reference). Commands call it before they exit.
    public func close() async {
        if case .postgres(let database) = backend { await database.close() }
    }
}

extension StoreLocation {
    /// What opening may do to the database.
    public enum Opening: Sendable {
        /// Create a SQLite file that does not exist yet, and apply the migrations the database lacks (under
        /// PostgreSQL's advisory lock, so processes opening together migrate once).
        case migrating
        /// Use a database that exists: a SQLite file must be there already (it is migrated like every SQLite open:
        /// the file belongs to this program); PostgreSQL must have exactly the schema this binary knows (else "run
        /// `wdiet migrate` first"), since several processes may share it and migrating is an operator's step.
        case existing
    }

    /// The one way every command and the server open their database. Both ways refuse a schema a newer wdiet
    /// made. Every failure is a `StoreFailure`: one line that names only the path or the URL without its password.
    ///
    /// `postgresConnections` bounds the pool (a command needs 2; the server, its `--database-connections`);
    /// `logger` is postgres-nio's (a command passes one at `.error`, so that its notices do not interleave with
    /// the command's own output).
    public func open(
        _ opening: Opening, postgresConnections: Int = 2, logger: Logger = StoreLocation.quietLogger
    ) async throws(StoreFailure) -> OpenedStore {
        switch self {
        case .sqlite(let path):
            let (database, report) = try Self.openSQLite(path: path, opening)
            return OpenedStore(
                location: self, backend: .sqlite(database), appliedMigrations: report.applied, knownMigrationCount: report.known.count)
        case .postgres(let url):
            let database: PostgresDatabase
            do {
                // One connection first: when the database cannot be used, it says why at once (the pool would
                // retry for a minute and then only say that it could not connect).
                try await PostgresDatabase.probe(url: url, logger: logger)
                database = try PostgresDatabase(url: url, maximumConnections: postgresConnections, logger: logger)
            } catch {
                throw .explaining(error, at: self)
            }
            do {
                let applied = opening == .migrating ? try await database.migrate() : []
                try await database.checkSchema()
                return OpenedStore(
                    location: self, backend: .postgres(database), appliedMigrations: applied.map { "\($0.version) \($0.name)" },
                    knownMigrationCount: PostgresDatabase.migrations.count)
            } catch {
                await database.close()
                throw .explaining(error, at: self)
            }
        }
    }

    /// The SQLite file this names, opened as `open` opens it, for the programs that work on SQLite files only (the
    /// food catalog's commands, the benchmarks). Handed PostgreSQL, it says that `command` works on a SQLite file,
    /// and `instead` what to do.
    public func openSQLite(_ opening: Opening, for command: String, instead: String) throws(StoreFailure) -> AppDatabase {
        try requireSQLite(for: command, instead: instead)
        return try Self.openSQLite(path: sqlitePath ?? "", opening).database
    }

    /// `openSQLite`'s refusal alone, for a command that checks its other inputs before it opens (and so creates) a
    /// file.
    public func requireSQLite(for command: String, instead: String) throws(StoreFailure) {
        guard case .sqlite = self else { throw .sqliteOnly(command, given: self, instead: instead) }
    }

    static func openSQLite(path: String, _ opening: Opening) throws(StoreFailure) -> (database: AppDatabase, report: AppDatabase.MigrationReport) {
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        if opening == .existing, !exists { throw .noDatabase(at: path) }
        // SQLite would say "disk I/O error".
        if exists, isFolder.boolValue { throw StoreFailure("\(path) is a folder; expected a SQLite file") }
        do {
            return try AppDatabase.openReportingMigrations(path: path)
        } catch {
            throw .explaining(error, at: .sqlite(path: path))
        }
    }

    /// postgres-nio's logger for commands: errors only.
    public static var quietLogger: Logger {
        var logger = Logger(label: "wdiet.postgres")
        logger.logLevel = .error
        return logger
    }
}
