import Foundation
import Logging
import WDietCore
import WDietStorage
import WDietStore

/// Signing up, in and out: what the API's auth routes and the web pages both call. It says no with `InvalidInput`
/// when a field breaks a rule and `AccountRefusal` for the rest (a wrong password, a taken email, a throttled
/// sign-in), never with HTTP errors: the API answers them as JSON, the pages show their forms again.
struct AccountService: Sendable {
    /// Sessions last 30 days from sign-in; using one does not extend it (`SessionSecret.lifetime`, which seeded
    /// sessions share).
    static let sessionLifetime = SessionSecret.lifetime
    /// `lastUsedAt` is written at most this often, so a signed-in request is a read, not a write.
    static let touchInterval: TimeInterval = 60 * 60

    /// A new session: the token goes to the client once; the store keeps its hash.
    struct SignedIn: Sendable {
        var token: String
        var user: User
        /// True when this sign-in created the account (Sign in with Apple/Google answers 201 then).
        var created = false
        /// True when the user signed in (or linked) with Apple or Google: no guest, even without an email.
        var signsInWithProvider = false
        /// After a sign-in or sign-up with a password: the token that makes this device a trusted one for the
        /// account's later sign-ins (`TrustedDevice`; the web keeps it in a cookie).
        var deviceToken: String?
    }

    static var samePassword: String { Strings.current("auth.samePassword") }

    let services: AppServices
    let passwords: PasswordHasher
    let throttle: LoginThrottle
    let creationLimit: AccountCreationLimit
    /// Shared by every copy of this service (it is a class): the routes and the middleware see the same entries.
    let sessionCache: SessionCache

    /// Sign in with Apple and Google: one verifier (and JWKS cache) per configured provider.
    let identityVerifiers: [IdentityProvider.Name: IDTokenVerifier]

    init(
        services: AppServices, passwords: PasswordHasher,
        identityProviders: [IdentityProvider.Name: IdentityProvider] = [:], jwksFetcher: any JWKSFetching = HTTPJWKSFetcher(),
        sessionCacheTimeToLive: TimeInterval = SessionCache.defaultTimeToLive, sessionHintTimeToLive: TimeInterval = 0
    ) {
        self.services = services
        sessionCache = SessionCache(timeToLive: sessionCacheTimeToLive, hintTimeToLive: sessionHintTimeToLive)
        self.passwords = passwords
        throttle = LoginThrottle(store: services.loginThrottle, now: services.now)
        creationLimit = AccountCreationLimit(store: services.loginThrottle, now: services.now)
        identityVerifiers = identityProviders.mapValues { IDTokenVerifier(provider: $0, fetcher: jwksFetcher, now: services.now) }
    }

    /// Counted per client address (`AccountCreationLimit`: 429 with Retry-After past it). The password is hashed
    /// before the email is looked up, so a taken email is answered after the same bcrypt work as a free one: the
    /// time of the answer does not tell which emails have accounts (the 409 does, as a sign-up form must).
    func register(email: String, password: String, kind: AccountSession.Kind, clientAddress: String? = nil) async throws -> SignedIn {
        let email = try Self.validatedNewAccount(email: email, password: password)
        try await creationLimit.take(.account, clientAddress: clientAddress)
        let hash = try await passwords.hash(password)
        if try await services.users.user(email: email) != nil { throw AccountRefusal.emailTaken }
        let user: User
        do {
            user = try await services.accounts.createAccount(id: UUID(), email: email, displayName: "", passwordHash: hash)
        } catch StoreError.conflict {
            throw AccountRefusal.emailTaken
        }
        var signedIn = try await startSession(for: user, kind: kind)
        signedIn.deviceToken = TrustedDevice.issue(email: email, passwordHash: hash)
        return signedIn
    }

    /// The same answer, after the same bcrypt work, for an unknown email and a wrong password; 429 with Retry-After
    /// while the email or the client address is throttled (`LoginThrottle`). Every sign-in starts a new session
    /// with a new token.
    func login(
        email: String, password: String, kind: AccountSession.Kind, clientAddress: String?, deviceToken: String? = nil
    ) async throws -> SignedIn {
        let checked = try await checkedPassword(email: email, password: password, clientAddress: clientAddress, deviceToken: deviceToken)
        var signedIn = try await startSession(for: checked.user, kind: kind)
        signedIn.deviceToken = checked.deviceToken
        return signedIn
    }

    /// The account this email and password open, under the throttle; `.invalidCredentials` otherwise. Both the
    /// unknown-email and the wrong-password paths run one bcrypt verify, so neither status, body nor time tells
    /// them apart.
    func checkPassword(email: String, password: String, clientAddress: String?, deviceToken: String? = nil) async throws -> User {
        try await checkedPassword(email: email, password: password, clientAddress: clientAddress, deviceToken: deviceToken).user
    }

    /// `checkPassword`, with a device token for the device to keep (a new one, or the one it presented).
    /// The attempt's slot in the throttle is taken before the bcrypt check, in one store transaction
    /// (`LoginThrottle.take`); a device presenting this account's device token is counted apart.
    func checkedPassword(
        email: String, password: String, clientAddress: String?, deviceToken: String?
    ) async throws -> (user: User, deviceToken: String) {
        let errors = AccountInput.signInErrors(email: email, password: password)
        if !errors.isEmpty { throw Self.invalid(errors) }
        guard let email = AccountInput.normalizedEmail(email) else { throw Self.invalid([.email: AccountInput.Message.email]) }
        let credentials = try await services.accounts.credentials(email: email)
        let trusted = deviceToken.flatMap { token in
            credentials.flatMap { TrustedDevice.isValid(token, email: email, passwordHash: $0.passwordHash) ? token : nil }
        }
        let keys = LoginThrottle.keys(email: email, clientAddress: clientAddress, trustedDevice: trusted)
        try await throttle.take(keys)
        let verified: User?
        if let credentials {
            verified = try await passwords.verify(password, hash: credentials.passwordHash) ? credentials.user : nil
        } else {
            try await passwords.verifyWithoutAccount(password)
            verified = nil
        }
        guard let verified, let credentials else { throw AccountRefusal.invalidCredentials }
        try await throttle.succeeded(keys)
        return (verified, trusted ?? TrustedDevice.issue(email: email, passwordHash: credentials.passwordHash))
    }

    /// A signed-in user with a password replaces it: the current one is checked (under the same throttle as
    /// signing in), the new one must meet the policy and differ. Every session of the user ends, this one too, and
    /// a new one starts: whoever held an old token is out at once (several servers share no session cache).
    func changePassword(
        userId: UUID, currentPassword: String, newPassword: String, kind: AccountSession.Kind, clientAddress: String?
    ) async throws -> SignedIn {
        guard let user = try await services.users.user(id: userId) else { throw AccountRefusal.notSignedIn }
        guard let email = user.email, let currentHash = try await services.passwords.passwordHash(userId: userId) else {
            throw AccountRefusal.noPassword
        }
        var errors: [String: String] = [:]
        if currentPassword.isEmpty { errors["currentPassword"] = Strings.current("auth.currentPasswordMissing") }
        if let message = PasswordPolicy.newPasswordError(newPassword, email: email) {
            errors["newPassword"] = message
        } else if !currentPassword.isEmpty,
                  PasswordHasher.bcryptInput(currentPassword) == PasswordHasher.bcryptInput(newPassword) {
            errors["newPassword"] = Self.samePassword
        }
        if !errors.isEmpty {
            throw InvalidInput(errors, message: errors["currentPassword"] ?? errors["newPassword"])
        }
        let keys = LoginThrottle.keys(email: email, clientAddress: clientAddress)
        try await throttle.take(keys)
        guard try await passwords.verify(currentPassword, hash: currentHash) else {
            throw AccountRefusal.currentPasswordIncorrect
        }
        try await throttle.succeeded(keys)
        let hash = try await passwords.hash(newPassword)
        do {
            try await services.passwords.replacePassword(userId: userId, passwordHash: hash)
        } catch StoreError.notFound {
            throw AccountRefusal.noPassword
        }
        sessionCache.forget(userId: userId)
        return try await startSession(for: user, kind: kind)
    }

    /// "Sign out everywhere": every session of the user ends at once.
    func logoutEverywhere(userId: UUID) async throws {
        try await services.accounts.deleteSessions(userId: userId)
        sessionCache.forget(userId: userId)
    }

    /// "Continue without an account", counted per client address (`AccountCreationLimit`).
    func startGuest(kind: AccountSession.Kind, clientAddress: String? = nil) async throws -> SignedIn {
        try await creationLimit.take(.guest, clientAddress: clientAddress)
        let user = try await services.accounts.createGuest(id: UUID(), displayName: "")
        return try await startSession(for: user, kind: kind)
    }

    /// A guest adds an email and password and keeps its id, so every row it logged stays its own. The guest's
    /// sessions end and a new one starts: a token handed out before the account had a password must not go on to
    /// open it.
    func upgradeGuest(userId: UUID, email: String, password: String, kind: AccountSession.Kind, logger: Logger) async throws -> SignedIn {
        let email = try Self.validatedNewAccount(email: email, password: password)
        guard let current = try await services.users.user(id: userId) else { throw AccountRefusal.notSignedIn }
        guard current.email == nil else { throw AccountRefusal.notAGuest }
        // Hashed first, as in `register`: a taken email answers after the same work as a free one.
        let hash = try await passwords.hash(password)
        if try await services.users.user(email: email) != nil { throw AccountRefusal.emailTaken }
        let user: User
        do {
            user = try await services.accounts.upgradeGuest(userId: userId, email: email, passwordHash: hash)
        } catch StoreError.conflict {
            // Something changed meanwhile: the email was taken, or the guest was upgraded by another request.
            let now = try await services.users.user(id: userId)
            throw now?.email == nil ? AccountRefusal.emailTaken : AccountRefusal.notAGuest
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

    /// Who a presented token signs in, as the middleware needs it.
    struct SignedInRequest: Sendable {
        var userId: UUID
        /// Read just now with the session (PostgreSQL), never from the session cache: a remembered version could be
        /// older than another process's write.
        var dataVersion: Int64?
        /// The account's chosen language; nil to follow the browser.
        var language: Language?
        /// The account's chosen theme; nil for Auto.
        var appearance: Appearance? = nil
        /// What the lookup saw of the profile (PostgreSQL), like `dataVersion` never from the session cache.
        var profileSeen: ProfileSeen? = nil
    }

    /// The user a presented token signs in, or nil: unknown, expired (then forgotten), or presented another way
    /// than it was handed out (a web session's cookie value as a bearer token, or the reverse). A token seen in the
    /// last few seconds is answered from `sessionCache` (see there for what that allows), language included: a new
    /// choice forgets the user's entries.
    func signedInRequest(presenting token: String, as kind: AccountSession.Kind) async throws -> SignedInRequest? {
        let tokenHash = SessionToken.hash(token)
        let now = services.now()
        if let cached = sessionCache.entry(tokenHash: tokenHash, at: now) {
            return cached.kind == kind ? SignedInRequest(userId: cached.userId, dataVersion: nil, language: cached.language, appearance: cached.appearance) : nil
        }
        guard let session = try await services.accounts.session(tokenHash: tokenHash), session.kind == kind else {
            // Ended on another process (PostgreSQL): its hint goes too, so the next request reads the store at once.
            sessionCache.forget(tokenHash: tokenHash)
            return nil
        }
        if session.isExpired(at: now) {
            sessionCache.forget(tokenHash: tokenHash)
            try await services.accounts.deleteSession(tokenHash: tokenHash)
            return nil
        }
        if now.timeIntervalSince(session.lastUsedAt) >= Self.touchInterval {
            try await services.accounts.touchSession(tokenHash: tokenHash, lastUsedAt: now)
        }
        sessionCache.remember(tokenHash: tokenHash, session: session, at: now)
        return SignedInRequest(
            userId: session.userId, dataVersion: session.dataVersion, language: session.language,
            appearance: session.appearance, profileSeen: session.profileSeen)
    }

    /// A session for this request's write to check itself (`DeferredSessionCheck`), from what the last lookup of the
    /// token in this process read (`SessionCache.hint`); nil when there is no such hint, so the request reads the
    /// session first as any other does.
    func deferredCheck(presenting token: String, as kind: AccountSession.Kind) -> DeferredSessionCheck? {
        let tokenHash = SessionToken.hash(token)
        let now = services.now()
        guard let hint = sessionCache.hint(tokenHash: tokenHash, at: now), hint.kind == kind, let profileSeen = hint.profileSeen else {
            return nil
        }
        return DeferredSessionCheck(
            tokenHash: tokenHash, kind: kind, userId: hint.userId, language: hint.language, appearance: hint.appearance,
            profileSeen: profileSeen, now: now)
    }

    func user(id: UUID) async throws -> User? {
        try await services.users.user(id: id)
    }

    func startSession(for user: User, kind: AccountSession.Kind) async throws -> SignedIn {
        let token = SessionToken.generate()
        let now = services.now()
        try await services.accounts.createSession(AccountSession(
            tokenHash: SessionToken.hash(token), userId: user.id, kind: kind,
            createdAt: now, expiresAt: now.addingTimeInterval(Self.sessionLifetime), lastUsedAt: now
        ))
        return SignedIn(token: token, user: user)
    }

    /// The normalized email, or `InvalidInput` naming every field that is wrong.
    /// The password must also meet `PasswordPolicy` (not a common password, not the email).
    private static func validatedNewAccount(email: String, password: String) throws(InvalidInput) -> String {
        var errors = AccountInput.signUpErrors(email: email, password: password)
        let normalized = AccountInput.normalizedEmail(email)
        if errors[.password] == nil, let message = PasswordPolicy.newPasswordError(password, email: normalized) {
            errors[.password] = message
        }
        guard errors.isEmpty, let normalized else { throw invalid(errors) }
        return normalized
    }

    /// The email's message leads when both fields are wrong.
    static func invalid(_ errors: [AccountInput.Field: String]) -> InvalidInput {
        let first = AccountInput.Field.allCases.compactMap { errors[$0] }.first ?? AccountInput.Message.email
        return InvalidInput(Dictionary(uniqueKeysWithValues: errors.map { ($0.key.rawValue, $0.value) }), message: first)
    }
}
