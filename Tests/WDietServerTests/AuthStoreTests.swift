import Foundation
import Testing
import WDietSQLite
import WDietStore
import WDietTestSupport

/// The sign-in stores on SQLite, as the PostgreSQL implementations must behave too.
@Suite("Auth: identity and password stores")
struct AuthStoreTests {
    static let now = Fixtures.utc("2026-03-01T09:00:00Z")

    @Test("an identity opens one user; linking it elsewhere is a conflict, linking it again is no change")
    func identities() async throws {
        let database = try AppDatabase.inMemory()
        let store = SQLiteExternalIdentityStore(database: database, now: { Self.now })
        let accounts = SQLiteAccountStore(database: database, now: { Self.now })
        let apple = "https://appleid.apple.com"

        let created = try await store.createAccount(id: UUID(), issuer: apple, subject: "s1", email: "ana@example.com")
        #expect(try await store.user(issuer: apple, subject: "s1")?.id == created.id)
        #expect(try await store.user(issuer: "https://accounts.google.com", subject: "s1") == nil)
        await #expect(throws: StoreError.self) {
            _ = try await store.createAccount(id: UUID(), issuer: apple, subject: "s1", email: nil)
        }
        // The email is a user's like any other: taken means taken.
        await #expect(throws: StoreError.self) {
            _ = try await store.createAccount(id: UUID(), issuer: apple, subject: "s2", email: "ana@example.com")
        }

        let ben = try await accounts.createAccount(id: UUID(), email: "ben@example.com", displayName: "", passwordHash: "hash")
        try await store.link(userId: ben.id, issuer: apple, subject: "s3", email: nil)
        try await store.link(userId: ben.id, issuer: apple, subject: "s3", email: nil)
        await #expect(throws: StoreError.self) { try await store.link(userId: created.id, issuer: apple, subject: "s3", email: nil) }
        await #expect(throws: StoreError.self) { try await store.link(userId: UUID(), issuer: apple, subject: "s4", email: nil) }
        #expect(try await store.identities(userId: ben.id) == [ExternalIdentity(issuer: apple, subject: "s3", email: nil, linkedAt: Self.now)])
    }

    @Test("replacing a password ends every session of that user in the same transaction")
    func replacePassword() async throws {
        let database = try AppDatabase.inMemory()
        let passwords = SQLitePasswordCredentialStore(database: database, now: { Self.now })
        let accounts = SQLiteAccountStore(database: database, now: { Self.now })
        let ana = try await accounts.createAccount(id: UUID(), email: "ana@example.com", displayName: "", passwordHash: "old")
        let ben = try await accounts.createAccount(id: UUID(), email: "ben@example.com", displayName: "", passwordHash: "bens")
        func session(_ user: User, _ index: Int) -> AccountSession {
            AccountSession(
                tokenHash: String(repeating: "\(index)", count: 64), userId: user.id, kind: .api,
                createdAt: Self.now, expiresAt: Self.now.addingTimeInterval(3_600), lastUsedAt: Self.now
            )
        }
        try await accounts.createSession(session(ana, 1))
        try await accounts.createSession(session(ana, 2))
        try await accounts.createSession(session(ben, 3))

        #expect(try await passwords.passwordHash(userId: ana.id) == "old")
        #expect(try await passwords.replacePassword(userId: ana.id, passwordHash: "new") == 2)
        #expect(try await passwords.passwordHash(userId: ana.id) == "new")
        #expect(try await accounts.session(tokenHash: String(repeating: "1", count: 64)) == nil)
        #expect(try await accounts.session(tokenHash: String(repeating: "3", count: 64)) != nil)

        let guest = try await accounts.createGuest(id: UUID(), displayName: "")
        #expect(try await passwords.passwordHash(userId: guest.id) == nil)
        await #expect(throws: StoreError.self) { try await passwords.replacePassword(userId: guest.id, passwordHash: "x") }
    }
}
