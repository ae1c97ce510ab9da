import Foundation
import WDietStore

/// API sessions made without a sign-in, for `wdiet seed`: the load benchmark needs bearer tokens for many users,
/// and they must be the tokens the server would have handed out (same shape, same SHA-256 in the store, same
/// lifetime).
public enum SeededSessions {
    /// Starts an API session for `userId` and returns its token (the store keeps only the hash).
    public static func startAPISession(for userId: UUID, services: AppServices) async throws -> String {
        let token = SessionToken.generate()
        let now = services.now()
        try await services.accounts.createSession(AccountSession(
            tokenHash: SessionToken.hash(token), userId: userId, kind: .api,
            createdAt: now, expiresAt: now.addingTimeInterval(AccountService.sessionLifetime), lastUsedAt: now
        ))
        return token
    }
}
