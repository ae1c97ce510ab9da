import Foundation

/// Sign in with Apple and Google: which user an identity provider's account opens. An identity is the pair
/// (issuer, subject) from a verified ID token, never an email address: emails change hands and providers let people
/// change them, the subject is the provider's stable id for the person.
public protocol ExternalIdentityStore: Sendable {
    /// The user this identity signs in; nil when it is not linked to anyone (or the user was deleted).
    func user(issuer: String, subject: String) async throws -> User?

    /// Creates a user without a password, linked to the identity. `email` (a provider-verified address, or nil) is
    /// stored as the user's email; one already taken is `.conflict`, as is an identity already linked.
    func createAccount(id: UUID, issuer: String, subject: String, email: String?) async throws -> User

    /// Links the identity to an existing user. Linking it again to the same user is no change; an identity linked to
    /// another user is `.conflict`; an unknown user is `.notFound`.
    func link(userId: UUID, issuer: String, subject: String, email: String?) async throws

    /// The identities linked to the user, oldest first.
    func identities(userId: UUID) async throws -> [ExternalIdentity]
}

public struct ExternalIdentity: Sendable, Hashable {
    public var issuer: String
    public var subject: String
    /// The address the provider gave when the identity was linked, if any (for the user's information only).
    public var email: String?
    public var linkedAt: Date

    public init(issuer: String, subject: String, email: String?, linkedAt: Date) {
        self.issuer = issuer
        self.subject = subject
        self.email = email
        self.linkedAt = linkedAt
    }
}
