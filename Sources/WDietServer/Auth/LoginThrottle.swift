import Crypto
import Foundation
import WDietCore
import WDietStore

/// Password guessing slowed down (OWASP ASVS 5.0 V6.3.1): failed password checks are counted in fixed 15-minute
/// windows per account and per client address, in the store, so every server process counts the same failures.
///
/// - An email with 5 failures in its window is refused (`AccountRefusal.tooManyAttempts`: 429 with Retry-After)
///   until the window ends: at most 20 guesses an hour at any one account, however many addresses the guesses
///   come from.
/// - A client address with 20 failures in its window is refused the same way, whichever emails it tries.
/// - A successful sign-in clears its account's count (not its address's).
///
/// Emails count whether or not an account has them, so a 429 does not tell which emails exist. A refused attempt is
/// not checked (no bcrypt) and not counted. Keys are stored as SHA-256, so the table holds no email or address.
struct LoginThrottle: Sendable {
    static let window: TimeInterval = 15 * 60
    static let accountLimit = 5
    static let addressLimit = 20

    struct Key: Sendable, Hashable {
        var stored: String
        var limit: Int
    }

    /// The keys one attempt counts against.
    struct Keys: Sendable {
        var account: Key
        var address: Key
        var all: [Key] { [account, address] }
    }

    let store: any LoginThrottleStore
    let now: @Sendable () -> Date

    /// `email` is normalized; an unknown client address counts as one shared address (conservative, and only
    /// when the server cannot see the address at all).
    static func keys(email: String, clientAddress: String?) -> Keys {
        Keys(
            account: Key(stored: hashed("account:" + email), limit: accountLimit),
            address: Key(stored: hashed("address:" + (clientAddress ?? "unknown")), limit: addressLimit)
        )
    }

    /// Refuses the attempt (`.tooManyAttempts`) when any of the keys is at its limit.
    func check(_ keys: Keys) async throws {
        let at = now()
        let counts = try await store.failureCounts(keys: keys.all.map(\.stored), now: at, window: Self.window)
        if let seconds = Self.secondsToWait(counts, keys: keys, now: at) { throw AccountRefusal.tooManyAttempts(retryAfterSeconds: seconds) }
    }

    func recordFailure(_ keys: Keys) async throws {
        try await store.recordFailure(keys: keys.all.map(\.stored), now: now(), window: Self.window)
    }

    func recordSuccess(_ keys: Keys) async throws {
        try await store.clearFailures(key: keys.account.stored)
    }

    /// Whole seconds until every locked key's window has ended (rounded up, so a client that waits that long is let
    /// in); nil when none is locked.
    static func secondsToWait(_ counts: [LoginFailureCount], keys: Keys, now: Date) -> Int? {
        let limits = Dictionary(keys.all.map { ($0.stored, $0.limit) }, uniquingKeysWith: min)
        let waits = counts.compactMap { count -> Int? in
            guard let limit = limits[count.key], count.failures >= limit else { return nil }
            let remaining = count.windowStartedAt.addingTimeInterval(window).timeIntervalSince(now)
            return remaining > 0 ? Int(remaining.rounded(.up)) : nil
        }
        return waits.max()
    }

    /// "12m 45s", "45s", as 001 §12.7 writes a wait ("12 Min. 45 Sek." in German).
    static func waitText(_ seconds: Int) -> String {
        let minutes = seconds / 60, rest = seconds % 60
        let strings = Strings.current
        return minutes > 0
            ? strings("auth.waitMinutes", ["minutes": strings.number(minutes), "seconds": strings.number(rest)])
            : strings("auth.waitSeconds", ["seconds": strings.number(rest)])
    }

    static func hashed(_ text: String) -> String {
        SessionToken.hash(text)
    }
}
