import Foundation
import Logging
import WDietCore
import WDietStore

/// Signing up, in and out: what the API's auth routes do, and what the web pages will do through the same calls.
/// Errors leave as `APIError`s with the words the forms show.
struct AccountService: Sendable {
    /// Sessions last 30 days from sign-in; using one does not extend it.
    static let sessionLifetime: TimeInterval = 30 * 24 * 60 * 60
    /// `lastUsedAt` is written at most this often, so a signed-in request is a read, not a write.
    static let touchInterval: TimeInterval = 60 * 60

    static let invalidCredentials = APIError(.unauthorized, code: "invalid_credentials", message: "Email or password is incorrect")
    static let notAGuest = APIError(.conflict, code: "not_a_guest", message: "This account already has an email address")
    static func emailTaken(_ message: String = "An account with this email already exists") -> APIError {
        APIError(.conflict, code: "email_taken", message: message, fields: [AccountInput.Field.email.rawValue: message])
    }

    /// A new session: the token goes to the client once; the store keeps its hash.
    struct SignedIn: Sendable {
        var token: String
        var user: User
    }

    let services: AppServices
    let passwords: PasswordHasher
    /// Shared by every copy of this service (it is a class): the routes and the middleware see the same entries.
    let sessionCache = SessionCache()

    init(services: AppServices, passwords: PasswordHasher) {
        self.services = services
        self.passwords = passwords
    }

    func register(email: String, password: String, kind: AccountSession.Kind) async throws -> SignedIn {
        let email = try Self.validatedNewAccount(email: email, password: password)
        // Checked before the slow hash; the store checks again, for two sign-ups racing.
        if try await services.users.user(email: email) != nil { throw Self.emailTaken() }
        let hash = try await passwords.hash(password)
        let user: User
        do {
            user = try await services.accounts.createAccount(id: UUID(), email: email, displayName: "", passwordHash: hash)
        } catch StoreError.conflict(let message) {
            throw Self.emailTaken(message)
        }
        return try await startSession(for: user, kind: kind)
    }

    /// The same answer, after the same bcrypt work, for an unknown email and a wrong password.
    func login(email: String, password: String, kind: AccountSession.Kind) async throws -> SignedIn {
        let errors = AccountInput.signInErrors(email: email, password: password)
        if !errors.isEmpty { throw Self.invalid(errors) }
        guard let email = AccountInput.normalizedEmail(email),
              let credentials = try await services.accounts.credentials(email: email)
        else {
            try await passwords.verifyWithoutAccount(password)
            throw Self.invalidCredentials
        }
        guard try await passwords.verify(password, hash: credentials.passwordHash) else { throw Self.invalidCredentials }
        return try await startSession(for: credentials.user, kind: kind)
    }

    /// "Continue without an account".
    func startGuest(kind: AccountSession.Kind) async throws -> SignedIn {
        let user = try await services.accounts.createGuest(id: UUID(), displayName: "")
        return try await startSession(for: user, kind: kind)
    }

    /// A guest adds an email and password and keeps its id, so every row it logged stays its own. The guest's
    /// sessions end and a new one starts: a token handed out before the account had a password must not go on to
    /// open it.
    func upgradeGuest(userId: UUID, email: String, password: String, kind: AccountSession.Kind, logger: Logger) async throws -> SignedIn {
        let email = try Self.validatedNewAccount(email: email, password: password)
        guard let current = try await services.users.user(id: userId) else { throw APIError.unauthorized }
        guard current.email == nil else { throw Self.notAGuest }
        if try await services.users.user(email: email) != nil { throw Self.emailTaken() }
        let hash = try await passwords.hash(password)
        let user: User
        do {
            user = try await services.accounts.upgradeGuest(userId: userId, email: email, passwordHash: hash)
        } catch StoreError.conflict(let message) {
            // Something changed meanwhile: the email was taken, or the guest was upgraded by another request.
            let now = try await services.users.user(id: userId)
            throw now?.email == nil ? Self.emailTaken(message) : Self.notAGuest
        }
        try await services.accounts.deleteSessions(userId: userId)
        sessionCache.forget(userId: userId)
        let signedIn = try await startSession(for: user, kind: kind)
        do {
            let event = AnalyticsEvent(name: .accountLinked, properties: ["method": "email"], occurredAt: services.now())
            try await services.analytics.recordEvent(event, userId: userId)
        } catch {
            // The account is linked either way; a lost analytics event is not the user's problem.
            logger.warning("could not record account_linked", metadata: ["error": "\(error)"])
        }
        return signedIn
    }

    /// Ends the session of this token (whoever's it is; holding the token is the proof).
    func logout(token: String) async throws {
        let tokenHash = SessionToken.hash(token)
        sessionCache.forget(tokenHash: tokenHash)
        try await services.accounts.deleteSession(tokenHash: tokenHash)
    }

    /// The user a presented token signs in, or nil: unknown, expired (then forgotten), or presented another way
    /// than it was handed out (a web session's cookie value as a bearer token, or the reverse).
    /// A token seen in the last few seconds is answered from `sessionCache` (see there for what that allows).
    func userId(presenting token: String, as kind: AccountSession.Kind) async throws -> UUID? {
        let tokenHash = SessionToken.hash(token)
        let now = services.now()
        if let cached = sessionCache.entry(tokenHash: tokenHash, at: now) {
            return cached.kind == kind ? cached.userId : nil
        }
        guard let session = try await services.accounts.session(tokenHash: tokenHash), session.kind == kind else { return nil }
        if session.isExpired(at: now) {
            try await services.accounts.deleteSession(tokenHash: tokenHash)
            return nil
        }
        if now.timeIntervalSince(session.lastUsedAt) >= Self.touchInterval {
            try await services.accounts.touchSession(tokenHash: tokenHash, lastUsedAt: now)
        }
        sessionCache.remember(tokenHash: tokenHash, session: session, at: now)
        return session.userId
    }

    func user(id: UUID) async throws -> User? {
        try await services.users.user(id: id)
    }

    private func startSession(for user: User, kind: AccountSession.Kind) async throws -> SignedIn {
        let token = SessionToken.generate()
        let now = services.now()
        try await services.accounts.createSession(AccountSession(
            tokenHash: SessionToken.hash(token), userId: user.id, kind: kind,
            createdAt: now, expiresAt: now.addingTimeInterval(Self.sessionLifetime), lastUsedAt: now
        ))
        return SignedIn(token: token, user: user)
    }

    /// The normalized email, or a 422 naming every field that is wrong.
    private static func validatedNewAccount(email: String, password: String) throws(APIError) -> String {
        let errors = AccountInput.signUpErrors(email: email, password: password)
        guard errors.isEmpty, let normalized = AccountInput.normalizedEmail(email) else { throw invalid(errors) }
        return normalized
    }

    private static func invalid(_ errors: [AccountInput.Field: String]) -> APIError {
        let first = AccountInput.Field.allCases.compactMap { errors[$0] }.first ?? AccountInput.Message.email
        return .invalid(first, fields: Dictionary(uniqueKeysWithValues: errors.map { ($0.key.rawValue, $0.value) }))
    }
}
