import Foundation
import Testing
import WDietStore
import WDietTestSupport

/// Password-reset tokens (`PasswordCredentialStore`'s reset part) on SQLite and PostgreSQL: stored as hashes, the
/// newest only, good until they expire, used once, and a use ends every session.
@Suite("Password reset conformance")
struct PasswordResetConformanceTests {
    static let start = Fixtures.utc("2026-03-01T09:00:00Z")
    static let first = String(repeating: "a", count: 64)
    static let second = String(repeating: "b", count: 64)

    @Test("the newest token opens its user until it expires; a use sets the password, ends sessions, and works once", arguments: AccountBackendKind.allCases)
    func resetOnce(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            let ana = try await b.accounts.createAccount(id: UUID(), email: "ana@example.com", displayName: "", passwordHash: "old-hash")
            try await b.accounts.createSession(AccountSession(
                tokenHash: String(repeating: "c", count: 64), userId: ana.id, kind: .web,
                createdAt: Self.start, expiresAt: Self.start + 86_400, lastUsedAt: Self.start))
            let store = b.passwords
            try await store.saveResetToken(tokenHash: Self.first, userId: ana.id, createdAt: Self.start, expiresAt: Self.start + 1_800)
            #expect(try await store.resetTokenUser(tokenHash: Self.first, now: Self.start + 1_799) == ana.id)
            #expect(try await store.resetTokenUser(tokenHash: Self.first, now: Self.start + 1_800) == nil)
            // Asking again replaces the first token.
            try await store.saveResetToken(tokenHash: Self.second, userId: ana.id, createdAt: Self.start + 60, expiresAt: Self.start + 1_860)
            #expect(try await store.resetTokenUser(tokenHash: Self.first, now: Self.start + 61) == nil)
            #expect(try await store.resetPassword(tokenHash: Self.first, passwordHash: "x", now: Self.start + 61) == nil)
            #expect(try await store.passwordHash(userId: ana.id) == "old-hash")

            #expect(try await store.resetPassword(tokenHash: Self.second, passwordHash: "new-hash", now: Self.start + 120) == ana.id)
            #expect(try await store.passwordHash(userId: ana.id) == "new-hash")
            #expect(try await b.count(.sessions) == 0)
            // Once only.
            #expect(try await store.resetPassword(tokenHash: Self.second, passwordHash: "other", now: Self.start + 121) == nil)
            #expect(try await store.passwordHash(userId: ana.id) == "new-hash")
        }
    }

    @Test("an expired token changes nothing; two uses at once: one wins", arguments: AccountBackendKind.allCases)
    func expiredAndRacing(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            let ana = try await b.accounts.createAccount(id: UUID(), email: "ana@example.com", displayName: "", passwordHash: "old-hash")
            let store = b.passwords
            try await store.saveResetToken(tokenHash: Self.first, userId: ana.id, createdAt: Self.start, expiresAt: Self.start + 1_800)
            #expect(try await store.resetPassword(tokenHash: Self.first, passwordHash: "late", now: Self.start + 1_800) == nil)
            #expect(try await store.passwordHash(userId: ana.id) == "old-hash")

            try await store.saveResetToken(tokenHash: Self.second, userId: ana.id, createdAt: Self.start, expiresAt: Self.start + 1_800)
            let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<8 {
                    group.addTask { try await store.resetPassword(tokenHash: Self.second, passwordHash: "hash-\(index)", now: Self.start + 10) != nil }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(wins == 1)
        }
    }
}
