import Foundation
import WDietStore
import WDietCore

/// Pushes the outbox and pulls the server's changes for one `ClientStore`, retrying what can be retried and never
/// dropping a change: transport errors, 5xx and 429 wait (capped exponential backoff with full jitter, at least the
/// server's `Retry-After`) and try again with the same idempotency keys; a refused change (4xx) is parked with a
/// notice; a stale profile becomes a "Keep Local / Use Server" conflict; 401 stops until the user signs in again.
///
/// `sync()` is one run (the CLI's `wdiet client sync`); `start()` keeps running it in the background, and `kick()`
/// (or `reachabilityChanged(true)`) cuts the wait short when the network returns.
public actor SyncEngine {
    public enum State: Hashable, Sendable {
        case idle
        case syncing
        /// Everything pushed and pulled at this (device clock) time.
        case upToDate(Date)
        /// The server could not be reached; nothing was lost, the outbox waits.
        case offline(String)
        /// The server answered 5xx or 429 every time; the outbox waits.
        case serverUnavailable(String)
        /// 401: sign in again (the outbox waits for the same account).
        case signedOut
        /// The server refused a pull in a way a retry does not fix.
        case failed(String)
    }

    public struct Policy: Hashable, Sendable {
        public var backoff: Backoff
        /// Retries within one `sync()` before it gives up softly (the background loop goes on waiting and retrying).
        public var maxRetries: Int
        public var pushBatchSize: Int
        public var pullLimit: Int
        /// How often the background loop syncs when all is well.
        public var interval: TimeInterval

        public init(
            backoff: Backoff = Backoff(), maxRetries: Int = 4, pushBatchSize: Int = SyncLimits.maxChangesPerPush,
            pullLimit: Int = SyncLimits.defaultPullLimit, interval: TimeInterval = 60
        ) {
            self.backoff = backoff
            self.maxRetries = maxRetries
            self.pushBatchSize = min(max(1, pushBatchSize), SyncLimits.maxChangesPerPush)
            self.pullLimit = min(max(1, pullLimit), SyncLimits.maxPullLimit)
            self.interval = interval
        }
    }

    public let store: ClientStore
    private let transport: any SyncTransport
    private let policy: Policy
    private let sleeper: any SyncSleeper
    private var random: AnyRandom
    public private(set) var state: State = .idle
    private var run: Task<State, Never>?
    private var loop: Task<Void, Never>?
    private var wait: Task<Void, Never>?
    private var loopFailures = 0
    /// A kick that came while no wait was running (during a sync): the next wait is skipped.
    private var kicked = false

    public init(
        store: ClientStore, transport: any SyncTransport, policy: Policy = Policy(),
        random: any RandomNumberGenerator & Sendable = SystemRandomNumberGenerator(), sleeper: any SyncSleeper = TaskSleeper()
    ) {
        self.store = store
        self.transport = transport
        self.policy = policy
        self.random = AnyRandom(base: random)
        self.sleeper = sleeper
    }

    // MARK: One run

    /// Pushes everything waiting, then pulls until the server has nothing more. Concurrent calls share one run.
    /// Never throws: the outcome is the state it returns (and `state`).
    @discardableResult
    public func sync() async -> State {
        if let run { return await run.value }
        let task = Task { await self.perform() }
        run = task
        let outcome = await task.value
        run = nil
        return outcome
    }

    private func perform() async -> State {
        state = .syncing
        var retries = 0
        while true {
            do {
                let profileLimited = try await pushAll()
                try await pullAll()
                let now = store.now()
                try store.recordSync(at: now)
                // The rest synced; the profile waits in the outbox for the server's hourly limit to let it in.
                state = profileLimited.map { .serverUnavailable($0.message) } ?? .upToDate(now)
                return state
            } catch let error as SyncTransportError {
                if case .http(let failure) = error, failure.status == 401 {
                    try? store.forgetToken()
                    state = .signedOut
                    return state
                }
                if case .http(let failure) = error, !failure.isRetryable {
                    state = .failed(failure.message)
                    return state
                }
                let soft: State = switch error {
                case .http(let failure): .serverUnavailable(failure.message)
                default: .offline(error.description)
                }
                guard retries < policy.maxRetries else {
                    state = soft
                    return state
                }
                let retryAfter: TimeInterval? = if case .http(let failure) = error { failure.retryAfter } else { nil }
                let delay = policy.backoff.delay(attempt: retries, retryAfter: retryAfter, using: &random)
                retries += 1
                do {
                    try await sleeper.sleep(seconds: delay)
                } catch {
                    state = soft
                    return state
                }
            } catch {
                // The local database failed (disk full…): nothing was lost; say so and stop this run.
                state = .failed("This device's data could not be saved: \(error)")
                return state
            }
        }
    }

    /// Pushes the profile alone first, then the rest in batches. A refusal that names a change parks that change
    /// and the rest goes again; one that names none is narrowed down by halving the batch. A profile refused by the
    /// profile editor's hourly limit (429) stays in the outbox and is returned, so meals and weights never wait an
    /// hour behind it.
    private func pushAll() async throws -> HTTPFailure? {
        var profileLimited: HTTPFailure?
        for kind in [ClientStore.BatchKind.profile, .data] {
            var limit = policy.pushBatchSize
            while let batch = try store.nextBatch(kind, limit: limit) {
                let response: SyncPushResponse
                do {
                    response = try await push(batch.request)
                } catch let error as SyncTransportError {
                    if kind == .profile, case .http(let failure) = error, failure.status == 429, failure.code == "rate_limited" {
                        profileLimited = failure
                        break
                    }
                    guard case .http(let failure) = error, !failure.isRetryable, failure.status != 401 else { throw error }
                    if failure.status == 409, let conflict = failure.profileConflict {
                        try store.recordProfileConflict(conflict, of: batch)
                    } else if let index = failure.changeIndex, batch.entries.indices.contains(index) {
                        try store.park(index, of: batch, message: failure.message)
                    } else if batch.count > 1 {
                        limit = max(1, batch.count / 2)
                    } else {
                        try store.park(0, of: batch, message: failure.message)
                    }
                    continue
                }
                try store.apply(response.results, of: batch)
                limit = policy.pushBatchSize
            }
        }
        return profileLimited
    }

    private func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        do {
            return try await transport.push(request)
        } catch let error as SyncTransportError {
            throw error
        } catch is CancellationError {
            throw SyncTransportError.unreachable("cancelled")
        } catch {
            throw SyncTransportError.unreachable(String(describing: error))
        }
    }

    /// Pulls from the stored cursor until `hasMore` is false; each page and its cursor are stored together.
    private func pullAll() async throws {
        var restarted = false
        var cursor = try store.cursor()
        while true {
            let page: SyncPullResponse
            do {
                page = try await transport.pull(cursor: cursor, limit: policy.pullLimit)
            } catch let error as SyncTransportError {
                // A cursor ahead of the server (its data was restored or replaced): pull everything again, once.
                if case .http(let failure) = error, failure.code == "invalid_cursor", failure.fields["cursor"] != nil, cursor > 0, !restarted {
                    restarted = true
                    try store.resetCursor()
                    cursor = 0
                    continue
                }
                throw error
            } catch {
                throw SyncTransportError.unreachable(String(describing: error))
            }
            try store.apply(page)
            cursor = page.nextCursor
            guard page.hasMore else { return }
        }
    }

    // MARK: Background

    /// Keeps syncing: at `policy.interval` when all is well, after a growing jittered wait when offline or the
    /// server fails, and at once after `kick()`. Stops when signed out or on `stop()`.
    public func start() {
        guard loop == nil else { return }
        loop = Task { await self.runLoop() }
    }

    public func stop() {
        loop?.cancel()
        wait?.cancel()
        loop = nil
    }

    /// Sync now (a local edit was made, the app came to the foreground, the network came back).
    public func kick() {
        kicked = true
        wait?.cancel()
    }

    /// The platform's reachability callback: back online syncs at once; offline just says so.
    public func reachabilityChanged(reachable: Bool) {
        if reachable {
            kick()
        } else if run == nil {
            state = .offline("No network connection")
        }
    }

    private func runLoop() async {
        while !Task.isCancelled {
            let outcome = await sync()
            let delay: TimeInterval
            switch outcome {
            case .upToDate:
                loopFailures = 0
                delay = policy.interval
            case .signedOut:
                loop = nil
                return
            default:
                delay = policy.backoff.delay(attempt: loopFailures, using: &random)
                loopFailures += 1
            }
            if kicked {
                kicked = false
                continue
            }
            let sleeper = self.sleeper
            let task = Task {
                do { try await sleeper.sleep(seconds: delay) } catch {}
            }
            wait = task
            await task.value
            wait = nil
            kicked = false
        }
    }
}

/// The injected random source behind a concrete type, so that it can be passed `inout` to `Backoff.delay`.
private struct AnyRandom: RandomNumberGenerator, Sendable {
    var base: any RandomNumberGenerator & Sendable

    mutating func next() -> UInt64 { base.next() }
}
