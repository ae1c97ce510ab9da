import Foundation
import Hummingbird
import Logging
import NIOCore
import WDietClient
import WDietPostgres
import WDietServer
import WDietSQLite
import WDietStore
import WDietTestSupport

/// The real server (the same router `wdiet serve` runs) in this process, on a free port of 127.0.0.1, over real
/// HTTP, on SQLite in memory or on a fresh PostgreSQL database (`WDIET_TEST_POSTGRES_URL`).
final class LiveServer: Sendable {
    let url: URL
    let backend: StoreBackend
    /// The server's clock: the real time, moved on by `advance` (an hour later, the profile limit has a slot again).
    let clock: OffsetClock
    /// The server's stores, for checks behind the HTTP API (the journal's table after a convergence).
    let services: AppServices
    private let running: Task<Void, any Error>
    private let tearDown: @Sendable () async -> Void

    private init(
        url: URL, backend: StoreBackend, clock: OffsetClock, services: AppServices, running: Task<Void, any Error>,
        tearDown: @escaping @Sendable () async -> Void
    ) {
        self.url = url
        self.services = services
        self.backend = backend
        self.clock = clock
        self.running = running
        self.tearDown = tearDown
    }

    static func start(_ backend: StoreBackend) async throws -> LiveServer {
        let services: AppServices
        let tearDown: @Sendable () async -> Void
        let clock = OffsetClock()
        switch backend {
        case .sqlite:
            services = AppServices(database: try AppDatabase.inMemory(), now: { clock.now })
            tearDown = {}
        case .postgres:
            let scratch = try await PostgresScratchDatabase.create()
            let database = try PostgresDatabase(url: scratch.url, maximumConnections: 8)
            services = AppServices(postgres: database, now: { clock.now })
            tearDown = {
                await database.close()
                await scratch.drop()
            }
        }
        var logger = Logger(label: "wdiet-client-test-server")
        logger.logLevel = .error
        // bcrypt's cost is lowered only in tests; every sign-in here is a guest or a test account.
        let router = buildRouter(services: services, configuration: ServerConfiguration(port: 0, bcryptCost: 4))
        let port = PortBox()
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "w-diet-test"),
            onServerRunning: { channel in port.set(channel.localAddress?.port) }, logger: logger)
        let running = Task { try await app.runService(gracefulShutdownSignals: []) }
        for _ in 0..<500 {
            if let bound = port.value {
                return LiveServer(
                    url: URL(string: "http://127.0.0.1:\(bound)")!, backend: backend, clock: clock, services: services, running: running, tearDown: tearDown)
            }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        running.cancel()
        await tearDown()
        throw SyncTransportError.unreachable("the test server did not start within 5 s")
    }

    func stop() async {
        running.cancel()
        _ = try? await running.value
        await tearDown()
    }

    /// Runs `body` against a fresh server and stops it afterwards, whether `body` threw or not.
    static func with<T: Sendable>(_ backend: StoreBackend, _ body: (LiveServer) async throws -> T) async throws -> T {
        let server = try await start(backend)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    /// A new guest account on this server.
    func guest() async throws -> ClientStore.Account {
        try await AccountClient(server: url).guest()
    }

    func transport(_ account: ClientStore.Account) -> HTTPSyncTransport {
        HTTPSyncTransport(server: url, token: account.token, timeout: 20)
    }

    /// Everything the server holds for the account, by pulling from 0 in small pages.
    func snapshot(_ account: ClientStore.Account) async throws -> [RecordKey: RecordState] {
        let transport = transport(account)
        var cursor: Int64 = 0
        var state: [RecordKey: RecordState] = [:]
        while true {
            let page = try await transport.pull(cursor: cursor, limit: 137)
            for item in page.items where item.entity != .tip {
                let key = item.entity == .profile
                    ? RecordKey.profile : RecordKey(entity: item.entity, collection: item.collection, uuid: item.id!)
                state[key] = try RecordState(item)
            }
            cursor = page.nextCursor
            if !page.hasMore { return state }
        }
    }
}

/// A row's state as the server and a device both express it: canonical JSON of the values, deleted, version, day.
struct RecordState: Hashable, Sendable, CustomStringConvertible {
    var payload: String
    var deleted: Bool
    var version: Int64?
    var localDate: String?

    init(payload: String, deleted: Bool, version: Int64?, localDate: String?) {
        self.payload = payload
        self.deleted = deleted
        self.version = version
        self.localDate = localDate
    }

    init(_ item: SyncItem) throws {
        let encoder = SyncCoding.encoder
        let data: Data = if let meal = item.meal { try encoder.encode(meal) }
            else if let weight = item.weight { try encoder.encode(weight) }
            else if let profile = item.profile { try encoder.encode(profile) }
            else { try encoder.encode(item.data ?? .null) }
        self.init(payload: String(decoding: data, as: UTF8.self), deleted: item.deletedAt != nil, version: item.version,
                  localDate: item.localDate?.iso)
    }

    init(_ record: ClientStore.Record) {
        self.init(payload: record.payload, deleted: record.deleted, version: record.serverVersion, localDate: record.localDate)
    }

    var description: String { "v\(version.map(String.init) ?? "-")\(deleted ? " deleted" : "") \(localDate ?? "") \(payload)" }
}

extension ClientStore {
    /// The device's rows as `RecordState`s.
    func snapshot() throws -> [RecordKey: RecordState] {
        Dictionary(uniqueKeysWithValues: try records().map { ($0.key, RecordState($0)) })
    }
}

/// The port the server bound, set once from its channel.
final class PortBox: @unchecked Sendable {
    private let lock = NSLock()
    private var port: Int?

    var value: Int? { lock.withLock { port } }

    func set(_ port: Int?) {
        lock.withLock { self.port = port }
    }
}

/// The real time plus an offset a test can move forward.
final class OffsetClock: @unchecked Sendable {
    private let lock = NSLock()
    private var offset: TimeInterval = 0

    var now: Date { Date().addingTimeInterval(lock.withLock { offset }) }

    func advance(seconds: TimeInterval) {
        lock.withLock { offset += seconds }
    }
}
