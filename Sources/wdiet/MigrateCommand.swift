import ArgumentParser
import Foundation
import Logging
import WDietPostgres
import WDietSQLite

/// `wdiet migrate`: brings a database to the schema this binary knows, and says what it did. Safe to run again
/// (nothing to do is no change) and from several processes at once; a database migrated by a newer wdiet is refused.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Create or migrate the database (PostgreSQL URL or SQLite file)."
    )

    static let environmentVariable = "WDIET_DATABASE_URL"

    @Option(help: "postgres://user[:password]@host[:port]/database, or a SQLite file (default: $WDIET_DATABASE_URL, then \(DataLocation.defaultDatabasePath)).")
    var database: String?

    func run() async throws {
        let target = database ?? ProcessInfo.processInfo.environment[Self.environmentVariable].flatMap { $0.isEmpty ? nil : $0 }
            ?? DataLocation.defaultDatabasePath
        if target.hasPrefix("postgres://") || target.hasPrefix("postgresql://") {
            try await migratePostgres(url: target)
        } else {
            try migrateSQLite(path: target)
        }
    }

    func migratePostgres(url: String) async throws {
        var logger = Logger(label: "wdiet.migrate")
        // The command speaks in one line; postgres-nio's notices (e.g. a lease asked for while the pool is still
        // starting, which it queues) are not the user's business.
        logger.logLevel = .error
        let database: PostgresDatabase
        do {
            database = try PostgresDatabase(url: url, maximumConnections: 2, logger: logger)
        } catch {
            throw DataLocation.Failure("\(error)")
        }
        do {
            let applied = try await database.migrate()
            try await database.checkSchema()
            await database.close()
            report(applied: applied.map { "\($0.version) \($0.name)" }, total: PostgresDatabase.migrations.count, on: "PostgreSQL database")
        } catch let error as PostgresDatabase.Failure {
            await database.close()
            throw DataLocation.Failure("\(error)")
        } catch {
            await database.close()
            // postgres-nio's errors print a generic text on purpose (no credentials); say what the user can check.
            throw DataLocation.Failure("cannot migrate the PostgreSQL database: check that it is running and the URL's user, password and database")
        }
    }

    func migrateSQLite(path: String) throws {
        do {
            let report = try AppDatabase.migrate(path: path)
            self.report(applied: report.applied, total: report.known.count, on: "SQLite database \(path)")
        } catch let error as AppDatabase.SchemaTooNew {
            throw DataLocation.Failure("\(error)")
        } catch {
            throw DataLocation.Failure("cannot migrate the database \(path): \(error)")
        }
    }

    func report(applied: [String], total: Int, on what: String) {
        if applied.isEmpty {
            print("The \(what) is up to date (\(total) migrations); nothing to do.")
        } else {
            print("Applied \(applied.count) migration\(applied.count == 1 ? "" : "s") to the \(what): \(applied.joined(separator: ", ")).")
        }
    }
}
