import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
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
        let run = SlowPhaseReporter.shared.begin("\(Test.current?.displayName ?? Test.current?.name ?? "a test") on \(backend)")
        defer { SlowPhaseReporter.shared.end(run) }
        switch backend {
        case .sqlite:
            let t = try TestApp(clockStart: clockStart)
            SlowPhaseReporter.shared.enter("its body", of: run)
            try await t.app.test(.router) { client in try await body(t, client) }
        case .postgres:
            SlowPhaseReporter.shared.enter("creating its scratch database", of: run)
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
            var failure: (any Error)?
            do {
                SlowPhaseReporter.shared.enter("its body", of: run)
                try await t.app.test(.router) { client in try await body(t, client) }
            } catch {
                failure = error
            }
            SlowPhaseReporter.shared.enter("closing its database", of: run)
            await database.close()
            SlowPhaseReporter.shared.enter("dropping its scratch database", of: run)
            await scratch.drop()
            if let failure { throw failure }
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

/// Says on standard error which phase of a `TestApp.test` run (its body, closing its database, dropping its scratch
/// database) has gone on for over 150 s (creating a scratch database can take a minute when the whole suite starts
/// at once), again every five minutes while it lasts, and when it ends. The full suite has stopped making progress a
/// few times with every thread idle and a route test or two unfinished (README, Known issues); a phase that never
/// ends says where such a test waits (a slow one, on the loaded machine, ends). It watches from a thread of its own,
/// which keeps running when Swift's cooperative threads are all blocked.
final class SlowPhaseReporter: @unchecked Sendable {
    static let shared = SlowPhaseReporter()
    static let patience: TimeInterval = 150
    static let reminder: TimeInterval = 300

    private struct Run {
        var label: String
        var phase = "starting"
        var since = Date()
        var lastReport: Date?
    }

    private let lock = NSLock()
    private var runs: [UUID: Run] = [:]

    private init() {
        let watcher = Thread { [unowned self] in
            while true {
                Thread.sleep(forTimeInterval: 10)
                report()
            }
        }
        watcher.name = "wdiet-test-slow-phase"
        watcher.start()
    }

    func begin(_ label: String) -> UUID {
        let id = UUID()
        lock.withLock { runs[id] = Run(label: label) }
        return id
    }

    func enter(_ phase: String, of id: UUID) {
        let ended = lock.withLock { () -> Run? in
            guard let run = runs[id] else { return nil }
            runs[id] = Run(label: run.label, phase: phase)
            return run.lastReport == nil ? nil : run
        }
        if let ended { Self.say(ended, "ended") }
    }

    func end(_ id: UUID) {
        let ended = lock.withLock { runs.removeValue(forKey: id) }
        if let ended, ended.lastReport != nil { Self.say(ended, "ended") }
    }

    private func report() {
        let now = Date()
        let slow = lock.withLock { () -> [Run] in
            var slow: [Run] = []
            for (id, run) in runs where now.timeIntervalSince(run.since) > Self.patience {
                if let last = run.lastReport, now.timeIntervalSince(last) < Self.reminder { continue }
                runs[id]?.lastReport = now
                slow.append(run)
            }
            return slow
        }
        for run in slow { Self.say(run, "still going") }
    }

    private static func say(_ run: Run, _ state: String) {
        let seconds = Int(Date().timeIntervalSince(run.since))
        FileHandle.standardError.write(Data("SLOW: \(run.label): \(run.phase), \(state) after \(seconds) s\n".utf8))
    }
}
