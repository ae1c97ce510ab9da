import Foundation

/// An account as the store keeps it. A guest has no email; attaching an account later fills it in
/// without changing the id, so everything the guest logged stays theirs.
public struct User: Hashable, Codable, Sendable, Identifiable {
    public var id: UUID
    public var email: String?
    public var displayName: String
    public var createdAt: Date
    public var updatedAt: Date
    public var version: Int64

    public init(id: UUID, email: String?, displayName: String, createdAt: Date, updatedAt: Date, version: Int64) {
        self.id = id
        self.email = email
        self.displayName = displayName
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.version = version
    }
}
