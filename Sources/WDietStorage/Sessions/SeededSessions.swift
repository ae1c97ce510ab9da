import Foundation
import WDietStore

/// API sessions made without a sign-in, for `wdiet-dev seed`: the load benchmark needs bearer tokens for many
/// users, and they must be the tokens the server would have handed out (same shape, same SHA-256 in the store, same
/// lifetime).
public enum SeededSessions {
    /// As long as a session the server starts.
    public static let lifetime = SessionSecret.lifetime

    /// Starts an API session for `userId` and returns its token (the store keeps only the hash).
    public static func startAPISession(for userId: UUID, accounts: any AccountStore, now: Date) async throws -> String {
        let token = SessionSecret.generate()
        try await accounts.createSession(AccountSession(
            tokenHash: SessionSecret.hash(token), userId: userId, kind: .api,
            createdAt: now, expiresAt: now.addingTimeInterval(lifetime), lastUsedAt: now
        ))
        return token
    }
}
