import Foundation
import GRDB

extension AppDatabase {
    /// What opening a SQLite file did to its schema (`wdiet migrate` reports it).
    public struct MigrationReport: Sendable {
        /// The migrations this run applied, in order; empty when the file was up to date.
        public var applied: [String]
        /// Every migration this binary knows (all of which the file now has).
        public var known: [String]
    }

    /// A file migrated by a newer wdiet (it records migrations this binary does not know).
    public struct SchemaTooNew: Error, CustomStringConvertible {
        public var unknownMigrations: [String]
        public var description: String {
            "the database schema is newer than this wdiet (unknown migration \(unknownMigrations.joined(separator: ", "))): "
                + "upgrade wdiet, or use the database the newer version migrated"
        }
    }

    /// Opens the file at `path` as `open(path:)` does (creating and migrating it), but first refuses a file that a
    /// newer wdiet migrated (`SchemaTooNew`: GRDB would open it and ignore the migrations it does not know), and
    /// says which migrations this open applied.
    public static func openReportingMigrations(path: String) throws -> (database: AppDatabase, report: MigrationReport) {
        var before: [String] = []
        if FileManager.default.fileExists(atPath: path) {
            var config = Configuration()
            config.readonly = true
            config.busyMode = .timeout(5)
            let applied = try DatabaseQueue(path: path, configuration: config).read { db in try migrator.appliedIdentifiers(db) }
            let unknown = applied.subtracting(migrator.migrations)
            if !unknown.isEmpty { throw SchemaTooNew(unknownMigrations: unknown.sorted()) }
            before = migrator.migrations.filter(applied.contains)
        }
        let database = try open(path: path)
        let known = migrator.migrations
        return (database, MigrationReport(applied: known.filter { !before.contains($0) }, known: known))
    }
}
