import Foundation
import Logging
import WDietCore
import WDietStore

/// Sign in with Apple and Google. Accounts are found by (issuer, subject), never by email: a verified token whose
/// email belongs to an existing account does not open it (`AccountRefusal.linkRequired`); the identity is linked to
/// that account only once its password is proven (`link`).
extension AccountService {
    /// The verified identity in a token; `InvalidInput` without a token or nonce, `AccountRefusal` for a provider
    /// that is not set up, a token that does not verify, or keys that cannot be fetched.
    func verifiedIdentity(_ name: IdentityProvider.Name, idToken: String, nonce: String, logger: Logger) async throws -> IDTokenVerifier.Identity {
        guard let verifier = identityVerifiers[name] else { throw AccountRefusal.providerNotConfigured(name) }
        var errors: [String: String] = [:]
        if idToken.isEmpty { errors["idToken"] = Strings.current("auth.idTokenMissing") }
        if nonce.isEmpty { errors["nonce"] = Strings.current("auth.nonceMissing") }
        if !errors.isEmpty { throw InvalidInput(errors, message: errors["idToken"] ?? errors["nonce"]) }
        do {
            return try await verifier.verify(idToken, nonce: nonce)
        } catch let rejection as IDTokenVerifier.Rejection {
            logger.info("ID token refused", metadata: ["provider": "\(name.rawValue)", "reason": "\(rejection)"])
            throw AccountRefusal.invalidIDToken(name)
        } catch is JWKSCache.Unavailable {
            logger.warning("JWKS unavailable", metadata: ["provider": "\(name.rawValue)", "url": "\(verifier.provider.jwksURL)"])
            throw AccountRefusal.providerUnavailable(name)
        }
    }

    /// Signs in the account linked to the token's identity, or creates one (`created`). A verified email that an
    /// account already has is refused (`.linkRequired`).
    func signIn(with name: IdentityProvider.Name, idToken: String, nonce: String, kind: AccountSession.Kind, logger: Logger) async throws -> SignedIn {
        let identity = try await verifiedIdentity(name, idToken: idToken, nonce: nonce, logger: logger)
        if let user = try await services.identities.user(issuer: identity.issuer, subject: identity.subject) {
            return try await startProviderSession(for: user, kind: kind)
        }
        if let email = identity.verifiedEmail, try await services.users.user(email: email) != nil {
            throw AccountRefusal.linkRequired(name)
        }
        let user: User
        do {
            user = try await services.identities.createAccount(
                id: UUID(), issuer: identity.issuer, subject: identity.subject, email: identity.verifiedEmail
            )
        } catch StoreError.conflict {
            // Two first sign-ins racing: the other one made the account. Or the email was taken meanwhile.
            if let user = try await services.identities.user(issuer: identity.issuer, subject: identity.subject) {
                return try await startProviderSession(for: user, kind: kind)
            }
            throw AccountRefusal.linkRequired(name)
        }
        var signedIn = try await startProviderSession(for: user, kind: kind)
        signedIn.created = true
        return signedIn
    }

    /// Connects the token's identity to an existing account, once the account's owner is proven: by its email and
    /// password, or by the session (`signedInUserId`) plus the account's password when it has one. Signs in (a new
    /// session) either way.
    func link(
        _ name: IdentityProvider.Name, idToken: String, nonce: String, email: String?, password: String?,
        signedInUserId: UUID?, kind: AccountSession.Kind, clientAddress: String?, logger: Logger
    ) async throws -> SignedIn {
        let identity = try await verifiedIdentity(name, idToken: idToken, nonce: nonce, logger: logger)
        let user: User
        if let signedInUserId {
            guard let current = try await services.users.user(id: signedInUserId) else { throw AccountRefusal.notSignedIn }
            if let accountEmail = current.email, try await services.passwords.passwordHash(userId: signedInUserId) != nil {
                // Re-authentication: a session alone (perhaps a stolen one) must not add a way into the account.
                user = try await checkPassword(email: accountEmail, password: password ?? "", clientAddress: clientAddress)
            } else {
                user = current
            }
        } else {
            user = try await checkPassword(email: email ?? "", password: password ?? "", clientAddress: clientAddress)
        }
        do {
            try await services.identities.link(userId: user.id, issuer: identity.issuer, subject: identity.subject, email: identity.verifiedEmail)
        } catch StoreError.conflict {
            throw AccountRefusal.identityLinked
        }
        return try await startProviderSession(for: user, kind: kind)
    }

    private func startProviderSession(for user: User, kind: AccountSession.Kind) async throws -> SignedIn {
        var signedIn = try await startSession(for: user, kind: kind)
        signedIn.signsInWithProvider = true
        return signedIn
    }
}
