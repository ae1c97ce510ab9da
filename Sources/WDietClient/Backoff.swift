import Foundation
import WDietCore

/// Capped exponential backoff with full jitter (the AWS architecture blog's "Full Jitter"): before retry n
/// (0-based) wait a uniformly random time in [0, min(cap, base · 2ⁿ)]. Spreading the waits over the whole range
/// keeps many devices that went offline together from hammering the server together when it comes back.
public struct Backoff: Hashable, Sendable {
    public var base: TimeInterval
    public var cap: TimeInterval

    public init(base: TimeInterval = 1, cap: TimeInterval = 300) {
        precondition(base > 0 && cap >= base, "Backoff needs 0 < base ≤ cap")
        self.base = base
        self.cap = cap
    }

    /// The upper bound of the wait before retry `attempt` (0-based).
    public func ceiling(attempt: Int) -> TimeInterval {
        // 2ⁿ overflows nothing here: past 62 doublings the cap has long been reached.
        let factor = attempt >= 62 ? Double.greatestFiniteMagnitude : Double(UInt64(1) << UInt64(max(0, attempt)))
        return min(cap, base * factor)
    }

    /// The wait before retry `attempt`: uniform in [0, ceiling]. A server's `Retry-After` is a floor: never sooner.
    public func delay(attempt: Int, retryAfter: TimeInterval? = nil, using random: inout some RandomNumberGenerator) -> TimeInterval {
        let jittered = Double.random(in: 0...ceiling(attempt: attempt), using: &random)
        guard let retryAfter, retryAfter > 0 else { return jittered }
        return max(retryAfter, jittered)
    }
}

/// How the engine waits between retries; tests pass one that records the waits and returns at once.
public protocol SyncSleeper: Sendable {
    /// Throws `CancellationError` when the waiting task is cancelled (a `kick()` cuts a wait short that way).
    func sleep(seconds: TimeInterval) async throws
}

/// Waits on the real clock.
public struct TaskSleeper: SyncSleeper {
    public init() {}

    public func sleep(seconds: TimeInterval) async throws {
        try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
    }
}
