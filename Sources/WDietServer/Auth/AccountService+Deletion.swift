import Foundation
import Logging
import WDietCore
import WDietStore

/// Erasing an account (GDPR Art. 17): the user proves it is them once more, then every row of the account goes in
/// one store transaction and every session ends at once.
extension AccountService {
    /// What a guest or an Apple/Google-only account types (sends) to confirm, having no password to prove.
    static let deleteConfirmation = "DELETE"

    /// An account with a password re-enters it: checked like a sign-in and under the same throttle (a wrong one
    /// counts against the email and the client address; refused while either is locked). An account without one sends
    /// `confirm: "DELETE"`. Then the account's rows, its sessions and its email's sign-in failures are deleted,
    /// and this process forgets the sessions at once (another process within `SessionCache.timeToLive`).
    func deleteAccount(userId: UUID, password: String?, confirm: String?, clientAddress: String?) async throws {
        guard let user = try await services.users.user(id: userId) else { throw AccountRefusal.notSignedIn }
        var throttleKeys: [String] = []
        if let email = user.email {
            throttleKeys.append(LoginThrottle.accountKey(email: email))
        }
        if let hash = try await services.passwords.passwordHash(userId: userId), let email = user.email {
            guard let password, !password.isEmpty else {
                throw InvalidInput(["password": AccountInput.Message.passwordMissing])
            }
            let keys = LoginThrottle.keys(email: email, clientAddress: clientAddress)
            try await throttle.take(keys)
            guard try await passwords.verify(password, hash: hash) else {
                throw AccountRefusal.deletePasswordIncorrect
            }
        } else {
            guard confirm == Self.deleteConfirmation else {
                throw InvalidInput(["confirm": Strings.current("auth.typeDeleteToConfirm")])
            }
        }
        try await services.userData.deleteAccount(userId: userId, loginThrottleKeys: throttleKeys)
        sessionCache.forget(userId: userId)
        // Photos and recordings (on PostgreSQL already gone with the rows; on SQLite in the media file beside the
        // main one). Should this fail or the process die first, the next start deletes them (docs/media.md).
        do {
            try await services.media.deleteAllMedia(userId: userId)
        } catch {
            Logger(label: "wdiet.media").error("media of a deleted account not deleted yet", metadata: ["error": "\(String(reflecting: error))"])
        }
    }
}
