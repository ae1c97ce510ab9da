import Foundation
import WDietClient
import WDietCore
import WDietStore
import WDietTestSupport

/// Every push the server answered, with its answer, whoever sent it (also when the answer never reached the
/// device): what the server acknowledged.
final class PushLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(request: SyncPushRequest, response: SyncPushResponse)] = []

    func append(_ request: SyncPushRequest, _ response: SyncPushResponse) {
        lock.withLock { entries.append((request, response)) }
    }

    var all: [(request: SyncPushRequest, response: SyncPushResponse)] { lock.withLock { entries } }
}

/// Records every answered push into a `PushLog`.
struct RecordingTransport: SyncTransport {
    let inner: any SyncTransport
    let log: PushLog

    func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        let response = try await inner.push(request)
        log.append(request, response)
        return response
    }

    func pull(cursor: Int64, limit: Int) async throws -> SyncPullResponse {
        try await inner.pull(cursor: cursor, limit: limit)
    }
}

/// One phone in the reliability tests: its own database file (so it can be killed and reopened), a clock that may
/// be off, and a network that can be off or faulty. Everything it pushes goes through the shared `PushLog`.
final class Device: @unchecked Sendable {
    let name: String
    let path: String
    let clock: TestClock
    let network: Switch
    let faults: FaultyTransport
    private(set) var store: ClientStore
    private(set) var restarts = 0

    init(_ name: String, server: LiveServer, account: ClientStore.Account, log: PushLog, clockOffset: TimeInterval = 0,
         faultSeed: UInt64? = nil, faultRate: Double = 0) throws {
        self.name = name
        path = ClientFixtures.temporaryPath(name)
        clock = TestClock(Date().addingTimeInterval(clockOffset))
        network = Switch(inner: RecordingTransport(inner: server.transport(account), log: log))
        network.online = true
        faults = FaultyTransport(network, randomFaults: faultSeed, rate: faultRate)
        store = try ClientStore(path: path, now: clock.closure)
        try store.signIn(account)
    }

    /// Kills the app: the store object goes, and a new one opens the same file (as after a crash or an update).
    func restart() throws {
        store = try ClientStore(path: path, now: clock.closure)
        restarts += 1
    }

    func sync(maxRetries: Int = 3, seed: UInt64 = 1) async -> SyncEngine.State {
        await ClientFixtures.engine(store, faults, maxRetries: maxRetries, seed: seed).sync()
    }

    func remove() {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
