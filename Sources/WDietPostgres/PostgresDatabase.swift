import Foundation
import Logging
import PostgresNIO

/// The one gatekeeper of a PostgreSQL deployment: it opens the connection pool from a `postgres://` URL, keeps it
/// running for its lifetime, applies the migrations (`wdiet migrate`), and checks at server start that the schema
/// is exactly the one this binary knows.
///
/// Migrations run under a transaction-scoped advisory lock, each in its own transaction together with its row in
/// `schema_migrations`, so two processes starting at once apply each migration once, and a failed migration leaves
/// nothing behind. A database with a version this binary does not know was migrated by a newer wdiet: it is
/// neither migrated nor served, since this binary cannot know what the newer schema means.
public final class PostgresDatabase: Sendable {
    public let client: PostgresClient
    let logger: Logger
    private let running: Task<Void, Never>

    /// Every area's migrations, in one list: a new area (accounts, tips…) adds its list here.
    public static let migrations: [PostgresMigration] = PostgresCoachSchema.migrations + PostgresAccountSchema.migrations
        + PostgresSyncSchema.migrations
        + PostgresJournalSchema.migrations
        + PostgresChallengeSchema.migrations
        + PostgresDeletedRowsSchema.migrations
        + PostgresValueDomainsSchema.migrations
        + PostgresMediaSchema.migrations
        + PostgresFoodCatalogSchema.migrations

    /// An arbitrary constant naming the migration lock ("wdiet" in ASCII).
    static let migrationLockKey: Int64 = 0x77_64_69_65_74

    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The URL is not `postgres://user[:password]@host[:port]/database`; never carries the password.
        case badURL(String)
        /// Versions in the database that this binary does not know: a newer wdiet migrated it.
        case schemaTooNew(unknownVersions: [Int])
        /// Versions this binary needs that the database does not have yet.
        case notMigrated(missingVersions: [Int])

        public var description: String {
            switch self {
            case .badURL(let reason):
                "the database URL \(reason); expected postgres://user[:password]@host[:port]/database"
            case .schemaTooNew(let versions):
                "the database schema is newer than this wdiet (unknown migration \(Self.list(versions))): "
                    + "upgrade wdiet, or use the database the newer version migrated"
            case .notMigrated(let versions):
                "the database is not migrated (missing migration \(Self.list(versions))): run `wdiet migrate` first"
            }
        }

        private static func list(_ versions: [Int]) -> String { versions.map(String.init).joined(separator: ", ") }
    }

    /// Opens the pool (no connection is made until the first query). `url` is
    /// `postgres://user[:password]@host[:port]/database`, optionally with `?sslmode=require` (or `prefer`).
    public convenience init(url: String, maximumConnections: Int = 20, logger: Logger = Logger(label: "wdiet.postgres")) throws {
        var configuration = try Self.configuration(url: url)
        configuration.options.maximumConnections = maximumConnections
        self.init(client: PostgresClient(configuration: configuration, backgroundLogger: logger), logger: logger)
    }

    /// Runs `client` for the lifetime of this object.
    public init(client: PostgresClient, logger: Logger = Logger(label: "wdiet.postgres")) {
        self.client = client
        self.logger = logger
        running = Task { await client.run() }
    }

    deinit {
        running.cancel()
    }

    /// Stops the pool and waits for its connections to close, at most `limit`: the pool's `run()` has, rarely, not
    /// returned after its cancellation (`BoundedWait`), and a caller shutting down must not wait forever for it.
    /// False (and a warning in the log) when the limit came first.
    @discardableResult
    public func close(waitingAtMost limit: Duration = .seconds(30)) async -> Bool {
        running.cancel()
        let running = running
        let stopped = await BoundedWait.finishes(within: limit) { _ = await running.value }
        if !stopped {
            logger.warning("The PostgreSQL pool did not stop within the time allowed; going on without it", metadata: ["seconds": "\(limit.components.seconds)"])
        }
        return stopped
    }

    /// The pool's configuration from a URL; errors say what is wrong without repeating the password.
    public static func configuration(url: String) throws -> PostgresClient.Configuration {
        let parts = try PostgresURL(url)
        let tls: PostgresClient.Configuration.TLS = switch parts.sslMode {
        case .disable: .disable
        case .prefer: .prefer(.makeClientConfiguration())
        case .require: .require(.makeClientConfiguration())
        }
        return PostgresClient.Configuration(
            host: parts.host, port: parts.port, username: parts.user, password: parts.password, database: parts.database, tls: tls
        )
    }

    // MARK: Migrations

    /// Applies the migrations this database lacks, in version order; returns those it applied (none when up to date).
    @discardableResult
    public func migrate() async throws -> [PostgresMigration] {
        try await Self.migrate(client: client, migrations: Self.migrations, logger: logger)
    }

    /// Throws `Failure.schemaTooNew` or `.notMigrated` unless the database has exactly the known migrations.
    public func checkSchema() async throws {
        try await Self.checkSchema(client: client, migrations: Self.migrations, logger: logger)
    }

    /// The versions recorded in `schema_migrations`, ascending; empty for a database never migrated.
    public func appliedVersions() async throws -> [Int] {
        try await client.withConnection { connection in try await Self.appliedVersions(on: connection, logger: self.logger) }
    }

    /// `migrate()` for any client and list: the test support migrates scratch databases with it, so tests and
    /// production migrate identically.
    @discardableResult
    public static func migrate(client: PostgresClient, migrations: [PostgresMigration], logger: Logger) async throws -> [PostgresMigration] {
        var applied: [PostgresMigration] = []
        for migration in migrations.sorted(by: { $0.version < $1.version }) {
            let ran = try await unwrapped { try await client.withTransaction(logger: logger) { connection -> Bool in
                // Held until this transaction ends: a second process waits here, then sees the row and skips.
                try await connection.query("SELECT pg_advisory_xact_lock(\(migrationLockKey))", logger: logger)
                try await connection.query("""
                    CREATE TABLE IF NOT EXISTS schema_migrations (
                        version integer PRIMARY KEY,
                        name text NOT NULL,
                        applied_at timestamptz NOT NULL DEFAULT now()
                    )
                    """, logger: logger)
                let versions = try await appliedVersions(on: connection, logger: logger)
                let unknown = Set(versions).subtracting(migrations.map(\.version))
                guard unknown.isEmpty else { throw Failure.schemaTooNew(unknownVersions: unknown.sorted()) }
                if versions.contains(migration.version) { return false }
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query(
                    "INSERT INTO schema_migrations (version, name) VALUES (\(migration.version), \(migration.name))",
                    logger: logger)
                return true
            } }
            if ran {
                logger.info("Applied migration", metadata: ["version": "\(migration.version)", "name": "\(migration.name)"])
                applied.append(migration)
            }
        }
        return applied
    }

    public static func checkSchema(client: PostgresClient, migrations: [PostgresMigration], logger: Logger) async throws {
        let versions = try await client.withConnection { connection in try await appliedVersions(on: connection, logger: logger) }
        let known = Set(migrations.map(\.version))
        let unknown = Set(versions).subtracting(known)
        if !unknown.isEmpty { throw Failure.schemaTooNew(unknownVersions: unknown.sorted()) }
        let missing = known.subtracting(versions)
        if !missing.isEmpty { throw Failure.notMigrated(missingVersions: missing.sorted()) }
    }

    /// The error that made a transaction fail, rather than postgres-nio's wrapper around it.
    static func unwrapped<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as PostgresTransactionError {
            throw error.closureError ?? error.beginError ?? error.commitError ?? error
        }
    }

    static func appliedVersions(on connection: PostgresConnection, logger: Logger) async throws -> [Int] {
        let exists = try await connection.query("SELECT to_regclass('schema_migrations') IS NOT NULL", logger: logger)
        var tableExists = false
        for try await value in exists.decode(Bool.self) { tableExists = value }
        guard tableExists else { return [] }
        var versions: [Int] = []
        let rows = try await connection.query("SELECT version FROM schema_migrations ORDER BY version", logger: logger)
        for try await version in rows.decode(Int.self) { versions.append(version) }
        return versions
    }
}
