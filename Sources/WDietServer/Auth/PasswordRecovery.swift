import Foundation
import Logging
import WDietCore
import WDietStore

/// "Forgot password?" (issue 21 item 11; OWASP Forgot Password Cheat Sheet): a person asks for a link by email and
/// sets a new password with it.
///
/// - The answer to a request is the same whether or not the email has an account, and comes before any email is
///   sent (the mail goes out in the background), so neither its words nor its time tell.
/// - The link's token is 256 random bits, kept in the store only as its SHA-256, good for `tokenLifetime` and one
///   use; asking again replaces it. Using it sets the password, ends every session of the account, clears the
///   account's sign-in throttle and signs this browser in.
/// - Requests are limited: `perEmailLimit` emails an hour to one address (beyond it, the same answer and no mail)
///   and `perAddressLimit` requests an hour from one client address (beyond it, 429 with Retry-After).
/// - Without SMTP settings (`wdiet serve --smtp-host`) or a public URL to put in the link, recovery answers
///   `.recoveryUnavailable` (503): the page says to ask the server's administrator.
struct PasswordRecovery: Sendable {
    static let tokenLifetime: TimeInterval = 30 * 60
    static let window: TimeInterval = 60 * 60
    static let perEmailLimit = 3
    static let perAddressLimit = 10

    /// How a request ended, for tests and the log (the person sees the same answer for every case but `.unavailable`).
    enum Outcome: Equatable, Sendable {
        case sent, noAccount, emailLimited
    }

    let services: AppServices
    let passwords: PasswordHasher
    let accounts: AccountService
    let mailer: (any Mailer)?
    /// The server's address as people reach it ("https://diet.example.org"), for the link.
    let publicURL: String?

    var isAvailable: Bool { mailer != nil && publicURL != nil }

    /// Asks for a link. Throws `InvalidInput` for a malformed email, `.tooManyAttempts` past the address's limit,
    /// `.recoveryUnavailable` without mail settings; else the same (no) answer whatever the email. `deliveries` is
    /// where the background send is tracked (tests wait on it).
    @discardableResult
    func requestReset(email rawEmail: String, clientAddress: String?, language: Language, logger: Logger) async throws -> (Outcome, Task<Void, Never>?) {
        guard let mailer, let publicURL else { throw AccountRefusal.recoveryUnavailable }
        guard let email = AccountInput.normalizedEmail(rawEmail) else {
            throw InvalidInput([AccountInput.Field.email.rawValue: AccountInput.Message.email], message: AccountInput.Message.email)
        }
        let now = services.now()
        let addressKey = LoginThrottleLimit(key: LoginThrottle.hashed("reset-address:" + (clientAddress ?? "unknown")), limit: Self.perAddressLimit)
        if case .refused(let counts) = try await services.loginThrottle.takeAttempt([addressKey], now: now, window: Self.window) {
            throw AccountRefusal.tooManyAttempts(retryAfterSeconds: LoginThrottle.secondsToWait(counts, window: Self.window, now: now))
        }
        let emailKey = LoginThrottleLimit(key: LoginThrottle.hashed("reset-email:" + email), limit: Self.perEmailLimit)
        if case .refused = try await services.loginThrottle.takeAttempt([emailKey], now: now, window: Self.window) {
            return (.emailLimited, nil)
        }
        guard let credentials = try await services.accounts.credentials(email: email) else { return (.noAccount, nil) }
        let token = SessionToken.generate()
        try await services.passwords.saveResetToken(
            tokenHash: SessionToken.hash(token), userId: credentials.user.id, createdAt: now, expiresAt: now.addingTimeInterval(Self.tokenLifetime))
        let message = Self.message(to: email, link: Self.link(publicURL: publicURL, token: token), language: language)
        let delivery = Task {
            do {
                try await mailer.send(message)
            } catch {
                logger.error("password recovery email not sent", metadata: ["error": "\(error)"]) // catalog-exempt: a log line
            }
        }
        return (.sent, delivery)
    }

    /// What a request is answered, whatever the email: "If an account exists for …".
    static func sentMessage(email: String) -> String {
        let strings = Strings.current
        return strings("recovery.sentMessage", ["email": email, "minutes": strings.number(Int(tokenLifetime / 60))])
    }

    static func link(publicURL: String, token: String) -> String {
        var base = publicURL
        while base.hasSuffix("/") { base.removeLast() }
        return base + "/reset-password?token=" + token
    }

    static func message(to email: String, link: String, language: Language) -> MailMessage {
        let strings = Strings.of(language)
        let minutes = strings.number(Int(tokenLifetime / 60))
        return MailMessage(
            to: email, subject: strings("recovery.emailSubject"),
            body: strings("recovery.emailBody", ["link": link, "minutes": minutes]))
    }

    /// Whether a link's token still works (the page shows the form, or says the link has expired).
    func tokenIsValid(_ token: String) async throws -> Bool {
        guard SessionToken.isWellFormed(token) else { return false }
        return try await services.passwords.resetTokenUser(tokenHash: SessionToken.hash(token), now: services.now()) != nil
    }

    /// Sets the new password with the link's token (once) and signs in; `.resetLinkInvalid` for an unknown, used or
    /// expired token, `InvalidInput` (`newPassword`) for a password the policy refuses.
    func reset(token: String, newPassword: String, kind: AccountSession.Kind) async throws -> AccountService.SignedIn {
        guard SessionToken.isWellFormed(token) else { throw AccountRefusal.resetLinkInvalid }
        let tokenHash = SessionToken.hash(token)
        guard let userId = try await services.passwords.resetTokenUser(tokenHash: tokenHash, now: services.now()),
              let user = try await services.users.user(id: userId), let email = user.email
        else { throw AccountRefusal.resetLinkInvalid }
        if let message = PasswordPolicy.newPasswordError(newPassword, email: email) {
            throw InvalidInput(["newPassword": message], message: message)
        }
        let hash = try await passwords.hash(newPassword)
        guard try await services.passwords.resetPassword(tokenHash: tokenHash, passwordHash: hash, now: services.now()) == userId else {
            throw AccountRefusal.resetLinkInvalid
        }
        accounts.sessionCache.forget(userId: userId)
        // The owner proved the email: the guesses counted against the account no longer hold them up.
        try await services.loginThrottle.clearFailures(key: LoginThrottle.accountKey(email: email))
        var signedIn = try await accounts.startSession(for: user, kind: kind)
        signedIn.deviceToken = TrustedDevice.issue(email: email, passwordHash: hash)
        return signedIn
    }
}
