import Foundation
import Logging
import PostgresNIO
import WDietPostgres

/// A fresh PostgreSQL database for one test or suite, on the cluster `WDIET_TEST_POSTGRES_URL` names (the README's
/// test command starts one): created under a random name, migrated with the given migrations, dropped by `drop()`.
public final class PostgresScratchDatabase: Sendable {
    public let name: String
    public let client: PostgresClient
    let server: PostgresClient.Configuration
    let running: Task<Void, Never>

    public enum Failure: Error, CustomStringConvertible {
        case noURL
        case badURL(String)

        public var description: String {
            switch self {
            case .noURL: "WDIET_TEST_POSTGRES_URL is not set: run the tests with scripts/test.sh, which starts PostgreSQL"
            case .badURL(let url): "WDIET_TEST_POSTGRES_URL is not a postgres:// URL: \(url)"
            }
        }
    }

    /// Creates the database with `migrations` applied by the production migrator (`PostgresDatabase.migrate`: in
    /// version order, each in its own transaction with its `schema_migrations` row). The migrations run once per
    /// list, into a template database (`MigratedTemplates`); each scratch database is a copy of it
    /// (`CREATE DATABASE … TEMPLATE`): ~120 route tests migrating their own databases at once took up to ~160 s
    /// to start on this 2-core machine.
    public static func create(migrations: [PostgresMigration] = PostgresDatabase.migrations) async throws -> PostgresScratchDatabase {
        let server = try serverConfiguration()
        let name = "wdiet_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let template = migrations.isEmpty ? nil : try await MigratedTemplates.shared.template(for: migrations, on: server)
        try await withAdminClient(server) { admin in
            let from = template.map { " TEMPLATE \($0)" } ?? ""
            try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)\(from)"))
        }
        var configuration = server
        configuration.database = name
        let client = PostgresClient(configuration: configuration)
        let running = Task { await client.run() }
        return PostgresScratchDatabase(name: name, client: client, server: server, running: running)
    }

    /// Creates an empty database, applies `migrations` to it and stops its client: a template's first step.
    static func migrated(_ migrations: [PostgresMigration], name: String, server: PostgresClient.Configuration) async throws {
        try await withAdminClient(server) { admin in
            try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
        }
        var configuration = server
        configuration.database = name
        let client = PostgresClient(configuration: configuration)
        let running = Task { await client.run() }
        let database = PostgresScratchDatabase(name: name, client: client, server: server, running: running)
        do {
            try await PostgresDatabase.migrate(client: client, migrations: migrations, logger: Logger(label: "wdiet.test.postgres"))
        } catch {
            await database.drop()
            throw error
        }
        running.cancel()
        if await !BoundedWait.finishes(within: .seconds(60), { _ = await running.value }) {
            warn("the client that migrated template \(name) did not stop within 60 s; ending its connections")
        }
    }

    init(name: String, client: PostgresClient, server: PostgresClient.Configuration, running: Task<Void, Never>) {
        self.name = name
        self.client = client
        self.server = server
        self.running = running
    }

    /// A URL for this database, for a `wdiet` process (`wdiet migrate --database`).
    public var url: String {
        "postgres://\(server.username)\(server.password.map { ":" + $0 } ?? "")@\(server.host ?? "127.0.0.1"):\(server.port ?? 5432)/\(name)"
    }

    /// Closes the client and drops the database, even with connections still open. Each step is waited for at
    /// most `limit` (`BoundedWait`: a client's `run()` has, rarely, never returned after its cancellation, which hung
    /// the whole suite); a step that overruns says so on standard error and is left to finish in the background (the
    /// cluster is a throw-away one).
    public func drop(waitingAtMost limit: Duration = .seconds(60)) async {
        let (running, name, server) = (running, name, server)
        running.cancel()
        let began = ContinuousClock.now
        if await !BoundedWait.finishes(within: limit, { _ = await running.value }) {
            Self.warn("the client of scratch database \(name) did not stop within \(limit) of its cancellation; dropping the database anyway")
            // Says whether it was only late (a starved cooperative pool) or never stops (a pool bug).
            Task.detached {
                _ = await running.value
                Self.warn("the client of scratch database \(name) stopped after all, \(ContinuousClock.now - began) after its cancellation")
            }
        }
        let dropped = await BoundedWait.finishes(within: limit) {
            try? await Self.withAdminClient(server) { admin in
                try await admin.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"))
            }
        }
        if !dropped { Self.warn("DROP DATABASE \(name) has not finished after \(limit); it goes on in the background") }
    }

    static func warn(_ message: String) {
        FileHandle.standardError.write(Data("PostgresScratchDatabase: \(message)\n".utf8))
    }

    /// The cluster from `WDIET_TEST_POSTGRES_URL` ("postgres://user[:password]@host:port/database").
    public static func serverConfiguration() throws -> PostgresClient.Configuration {
        guard let url = ProcessInfo.processInfo.environment["WDIET_TEST_POSTGRES_URL"], !url.isEmpty else {
            throw Failure.noURL
        }
        guard let parts = URLComponents(string: url), ["postgres", "postgresql"].contains(parts.scheme ?? ""),
            let host = parts.host
        else { throw Failure.badURL(url) }
        let database = parts.path.hasPrefix("/") ? String(parts.path.dropFirst()) : parts.path
        var configuration = PostgresClient.Configuration(
            host: host, port: parts.port ?? 5432, username: parts.user ?? "postgres", password: parts.password,
            database: database.isEmpty ? "postgres" : database, tls: .disable
        )
        configuration.options.maximumConnections = 8
        return configuration
    }

    static func withAdminClient(
        _ configuration: PostgresClient.Configuration, _ body: (PostgresClient) async throws -> Void
    ) async throws {
        let admin = PostgresClient(configuration: configuration)
        let running = Task { await admin.run() }
        defer { running.cancel() }
        try await body(admin)
    }
}
