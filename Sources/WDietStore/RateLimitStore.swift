import Foundation

/// An action a user may take only so often, counted in the store so that the limit holds across server processes.
/// The raw values are stored: never rename one.
public enum RateLimitedAction: String, CaseIterable, Codable, Sendable {
    /// A saved change to the profile (001 §12.7: more than 10 in an hour is refused).
    case profileUpdate = "profile-update"
}

/// What `RateLimitStore.acquire` answers.
public enum RateLimitDecision: Hashable, Sendable {
    /// The use is counted; `release` it with this id if the action then fails, so a failed attempt costs nothing.
    case allowed(id: UUID)
    /// The limit is reached; the oldest counted use leaves the window at `retryAt`.
    case limited(retryAt: Date)
}

/// Sliding-window counters of each user's rate-limited actions.
public protocol RateLimitStore: Sendable {
    /// Counts one use of `action` at `now` when fewer than `limit` uses fall in the `window` seconds before it (a use
    /// exactly `window` seconds old has left the window); otherwise counts nothing and says when a slot frees up.
    /// Checking and counting are one transaction, so two servers cannot both take the last slot.
    func acquire(_ action: RateLimitedAction, userId: UUID, limit: Int, window: TimeInterval, now: Date) async throws -> RateLimitDecision

    /// Forgets a counted use (the action it was taken for did not happen). An unknown id is no error.
    func release(_ id: UUID) async throws
}
