import Foundation

/// Sign-in attempts and other throttled actions counted per key ("account:<email>", "address:<ip>", …) in fixed
/// windows, kept in the store so that every server process behind a load balancer counts the same attempts.
///
/// A key's window starts at its first counted attempt and lasts the length the caller passes (the same length for a
/// key every time: at most `longestWindow`); the first attempt after a window has ended starts a new one at 1. What
/// the counts mean (how many lock a key, for how long) is the server's policy, not the store's.
public protocol LoginThrottleStore: Sendable {
    /// The keys' counts in windows still open at `now` (windows that started after `now - window`); a key without
    /// an open window is left out.
    func failureCounts(keys: [String], now: Date, window: TimeInterval) async throws -> [LoginFailureCount]

    /// Counts one more failure for each key at `now`, atomically (two processes counting at once both count), and
    /// returns the keys' counts after it. Windows that ended long ago are forgotten on the way.
    @discardableResult
    func recordFailure(keys: [String], now: Date, window: TimeInterval) async throws -> [LoginFailureCount]

    /// Takes one attempt's slot under every key at once, before the attempt is made: when each key has fewer than
    /// its limit counted in its open window, counts one more for each and answers `.taken`; otherwise counts
    /// nothing and answers the keys at their limit. Checking and counting are one transaction, so of any number of
    /// attempts made at once by any number of processes, at most `limit` are let through per key.
    func takeAttempt(_ limits: [LoginThrottleLimit], now: Date, window: TimeInterval) async throws -> LoginAttemptDecision

    /// Gives one taken slot back under each key (the attempt succeeded, so it is no failure); a count that falls to
    /// 0 is forgotten. A key without a count is left alone.
    func returnAttempt(keys: [String]) async throws

    /// Forgets a key's failures (a successful sign-in clears its account's count).
    func clearFailures(key: String) async throws
}

extension LoginThrottleStore {
    /// The longest window any caller counts in: rows whose window started longer ago than this are forgotten by
    /// whichever call passes by, whatever window it counts in.
    public static var longestWindow: TimeInterval { 24 * 60 * 60 }
}

/// A key an attempt is counted against, and how many attempts a window allows under it.
public struct LoginThrottleLimit: Sendable, Hashable {
    public var key: String
    public var limit: Int

    public init(key: String, limit: Int) {
        self.key = key
        self.limit = limit
    }
}

/// What `LoginThrottleStore.takeAttempt` answers.
public enum LoginAttemptDecision: Sendable, Hashable {
    /// Counted under every key: make the attempt.
    case taken
    /// Nothing counted: these keys are at their limit (their counts and when their windows started).
    case refused([LoginFailureCount])
}

/// How many attempts were counted for a key in its current window, and when that window started.
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
