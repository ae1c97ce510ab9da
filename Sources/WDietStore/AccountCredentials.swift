import Foundation

/// A user that can sign in with a password, and the bcrypt hash to check it against.
public struct AccountCredentials: Hashable, Sendable {
    public var user: User
    public var passwordHash: String

    public init(user: User, passwordHash: String) {
        self.user = user
        self.passwordHash = passwordHash
    }
}
