import ArgumentParser
import Foundation
import WDietStorage

/// `wdiet migrate`: brings a database to the schema this binary knows, and says what it did. Safe to run again
/// (nothing to do is no change) and from several processes at once; a database migrated by a newer wdiet is refused.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Create or migrate the database (PostgreSQL URL or SQLite file)."
    )

    @Option(help: "postgres://user[:password]@host[:port]/database, or a SQLite file (default: $\(StoreLocation.environmentVariable), then \(StoreLocation.defaultSQLitePath)).")
    var database: String?

    func run() async throws {
        let location = try StoreLocation.resolve(option: database)
        let store = try await location.open(.migrating)
        await store.close()
        let what = location.isPostgres ? "PostgreSQL database" : "SQLite database \(location)"
        if store.appliedMigrations.isEmpty {
            print("The \(what) is up to date (\(store.knownMigrationCount) migrations); nothing to do.")
        } else {
            let count = store.appliedMigrations.count
            print("Applied \(count) migration\(count == 1 ? "" : "s") to the \(what): \(store.appliedMigrations.joined(separator: ", ")).")
        }
    }
}
