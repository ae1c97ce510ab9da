import Foundation
import WDietCore

/// A profile with the bookkeeping the store adds. `version` is what a later save passes back as
/// `expectedVersion`, so that an edit made against a stale copy is refused instead of silently lost.
public struct StoredProfile: Hashable, Sendable {
    public var profile: Profile
    public var userId: UUID
    public var version: Int64
    public var createdAt: Date
    public var updatedAt: Date

    public init(profile: Profile, userId: UUID, version: Int64, createdAt: Date, updatedAt: Date) {
        self.profile = profile
        self.userId = userId
        self.version = version
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
