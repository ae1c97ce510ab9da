import Foundation
import Testing
import WDietClient
import WDietStore
import WDietTestSupport
import WDietCore

@Suite struct BackoffTests {
    @Test func theCeilingDoublesFromTheBaseUntilTheCap() {
        let backoff = Backoff(base: 1, cap: 30)
        #expect((0...7).map { backoff.ceiling(attempt: $0) } == [1, 2, 4, 8, 16, 30, 30, 30])
        #expect(backoff.ceiling(attempt: 1_000) == 30)
    }

    @Test func fullJitterSpreadsWaitsOverTheWholeRange() {
        let backoff = Backoff(base: 0.5, cap: 60)
        var random = SeededRandom(seed: 42)
        for attempt in [0, 3, 10] {
            let ceiling = backoff.ceiling(attempt: attempt)
            let delays = (0..<2_000).map { _ in backoff.delay(attempt: attempt, using: &random) }
            #expect(delays.allSatisfy { $0 >= 0 && $0 <= ceiling })
            // Uniform on [0, ceiling]: mean ceiling/2 (±5 % with 2,000 draws), and both ends of the range reached.
            let mean = delays.reduce(0, +) / Double(delays.count)
            #expect(abs(mean - ceiling / 2) < ceiling * 0.05)
            #expect(delays.min()! < ceiling * 0.02)
            #expect(delays.max()! > ceiling * 0.98)
        }
    }

    @Test func theSameSeedGivesTheSameWaits() {
        let backoff = Backoff()
        var first = SeededRandom(seed: 7)
        var second = SeededRandom(seed: 7)
        var other = SeededRandom(seed: 8)
        let a = (0..<10).map { backoff.delay(attempt: $0, using: &first) }
        let b = (0..<10).map { backoff.delay(attempt: $0, using: &second) }
        let c = (0..<10).map { backoff.delay(attempt: $0, using: &other) }
        #expect(a == b)
        #expect(a != c)
    }

    @Test func retryAfterIsAFloor() {
        let backoff = Backoff(base: 1, cap: 4)
        var random = SeededRandom(seed: 3)
        #expect((0..<100).allSatisfy { _ in backoff.delay(attempt: 2, retryAfter: 30, using: &random) == 30 })
        #expect((0..<100).allSatisfy { _ in backoff.delay(attempt: 2, retryAfter: 2, using: &random) >= 2 })
    }
}

/// The engine's retries: what is retried, how long it waits, and that nothing is dropped.
@Suite struct SyncRetryTests {
    @Test func serverErrorsRateLimitsAndTimeoutsAreRetriedUntilThePushGoesThrough() async throws {
        let server = try await StoreTransport.fresh()
        let store = try ClientFixtures.store()
        let meal = ClientFixtures.meal()
        try store.saveMeal(meal)
        let faulty = FaultyTransport(server, script: [.status(500, retryAfter: nil), .status(429, retryAfter: 7), .timeout, .unreachable])
        let sleeper = RecordingSleeper()
        #expect(await ClientFixtures.engine(store, faulty, sleeper: sleeper).sync().isUpToDate)

        let delays = sleeper.delays
        #expect(delays.count == 4)
        // Ceilings 0.5, 1, 2, 4 s (base 0.5); the 429's Retry-After of 7 s is waited in full.
        #expect(delays[0] <= 0.5 && delays[2] <= 2 && delays[3] <= 4)
        #expect(delays[1] == 7)
        #expect(try store.status().pending == 0)
        #expect(try await server.pull(cursor: 0, limit: 10).items.contains { $0.meal?.id == meal.id })
    }

    @Test func aProfileOverTheHourlyLimitWaitsInTheOutboxWhileMealsSync() async throws {
        let server = try await StoreTransport.fresh()
        let store = try ClientFixtures.store()
        let faulty = FaultyTransport(server)
        let sleeper = RecordingSleeper()
        let engine = ClientFixtures.engine(store, faulty, sleeper: sleeper)
        #expect(await engine.sync().isUpToDate)

        var profile = Fixtures.profile()
        profile.mealsPerDay = 5
        try store.saveProfile(profile)
        let meal = ClientFixtures.meal()
        try store.saveMeal(meal)
        faulty.setScript([.profileRateLimited(retryAfter: 3_000)])
        let outcome = await engine.sync()
        #expect(outcome == .serverUnavailable("You've updated your profile recently. Please wait a moment before making more changes."))
        // The meal went; the profile waits, and nobody waited the hour in this run.
        #expect(try await server.pull(cursor: 0, limit: 100).items.contains { $0.meal?.id == meal.id })
        #expect(try store.status().pending == 1)
        #expect(sleeper.delays.isEmpty)

        // Later the server lets it in.
        #expect(await engine.sync().isUpToDate)
        #expect(try store.status().pending == 0)
        #expect(try await server.pull(cursor: 0, limit: 100).items.last { $0.entity == .profile }?.profile?.mealsPerDay == 5)
    }

    @Test func syncingOfflineFailsSoftlyAndKeepsEverything() async throws {
        let store = try ClientFixtures.store()
        try store.saveMeal(ClientFixtures.meal())
        let sleeper = RecordingSleeper()
        let outcome = await ClientFixtures.engine(store, OfflineTransport(), maxRetries: 3, sleeper: sleeper).sync()
        #expect(outcome == .offline("The server cannot be reached (offline (test))"))
        #expect(sleeper.delays.count == 3)
        #expect(try store.status().pending == 2)
        #expect(try store.lastSyncAt() == nil)
        #expect(try store.meals(on: Fixtures.date("2026-03-01")).count == 1)
    }

    @Test func aKickEndsTheWaitWhenTheNetworkReturns() async throws {
        let server = try await StoreTransport.fresh()
        let store = try ClientFixtures.store()
        try store.saveMeal(ClientFixtures.meal())
        let network = Switch(inner: server)
        // Waits of up to 10 minutes: only a kick can make this test finish in time.
        let engine = SyncEngine(
            store: store, transport: network, policy: .init(backoff: Backoff(base: 600, cap: 600), maxRetries: 0, interval: 600),
            random: SeededRandom(seed: 5), sleeper: TaskSleeper())
        await engine.start()
        try await waitUntil { if case .offline = await engine.state { true } else { false } }
        network.online = true
        await engine.reachabilityChanged(reachable: true)
        try await waitUntil { await engine.state.isUpToDate }
        await engine.stop()
        #expect(try store.status().pending == 0)
    }

    @Test func aSignedOutAnswerStopsAndKeepsTheOutbox() async throws {
        let store = try ClientFixtures.store()
        try store.signIn(.init(server: URL(string: "http://127.0.0.1:1")!, token: "t", userId: UUID(), email: nil))
        let faulty = FaultyTransport(OfflineTransport(), script: [.status(401, retryAfter: nil)])
        let outcome = await ClientFixtures.engine(store, faulty).sync()
        #expect(outcome == .signedOut)
        #expect(try store.status().pending == 1)
        #expect(try store.account() == nil) // the token is forgotten; the server and user stay for the next sign-in
    }
}

/// A network that is off until a test turns it on.
final class Switch: SyncTransport, @unchecked Sendable {
    private let inner: any SyncTransport
    private let lock = NSLock()
    private var isOnline = false

    init(inner: any SyncTransport) {
        self.inner = inner
    }

    var online: Bool {
        get { lock.withLock { isOnline } }
        set { lock.withLock { isOnline = newValue } }
    }

    func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        guard online else { throw SyncTransportError.unreachable("offline (test)") }
        return try await inner.push(request)
    }

    func pull(cursor: Int64, limit: Int) async throws -> SyncPullResponse {
        guard online else { throw SyncTransportError.unreachable("offline (test)") }
        return try await inner.pull(cursor: cursor, limit: limit)
    }
}

/// Polls a condition every 10 ms for up to 10 s.
func waitUntil(_ condition: @Sendable () async throws -> Bool) async throws {
    for _ in 0..<1_000 {
        if try await condition() { return }
        try await Task.sleep(nanoseconds: 10_000_000)
    }
    Issue.record("condition not met within 10 s")
}
