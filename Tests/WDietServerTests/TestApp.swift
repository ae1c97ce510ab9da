import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import WDietPostgres
import WDietServer
import WDietSQLite
import WDietTestSupport

/// The server on a fresh database with a test clock, for `app.test(.router)`: an in-memory SQLite database, or
/// (`TestApp.test(.postgres) { t, client in … }`) a fresh PostgreSQL database on the test cluster, so that one route
/// test runs on both backends.
struct TestApp {
    let services: AppServices
    let clock: TestClock
    let app: any ApplicationProtocol
    let backend: StoreBackend

    init(clockStart: Date = Fixtures.utc("2026-03-01T09:00:00Z"), catalog: AppDatabase? = nil) throws {
        let clock = TestClock(clockStart)
        let database = try catalog ?? AppDatabase.inMemory()
        self.init(services: AppServices(database: database, now: clock.closure), clock: clock, backend: .sqlite)
    }

    private init(services: AppServices, clock: TestClock, backend: StoreBackend, postgresURL: String? = nil) {
        self.services = services
        self.clock = clock
        self.backend = backend
        var logger = Logger(label: "wdiet-test")
        logger.logLevel = .warning
        // bcrypt's cost is lowered only here, so that a test suite that registers many users stays fast. The URL
        // configures the server as `wdiet serve --database postgres://…` does (no session cache).
        app = buildApplication(
            services: services, configuration: ServerConfiguration(bcryptCost: 4, postgresURL: postgresURL), logger: logger)
    }

    /// Runs `body` against the router of a server on a fresh database of `backend` (PostgreSQL: a scratch database on
    /// `WDIET_TEST_POSTGRES_URL`'s cluster, with the production migrations and without a food catalog, dropped
    /// afterwards whether `body` threw or not).
    static func test(
        _ backend: StoreBackend, clockStart: Date = Fixtures.utc("2026-03-01T09:00:00Z"),
        _ body: @Sendable (TestApp, any TestClientProtocol) async throws -> Void
    ) async throws {
        switch backend {
        case .sqlite:
            let t = try TestApp(clockStart: clockStart)
            try await t.app.test(.router) { client in try await body(t, client) }
        case .postgres:
            let scratch = try await PostgresScratchDatabase.create()
            let database: PostgresDatabase
            do {
                database = try PostgresDatabase(url: scratch.url, maximumConnections: 4)
            } catch {
                await scratch.drop()
                throw error
            }
            let clock = TestClock(clockStart)
            let t = TestApp(
                services: AppServices(postgres: database, now: clock.closure), clock: clock, backend: .postgres,
                postgresURL: scratch.url)
            do {
                try await t.app.test(.router) { client in try await body(t, client) }
            } catch {
                await database.close()
                await scratch.drop()
                throw error
            }
            await database.close()
            await scratch.drop()
        }
    }
}

struct APIErrorBody: Decodable {
    struct Detail: Decodable {
        var code: String
        var message: String
        var fields: [String: String]?
    }
    var error: Detail
}
