import Foundation

/// Failed sign-ins counted per key ("account:<email>", "address:<ip>") in fixed windows, kept in the store so that
/// every server process behind a load balancer counts the same failures.
///
/// A key's window starts at its first failure and lasts the length the caller passes; the first failure after a
/// window has ended starts a new one at 1. What the counts mean (how many failures lock a key, for how long) is the
/// server's policy, not the store's.
public protocol LoginThrottleStore: Sendable {
    /// The keys' counts in windows still open at `now` (windows that started after `now - window`); a key without
    /// an open window is left out.
    func failureCounts(keys: [String], now: Date, window: TimeInterval) async throws -> [LoginFailureCount]

    /// Counts one more failure for each key at `now`, atomically (two processes counting at once both count), and
    /// returns the keys' counts after it. Windows that ended long ago are forgotten on the way.
    @discardableResult
    func recordFailure(keys: [String], now: Date, window: TimeInterval) async throws -> [LoginFailureCount]

    /// Forgets a key's failures (a successful sign-in clears its account's count).
    func clearFailures(key: String) async throws
}

/// How many sign-ins failed for a key in its current window, and when that window started.
public struct LoginFailureCount: Sendable, Hashable {
    public var key: String
    public var failures: Int
    public var windowStartedAt: Date

    public init(key: String, failures: Int, windowStartedAt: Date) {
        self.key = key
        self.failures = failures
        self.windowStartedAt = windowStartedAt
    }
}
