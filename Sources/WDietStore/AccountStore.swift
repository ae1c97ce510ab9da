import Foundation
import WDietCore

/// Accounts and their sign-in sessions: the users that sign in with an email and password, the guests that
/// "continue without an account", and the sessions both hold. Keyed by the `users` id, so a guest that adds an
/// email and password keeps the id and with it every row it logged.
///
/// Password hashes arrive hashed (the server runs bcrypt), and sessions are known only by the SHA-256 of their
/// token: nothing a store keeps lets anyone sign in.
public protocol AccountStore: Sendable {
    /// Creates a user with an email and a password hash. An email already taken (compared case-insensitively,
    /// by whoever holds it) is `.conflict`.
    func createAccount(id: UUID, email: String, displayName: String, passwordHash: String) async throws -> User

    /// Creates a guest: a user without an email or password.
    func createGuest(id: UUID, displayName: String) async throws -> User

    /// Gives a guest an email and password; the user keeps its id. Refused: an unknown user (`.notFound`), a user
    /// that already has an email (`.conflict`), an email already taken (`.conflict`).
    func upgradeGuest(userId: UUID, email: String, passwordHash: String) async throws -> User

    /// The user with this email (case-insensitive) and its password hash; nil when there is none, or the user has
    /// no password.
    func credentials(email: String) async throws -> AccountCredentials?

    /// Stores a new session. Also forgets the user's sessions that have expired by the new one's creation.
    func createSession(_ session: AccountSession) async throws

    /// The session with this token hash, expired or not, with its user's `language` and `appearance`; nil when there is none or its
    /// user is gone.
    func session(tokenHash: String) async throws -> AccountSession?

    /// Records that the session was used at `lastUsedAt`.
    func touchSession(tokenHash: String, lastUsedAt: Date) async throws

    /// Ends one session; false when there was none.
    @discardableResult
    func deleteSession(tokenHash: String) async throws -> Bool

    /// Ends every session of the user; returns how many there were.
    @discardableResult
    func deleteSessions(userId: UUID) async throws -> Int

    /// The language the user chose for the app; nil when they follow their browser (and for an unknown user).
    func language(userId: UUID) async throws -> Language?

    /// Sets the user's language, or with nil clears it (back to the browser's). An unknown or deleted user is
    /// `.notFound`. Not synced data: it changes no version.
    func setLanguage(_ language: Language?, userId: UUID) async throws

    /// The theme the user chose; nil for Auto (and for an unknown user).
    func appearance(userId: UUID) async throws -> Appearance?

    /// Sets the user's theme, or with nil goes back to Auto. An unknown or deleted user is `.notFound`. Not synced
    /// data: it changes no version.
    func setAppearance(_ appearance: Appearance?, userId: UUID) async throws
}
