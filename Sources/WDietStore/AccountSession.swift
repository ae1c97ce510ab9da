import Foundation

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

    public init(tokenHash: String, userId: UUID, kind: Kind, createdAt: Date, expiresAt: Date, lastUsedAt: Date) {
        self.tokenHash = tokenHash
        self.userId = userId
        self.kind = kind
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.lastUsedAt = lastUsedAt
    }

    public func isExpired(at now: Date) -> Bool { now >= expiresAt }
}
