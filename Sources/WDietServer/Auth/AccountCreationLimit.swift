import Foundation
import WDietStore

/// Accounts and guests made per client address (issue 21 item 6): a guest costs nothing to make and each one can
/// import, so one address may make at most `accountLimit` accounts and `guestLimit` guests an hour. Counted in the
/// store (`LoginThrottleStore.takeAttempt`, so every process shares the counts) before the work is done; past the
/// limit `AccountRefusal.tooManyAccounts` (429 with Retry-After until the hour's window ends). A refused form
/// (a field that breaks a rule) costs nothing; a taken email counts.
///
/// A client the server cannot see the address of (in-process tests) and loopback clients are not counted: on
/// loopback the client is the operator's own machine, or a reverse proxy, behind which `--trust-forwarded-for`
/// gives each client its own address (without it, every client would share one and the limit would be one for
/// the whole server).
struct AccountCreationLimit: Sendable {
    enum Kind: String, Sendable {
        case account, guest
    }

    static let window: TimeInterval = 60 * 60
    static let accountLimit = 10
    static let guestLimit = 10

    let store: any LoginThrottleStore
    let now: @Sendable () -> Date

    static func key(_ kind: Kind, clientAddress: String?) -> LoginThrottleLimit {
        LoginThrottleLimit(
            key: LoginThrottle.hashed("create-\(kind.rawValue):" + (clientAddress ?? "unknown")),
            limit: kind == .account ? accountLimit : guestLimit)
    }

    static func isCounted(_ clientAddress: String?) -> Bool {
        guard let clientAddress else { return false }
        return !(clientAddress.hasPrefix("127.") || clientAddress == "::1" || clientAddress.hasPrefix("::ffff:127."))
    }

    func take(_ kind: Kind, clientAddress: String?) async throws {
        guard Self.isCounted(clientAddress) else { return }
        let at = now()
        if case .refused(let counts) = try await store.takeAttempt([Self.key(kind, clientAddress: clientAddress)], now: at, window: Self.window) {
            throw AccountRefusal.tooManyAccounts(retryAfterSeconds: LoginThrottle.secondsToWait(counts, window: Self.window, now: at))
        }
    }
}
