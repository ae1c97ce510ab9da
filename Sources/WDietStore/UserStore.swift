import Foundation

/// Accounts, as far as the coach needs them. Credentials (password hashes, Apple and Google subjects) belong to
/// the accounts work and live beside this, keyed by the same user id.
public protocol UserStore: Sendable {
    /// Creates an account. An id or email already taken (emails compare case-insensitively) is `.conflict`.
    func createUser(id: UUID, email: String?, displayName: String) async throws -> User
    func user(id: UUID) async throws -> User?
    /// Case-insensitive.
    func user(email: String) async throws -> User?
}
