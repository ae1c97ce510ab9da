import Foundation

/// The app lock's PIN of one user (issue 20 item 4, docs/challenge.md): kept on the server only, as a slow hash (the
/// server's bcrypt), never in a synced row — a pulled hash of a 4–6 digit PIN would be guessed offline in hours.
public struct ChallengeAppLockState: Hashable, Sendable {
    public var pinHash: String
    /// Wrong PINs in a row since the last right one (5 end the session).
    public var failedAttempts: Int
    public var updatedAt: Date

    public init(pinHash: String, failedAttempts: Int, updatedAt: Date) {
        self.pinHash = pinHash
        self.failedAttempts = failedAttempts
        self.updatedAt = updatedAt
    }
}

/// Where the PIN hash lives, on each backend (`challengeAppLocks` / `challenge_app_locks`, gone with the user).
public protocol ChallengeAppLockStore: Sendable {
    func appLock(userId: UUID) async throws -> ChallengeAppLockState?
    /// Sets or replaces the PIN hash and clears the wrong attempts. An unknown user: `StoreError.notFound`.
    func setPin(userId: UUID, pinHash: String, now: Date) async throws
    /// Removes the PIN; false when there was none.
    @discardableResult
    func removePin(userId: UUID) async throws -> Bool
    /// Counts one wrong PIN, atomically (two at once count two); the count after it, 0 when there is no PIN.
    func recordFailure(userId: UUID) async throws -> Int
    /// A right PIN: the wrong attempts start again from 0.
    func resetFailures(userId: UUID) async throws
}
