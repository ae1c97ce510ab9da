import Foundation
import WDietCore

/// A signed-in session. The token itself is handed to the client once and never stored; `tokenHash` is the
/// lowercase hex SHA-256 of it.
public struct AccountSession: Hashable, Sendable {
    /// How the client holds the token: a bearer token (native clients) or a cookie (the web app).
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case api, web
    }

    public var tokenHash: String
    public var userId: UUID
    public var kind: Kind
    public var createdAt: Date
    public var expiresAt: Date
    public var lastUsedAt: Date
    /// The user's change counter as the lookup read it, when the store reads it together with the session
    /// (PostgreSQL's `users.last_version`); nil otherwise. It lets a per-process cache of the user's data check
    /// that no process has written since, without another round trip.
    public var dataVersion: Int64?
    /// The language the user chose in Settings, read with the session (`users.language`), so that a signed-in
    /// request learns it without another round trip; nil when they follow their browser's `Accept-Language`.
    /// Like the rest of the lookup it says nothing when a store builds a session to create it.
    public var language: Language?
    /// The theme the user chose in Settings, read with the session (`users.appearance`) so that every page is
    /// written in it from the first paint; nil for Auto (the system's).
    public var appearance: Appearance?
    /// The user's live profile as the lookup saw it, when the store reads it together with the session
    /// (PostgreSQL); nil when the store did not look. `ProfileStore.profile(userId:seen:)` then answers from a
    /// per-process copy without another round trip.
    public var profileSeen: ProfileSeen?

    public init(
        tokenHash: String, userId: UUID, kind: Kind, createdAt: Date, expiresAt: Date, lastUsedAt: Date, dataVersion: Int64? = nil,
        language: Language? = nil, appearance: Appearance? = nil, profileSeen: ProfileSeen? = nil
    ) {
        self.tokenHash = tokenHash
        self.userId = userId
        self.kind = kind
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.lastUsedAt = lastUsedAt
        self.dataVersion = dataVersion
        self.language = language
        self.appearance = appearance
        self.profileSeen = profileSeen
    }

    public func isExpired(at now: Date) -> Bool { now >= expiresAt }
}
