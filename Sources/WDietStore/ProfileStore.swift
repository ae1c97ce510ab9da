import Foundation
import WDietCore

/// The one profile of each user.
public protocol ProfileStore: Sendable {
    func profile(userId: UUID) async throws -> StoredProfile?

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
