import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import WDietServer
import WDietSQLite
import WDietTestSupport

/// The server on a fresh in-memory database with a test clock, for `app.test(.router)`.
struct TestApp {
    let services: AppServices
    let clock: TestClock
    let app: any ApplicationProtocol

    init(clockStart: Date = Fixtures.utc("2026-03-01T09:00:00Z"), catalog: AppDatabase? = nil) throws {
        let clock = TestClock(clockStart)
        let database = try catalog ?? AppDatabase.inMemory()
        services = AppServices(database: database, now: clock.closure)
        self.clock = clock
        var logger = Logger(label: "wdiet-test")
        logger.logLevel = .warning
        // bcrypt's cost is lowered only here, so that a test suite that registers many users stays fast.
        app = buildApplication(services: services, configuration: ServerConfiguration(bcryptCost: 4), logger: logger)
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
