import Foundation
import WDietClient
import WDietSQLite
import WDietStore
import WDietTestSupport
import WDietCore

/// The server's store behind the `SyncTransport` protocol, without HTTP: the outbox unit tests get the real
/// server rules (`SQLiteSyncStore`) in milliseconds. Refusals become the statuses docs/sync.md gives them.
struct StoreTransport: SyncTransport {
    let database: AppDatabase
    let clock: TestClock
    let store: any SyncStore
    let userId: UUID

    /// A fresh in-memory server database with one user.
    static func fresh(clock: TestClock = TestClock(Fixtures.utc("2026-03-01T09:00:00Z"))) async throws -> StoreTransport {
        try await StoreTransport.user(on: try AppDatabase.inMemory(), clock: clock)
    }

    /// Another user on the same server database.
    func anotherUser() async throws -> StoreTransport {
        try await Self.user(on: database, clock: clock)
    }

    private static func user(on database: AppDatabase, clock: TestClock) async throws -> StoreTransport {
        let userId = UUID()
        _ = try await SQLiteUserStore(database: database, now: clock.closure).createUser(id: userId, email: nil, displayName: "Test")
        return StoreTransport(database: database, clock: clock, store: SQLiteSyncStore(database: database, now: clock.closure), userId: userId)
    }

    func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        do {
            return SyncPushResponse(results: try await store.push(request.changes, userId: userId))
        } catch let rejection as SyncRejection {
            throw SyncTransportError.http(Self.failure(rejection))
        }
    }

    func pull(cursor: Int64, limit: Int) async throws -> SyncPullResponse {
        do {
            return try await store.pull(userId: userId, after: cursor, limit: limit)
        } catch let rejection as SyncRejection {
            throw SyncTransportError.http(Self.failure(rejection))
        }
    }

    static func failure(_ rejection: SyncRejection) -> HTTPFailure {
        switch rejection {
        case .tooManyChanges: HTTPFailure(status: 413, code: "batch_too_large", message: rejection.message)
        case .invalidChange(let index, _, let message):
            HTTPFailure(status: 422, code: "invalid_change", message: rejection.message, fields: ["changes.\(index)": message])
        case .idInUse(let index, _): HTTPFailure(status: 409, code: "id_in_use", message: rejection.message, fields: ["changes.\(index)": "in use"])
        case .profileRequired(let index, _):
            HTTPFailure(status: 409, code: "profile_missing", message: rejection.message, fields: ["changes.\(index)": rejection.message])
        case .profileConflict(let conflict):
            HTTPFailure(status: 409, code: "profile_conflict", message: rejection.message, profileConflict: conflict)
        case .cursorAhead: HTTPFailure(status: 400, code: "invalid_cursor", message: rejection.message)
        }
    }
}

/// What a `FaultyTransport` does to the next request.
enum Fault: Sendable, Equatable {
    /// The request reaches the server and is applied, but the answer never arrives (a dropped connection).
    case dropResponse
    /// The request never reaches the server.
    case unreachable
    case timeout
    /// The server answers this status before doing anything (500, 503, 429 with `Retry-After`).
    case status(Int, retryAfter: TimeInterval?)
    /// The server's profile limit (10 changes an hour): 429 `rate_limited`.
    case profileRateLimited(retryAfter: TimeInterval)
}

/// Wraps a transport and applies scripted faults, request by request, or random ones with a seeded source.
final class FaultyTransport: SyncTransport, @unchecked Sendable {
    private let inner: any SyncTransport
    private let lock = NSLock()
    private var script: [Fault?]
    private var random: SeededRandom?
    private var faultRate: Double
    /// Every push that reached the server, in order (to replay them in tests).
    private(set) var deliveredPushes: [SyncPushRequest] = []
    private(set) var requests = 0
    /// Runs before a push is forwarded (a test makes a local edit "while the push is in flight").
    var beforePush: (@Sendable () throws -> Void)?

    init(_ inner: any SyncTransport, script: [Fault?] = [], randomFaults seed: UInt64? = nil, rate: Double = 0) {
        self.inner = inner
        self.script = script
        self.random = seed.map(SeededRandom.init(seed:))
        self.faultRate = rate
    }

    func setScript(_ faults: [Fault?]) {
        lock.withLock { script = faults }
    }

    private func nextFault() -> Fault? {
        lock.withLock {
            requests += 1
            if !script.isEmpty { return script.removeFirst() }
            guard var generator = random, faultRate > 0 else { return nil }
            defer { random = generator }
            guard Double.random(in: 0..<1, using: &generator) < faultRate else { return nil }
            return [Fault.dropResponse, .unreachable, .timeout, .status(500, retryAfter: nil), .status(503, retryAfter: nil),
                    .status(429, retryAfter: 0.001)].randomElement(using: &generator)
        }
    }

    private func raise(_ fault: Fault) throws -> Never {
        switch fault {
        case .dropResponse, .unreachable: throw SyncTransportError.unreachable("connection reset (test)")
        case .timeout: throw SyncTransportError.timedOut
        case .status(let status, let retryAfter):
            throw SyncTransportError.http(HTTPFailure(status: status, message: "Test failure \(status)", retryAfter: retryAfter))
        case .profileRateLimited(let retryAfter):
            throw SyncTransportError.http(HTTPFailure(
                status: 429, code: "rate_limited",
                message: "You've updated your profile recently. Please wait a moment before making more changes.", retryAfter: retryAfter))
        }
    }

    func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        let fault = nextFault()
        if let fault, fault != .dropResponse { try raise(fault) }
        try lock.withLock { beforePush }?()
        let response = try await inner.push(request)
        lock.withLock { deliveredPushes.append(request) }
        if let fault { try raise(fault) }
        return response
    }

    func pull(cursor: Int64, limit: Int) async throws -> SyncPullResponse {
        let fault = nextFault()
        if let fault, fault != .dropResponse { try raise(fault) }
        let page = try await inner.pull(cursor: cursor, limit: limit)
        if let fault { try raise(fault) }
        return page
    }
}

/// Records the engine's waits and returns at once, so retry tests take no time.
final class RecordingSleeper: SyncSleeper, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [TimeInterval] = []

    var delays: [TimeInterval] { lock.withLock { recorded } }

    func sleep(seconds: TimeInterval) async throws {
        lock.withLock { recorded.append(seconds) }
        try Task.checkCancellation()
        await Task.yield()
    }
}

/// A transport whose server is never there.
struct OfflineTransport: SyncTransport {
    func push(_ request: SyncPushRequest) async throws -> SyncPushResponse { throw SyncTransportError.unreachable("offline (test)") }
    func pull(cursor: Int64, limit: Int) async throws -> SyncPullResponse { throw SyncTransportError.unreachable("offline (test)") }
}
