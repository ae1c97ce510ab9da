import Crypto
import Foundation
import WDietCore
import WDietStore

/// Password guessing slowed down without locking the owner out (OWASP ASVS 5.0 V6.3.1 and V6.1.1; the OWASP
/// Authentication Cheat Sheet's "account lockout" and its "device cookies" protocol). Attempts are counted in the
/// store in fixed 15-minute windows, so every server process counts the same ones, and each attempt's slot is
/// **taken before the password is hashed**, in one store transaction: of 50 guesses sent at once, at most the limit
/// are checked; the rest are refused (429 with Retry-After) without a bcrypt run.
///
/// Which counters an attempt takes a slot in:
/// - **A trusted device** (it presents the device token this account's password sign-in gave it earlier,
///   `TrustedDevice`): only its own counter, 5 per window. Guesses from elsewhere never lock it out.
/// - **Any other client:** this email from this client address (5 per window: the attacker's own guesses at one
///   account), this client address at any email (20: spraying one password over many accounts), and this email
///   from every untrusted client together (20: a guesser spread over many addresses). The last one can lock out a
///   new device of the owner for a while — their known devices and "Forgot password?" still work.
///
/// A successful sign-in gives its slot back under every counter and clears this client's own count at the account
/// (the email-and-address or the device counter); the account-wide count of untrusted guesses stays until its
/// window ends, so a guesser gains nothing when the owner signs in. Emails count whether or not an account has them,
/// so a 429 does not tell which emails exist. Keys are stored as SHA-256, so the table holds no email or address.
struct LoginThrottle: Sendable {
    static let window: TimeInterval = 15 * 60
    /// One email from one client address.
    static let emailAddressLimit = 5
    /// One client address, any emails.
    static let addressLimit = 20
    /// One email from every client without its device token.
    static let accountLimit = 20
    /// One trusted device at its account.
    static let deviceLimit = 5

    struct Key: Sendable, Hashable {
        var stored: String
        var limit: Int
    }

    /// The keys one attempt takes a slot in, and which of them a success clears.
    struct Keys: Sendable {
        var all: [Key]
        var clearedOnSuccess: [String]
    }

    let store: any LoginThrottleStore
    let now: @Sendable () -> Date

    /// `email` is normalized; an unknown client address counts as one shared address (conservative, and only
    /// when the server cannot see the address at all). `trustedDevice` is a device token already checked against
    /// this account (`TrustedDevice.isValid`).
    static func keys(email: String, clientAddress: String?, trustedDevice: String? = nil) -> Keys {
        if let trustedDevice {
            let device = Key(stored: hashed("device:" + trustedDevice), limit: deviceLimit)
            return Keys(all: [device], clearedOnSuccess: [device.stored])
        }
        let address = clientAddress ?? "unknown"
        let pair = Key(stored: hashed("account-address:" + email + "\n" + address), limit: emailAddressLimit)
        return Keys(
            all: [pair, Key(stored: accountKey(email: email), limit: accountLimit), Key(stored: hashed("address:" + address), limit: addressLimit)],
            clearedOnSuccess: [pair.stored])
    }

    /// The account-wide counter of an email (forgotten with the account).
    static func accountKey(email: String) -> String {
        hashed("account:" + email)
    }

    /// Takes this attempt's slot under every key before the password is checked; `.tooManyAttempts` (nothing
    /// counted) when any key is at its limit.
    func take(_ keys: Keys) async throws {
        let at = now()
        let limits = keys.all.map { LoginThrottleLimit(key: $0.stored, limit: $0.limit) }
        if case .refused(let counts) = try await store.takeAttempt(limits, now: at, window: Self.window) {
            throw AccountRefusal.tooManyAttempts(retryAfterSeconds: Self.secondsToWait(counts, window: Self.window, now: at))
        }
    }

    /// The password was right: the slot was no failure.
    func succeeded(_ keys: Keys) async throws {
        let cleared = Set(keys.clearedOnSuccess)
        try await store.returnAttempt(keys: keys.all.map(\.stored).filter { !cleared.contains($0) })
        for key in keys.clearedOnSuccess { try await store.clearFailures(key: key) }
    }

    /// Whole seconds until every full key's window has ended (rounded up, so a client that waits that long is let
    /// in); at least 1.
    static func secondsToWait(_ counts: [LoginFailureCount], window: TimeInterval, now: Date) -> Int {
        let waits = counts.map { count in
            Int(count.windowStartedAt.addingTimeInterval(window).timeIntervalSince(now).rounded(.up))
        }
        return max(waits.max() ?? 1, 1)
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

/// OWASP's "device cookie": a browser or app that signed in to an account with its password before holds a token
/// that proves it, and its sign-ins are counted apart from everyone else's (`LoginThrottle`). The token is a random
/// nonce and an HMAC-SHA256 of the email and nonce, keyed with the account's stored password hash: it needs no
/// table, only the server can make one, and a new password (a reset after a compromise) makes every earlier token
/// worthless. The web app keeps it in the `wdiet_device` cookie (HttpOnly, a year).
enum TrustedDevice {
    static let cookieName = "wdiet_device"
    static let cookieLifetime = 365 * 24 * 60 * 60

    static func issue(email: String, passwordHash: String) -> String {
        let nonce = SessionToken.generate()
        return nonce + "." + mac(email: email, nonce: nonce, passwordHash: passwordHash)
    }

    static func isValid(_ token: String, email: String, passwordHash: String) -> Bool {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == SessionToken.length, token.utf8.count < 200 else { return false }
        return WebSession.matches(String(parts[1]), mac(email: email, nonce: String(parts[0]), passwordHash: passwordHash))
    }

    private static func mac(email: String, nonce: String, passwordHash: String) -> String {
        let key = SymmetricKey(data: SHA256.hash(data: Data(("wdiet-device-v1:" + passwordHash).utf8)))
        let mac = HMAC<SHA256>.authenticationCode(for: Data((email + "\n" + nonce).utf8), using: key)
        return WebSession.base64url(Data(mac))
    }
}
