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

    // MARK: Password recovery ("Forgot password?")

    /// Keeps a password-reset token's SHA-256 for the user until `expiresAt` (the token itself goes out by email,
    /// never into the store). The user's earlier tokens are forgotten, so only the newest link works; expired
    /// tokens of anyone are forgotten on the way.
    func saveResetToken(tokenHash: String, userId: UUID, createdAt: Date, expiresAt: Date) async throws

    /// The user a reset token opens at `now`: nil for an unknown, used or expired token, or a deleted user.
    func resetTokenUser(tokenHash: String, now: Date) async throws -> UUID?

    /// Uses a reset token once, in one transaction: when it opens a user at `now` (as `resetTokenUser`) and the
    /// user has a password, replaces its hash, forgets every reset token of the user and ends every session of the
    /// user, and answers the user's id. Nil otherwise, with nothing changed. Of two uses of one token at once, one
    /// succeeds.
    func resetPassword(tokenHash: String, passwordHash: String, now: Date) async throws -> UUID?
}
