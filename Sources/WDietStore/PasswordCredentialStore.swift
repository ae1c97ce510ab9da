import Foundation

/// A signed-in user's own password: read it to check the current one, replace it with a new hash. (Sign-in by email
/// goes through `AccountStore.credentials(email:)`.)
public protocol PasswordCredentialStore: Sendable {
    /// The user's password hash; nil when the user has none (a guest, or an account made with Apple or Google).
    func passwordHash(userId: UUID) async throws -> String?

    /// Replaces the user's password hash and ends every one of the user's sessions, in one transaction: a stolen
    /// session must not outlive the password change that was meant to lock its holder out. `.notFound` when the user
    /// has no password to replace. Returns how many sessions ended.
    @discardableResult
    func replacePassword(userId: UUID, passwordHash: String) async throws -> Int
}
