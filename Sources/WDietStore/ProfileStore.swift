import Foundation
import WDietCore

/// The one profile of each user.
public protocol ProfileStore: Sendable {
    func profile(userId: UUID) async throws -> StoredProfile?

    /// The same answer as `profile(userId:)`, given what the request's session lookup saw of the profile (see
    /// `AccountSession.profileSeen`): a store that keeps profiles per process answers from its copy when the
    /// version matches, and "no profile" without asking. Nil reads as `profile(userId:)` does.
    func profile(userId: UUID, seen: ProfileSeen?) async throws -> StoredProfile?

    /// Creates or replaces the user's profile and assigns it a new version.
    ///
    /// A change of the targets' inputs waits for the user's next local midnight (`PlanChange.afterSaving`, with
    /// the store's clock): the returned `planChange` says so. A first profile applies at once.
    ///
    /// `expectedVersion` is the version the edit started from: when the stored profile has moved on (another
    /// device saved in between) the save is refused with `.conflict`, so the client can offer "keep mine / use
    /// the server's" (001) instead of losing either. Pass nil to write unconditionally (onboarding, "keep mine").
    /// An unknown user is `.notFound`; an out-of-range value is `.invalid` with the profile form's message.
    func saveProfile(_ profile: Profile, userId: UUID, expectedVersion: Int64?) async throws -> StoredProfile
}

/// What a session lookup saw of the user's live profile, in the same statement.
public enum ProfileSeen: Hashable, Sendable {
    /// The user has no live profile (none yet, or deleted).
    case none
    /// The live profile's version.
    case version(Int64)
}

extension ProfileStore {
    /// Stores that read their profiles cheaply anyway (SQLite keeps them in the process) need no hint.
    public func profile(userId: UUID, seen: ProfileSeen?) async throws -> StoredProfile? {
        try await profile(userId: userId)
    }
}
