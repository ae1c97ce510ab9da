import Foundation
import Testing
import WDietStore
import WDietTestSupport

/// `LoginThrottleStore` on SQLite and PostgreSQL: fixed windows per key, counted atomically across processes.
@Suite("Login throttle conformance")
struct LoginThrottleConformanceTests {
    static let start = Fixtures.utc("2026-03-01T09:00:00Z")

    @Test("a key's window starts at its first failure; a failure after the window starts over at 1", arguments: AccountBackendKind.allCases)
    func windows(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            let store = b.throttle
            #expect(try await store.recordFailure(keys: ["a", "b"], now: Self.start, window: 900) == [
                LoginFailureCount(key: "a", failures: 1, windowStartedAt: Self.start),
                LoginFailureCount(key: "b", failures: 1, windowStartedAt: Self.start),
            ])
            let counts = try await store.recordFailure(keys: ["a"], now: Self.start + 899, window: 900)
            #expect(counts == [LoginFailureCount(key: "a", failures: 2, windowStartedAt: Self.start)])
            // In the order asked for; a key without failures is left out.
            #expect(try await store.failureCounts(keys: ["b", "c", "a"], now: Self.start + 899.999, window: 900) == [
                LoginFailureCount(key: "b", failures: 1, windowStartedAt: Self.start),
                LoginFailureCount(key: "a", failures: 2, windowStartedAt: Self.start),
            ])
            // A window exactly 900 s old has ended.
            #expect(try await store.failureCounts(keys: ["a", "b"], now: Self.start + 900, window: 900) == [])
            let restarted = try await store.recordFailure(keys: ["a"], now: Self.start + 900, window: 900)
            #expect(restarted == [LoginFailureCount(key: "a", failures: 1, windowStartedAt: Self.start + 900)])
            // Ended windows are forgotten on the way once the longest window (a day) has passed since they started:
            // b is still there, and goes with the next count a day after it started.
            #expect(try await b.count(.loginFailures) == 2)
            try await store.recordFailure(keys: ["c"], now: Self.start + 86_400, window: 900)
            #expect(try await b.count(.loginFailures) == 2)
            try await store.recordFailure(keys: ["c"], now: Self.start + 900 + 86_400, window: 900)
            #expect(try await b.count(.loginFailures) == 1)
            #expect(try await store.failureCounts(keys: [], now: Self.start, window: 900) == [])
            #expect(try await store.recordFailure(keys: [], now: Self.start, window: 900) == [])
        }
    }

    @Test("clearing one key leaves the others", arguments: AccountBackendKind.allCases)
    func clear(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            try await b.throttle.recordFailure(keys: ["account:x", "address:y"], now: Self.start, window: 900)
            try await b.throttle.recordFailure(keys: ["account:x", "address:y"], now: Self.start + 1, window: 900)
            try await b.throttle.clearFailures(key: "account:x")
            try await b.throttle.clearFailures(key: "unknown")
            #expect(try await b.throttle.failureCounts(keys: ["account:x", "address:y"], now: Self.start + 2, window: 900) == [
                LoginFailureCount(key: "address:y", failures: 2, windowStartedAt: Self.start)
            ])
            #expect(try await b.throttle.recordFailure(keys: ["account:x"], now: Self.start + 3, window: 900).map(\.failures) == [1])
        }
    }

    @Test("two processes counting the same keys at once: every failure counts", arguments: AccountBackendKind.allCases)
    func concurrentFailuresAllCount(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            let other = try await b.otherProcess().throttle
            let stores = [b.throttle, other]
            // Both processes count both keys, in opposite orders, 2 × 10 times.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<20 {
                    let store = stores[index % 2]
                    let keys = index % 2 == 0 ? ["k1", "k2"] : ["k2", "k1"]
                    group.addTask { try await store.recordFailure(keys: keys, now: Self.start, window: 900) }
                }
                try await group.waitForAll()
            }
            #expect(try await b.throttle.failureCounts(keys: ["k1", "k2"], now: Self.start + 10, window: 900) == [
                LoginFailureCount(key: "k1", failures: 20, windowStartedAt: Self.start),
                LoginFailureCount(key: "k2", failures: 20, windowStartedAt: Self.start),
            ])
        }
    }

    @Test("an attempt's slot is taken under every key or none; a full key refuses with its count and window", arguments: AccountBackendKind.allCases)
    func takeAttempt(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            let store = b.throttle
            let limits = [LoginThrottleLimit(key: "pair", limit: 2), LoginThrottleLimit(key: "address", limit: 3)]
            #expect(try await store.takeAttempt(limits, now: Self.start, window: 900) == .taken)
            #expect(try await store.takeAttempt(limits, now: Self.start + 10, window: 900) == .taken)
            // "pair" is full (2 of 2): nothing is counted, "address" stays at 2.
            #expect(try await store.takeAttempt(limits, now: Self.start + 20, window: 900)
                == .refused([LoginFailureCount(key: "pair", failures: 2, windowStartedAt: Self.start)]))
            #expect(try await store.failureCounts(keys: ["pair", "address"], now: Self.start + 20, window: 900).map(\.failures) == [2, 2])
            // Another pair at the same address takes the address's last slot; then the address is full for everyone.
            let other = [LoginThrottleLimit(key: "pair2", limit: 2), LoginThrottleLimit(key: "address", limit: 3)]
            #expect(try await store.takeAttempt(other, now: Self.start + 30, window: 900) == .taken)
            #expect(try await store.takeAttempt(other, now: Self.start + 40, window: 900)
                == .refused([LoginFailureCount(key: "address", failures: 3, windowStartedAt: Self.start)]))
            #expect(try await store.failureCounts(keys: ["pair2"], now: Self.start + 40, window: 900).map(\.failures) == [1])
            // Giving a slot back: 2 → 1, and 1 → forgotten.
            try await store.returnAttempt(keys: ["pair", "pair2", "unknown"])
            #expect(try await store.failureCounts(keys: ["pair", "pair2"], now: Self.start + 50, window: 900).map(\.failures) == [1])
            // A window exactly 900 s old has ended: the next attempt starts over at 1.
            #expect(try await store.takeAttempt(limits, now: Self.start + 900, window: 900) == .taken)
            #expect(try await store.failureCounts(keys: ["pair", "address"], now: Self.start + 900, window: 900) == [
                LoginFailureCount(key: "pair", failures: 1, windowStartedAt: Self.start + 900),
                LoginFailureCount(key: "address", failures: 1, windowStartedAt: Self.start + 900),
            ])
        }
    }

    @Test("50 attempts at once from two processes, limit 5: exactly 5 taken", arguments: AccountBackendKind.allCases)
    func takeAttemptConcurrently(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            let other = try await b.otherProcess().throttle
            let stores = [b.throttle, other]
            let taken = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<50 {
                    let store = stores[index % 2]
                    // Keys in both orders: the locks are taken in one order whatever the caller's.
                    let limits = index % 2 == 0
                        ? [LoginThrottleLimit(key: "pair", limit: 5), LoginThrottleLimit(key: "address", limit: 20)]
                        : [LoginThrottleLimit(key: "address", limit: 20), LoginThrottleLimit(key: "pair", limit: 5)]
                    group.addTask { try await store.takeAttempt(limits, now: Self.start, window: 900) == .taken }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(taken == 5)
            #expect(try await b.throttle.failureCounts(keys: ["pair", "address"], now: Self.start + 1, window: 900).map(\.failures) == [5, 5])
        }
    }
}
