import Foundation
import Testing
import WDietStore
import WDietTestSupport

/// `ExternalIdentityStore` and `PasswordCredentialStore` on SQLite and PostgreSQL.
@Suite("Sign-in store conformance: identities and passwords")
struct SignInStoreConformanceTests {
    static let apple = "https://appleid.apple.com"
    static let google = "https://accounts.google.com"

    @Test(arguments: AccountBackendKind.allCases)
    func anIdentityOpensOneUser(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            let id = UUID()
            let created = try await b.identities.createAccount(id: id, issuer: Self.apple, subject: "s1", email: "ana@example.com")
            #expect(created == User(
                id: id, email: "ana@example.com", displayName: "", createdAt: b.clock.now, updatedAt: b.clock.now,
                version: created.version))
            #expect(try await b.identities.user(issuer: Self.apple, subject: "s1") == created)
            #expect(try await b.identities.user(issuer: Self.google, subject: "s1") == nil)
            // An account made with Apple has no password to sign in with.
            #expect(try await b.accounts.credentials(email: "ana@example.com") == nil)
            #expect(try await b.passwords.passwordHash(userId: id) == nil)

            await #expect(throws: StoreError.conflict("This sign-in is already linked to another account")) {
                _ = try await b.identities.createAccount(id: UUID(), issuer: Self.apple, subject: "s1", email: nil)
            }
            // The email is a user's like any other: taken means taken, whatever its case.
            await #expect(throws: StoreError.conflict("An account with this email already exists")) {
                _ = try await b.identities.createAccount(id: UUID(), issuer: Self.apple, subject: "s2", email: "ANA@example.com")
            }
            await #expect(throws: StoreError.conflict("This account already exists")) {
                _ = try await b.identities.createAccount(id: id, issuer: Self.apple, subject: "s2", email: nil)
            }
            #expect(try await b.identities.user(issuer: Self.apple, subject: "s2") == nil)
            // Without an email: a user without one.
            let anonymous = try await b.identities.createAccount(id: UUID(), issuer: Self.google, subject: "g1", email: nil)
            #expect(anonymous.email == nil)
            #expect(try await b.count(.identities) == 2)
        }
    }

    @Test(arguments: AccountBackendKind.allCases)
    func linkingIsOncePerIdentity(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            let ana = try await b.identities.createAccount(id: UUID(), issuer: Self.apple, subject: "s1", email: nil)
            let ben = try await b.accounts.createAccount(id: UUID(), email: "ben@example.com", displayName: "", passwordHash: "hash")
            let linkedAt = b.clock.now
            try await b.identities.link(userId: ben.id, issuer: Self.google, subject: "g3", email: "ben@gmail.com")
            b.clock.advance(seconds: 60)
            try await b.identities.link(userId: ben.id, issuer: Self.google, subject: "g3", email: "other@gmail.com")
            try await b.identities.link(userId: ben.id, issuer: Self.apple, subject: "s3", email: nil)
            await #expect(throws: StoreError.conflict("This sign-in is already linked to another account")) {
                try await b.identities.link(userId: ana.id, issuer: Self.google, subject: "g3", email: nil)
            }
            await #expect(throws: StoreError.notFound("User not found")) {
                try await b.identities.link(userId: UUID(), issuer: Self.apple, subject: "s4", email: nil)
            }
            // Oldest first; linking again changed nothing.
            #expect(try await b.identities.identities(userId: ben.id) == [
                ExternalIdentity(issuer: Self.google, subject: "g3", email: "ben@gmail.com", linkedAt: linkedAt),
                ExternalIdentity(issuer: Self.apple, subject: "s3", email: nil, linkedAt: linkedAt + 60),
            ])
            #expect(try await b.identities.user(issuer: Self.google, subject: "g3") == ben)
            #expect(try await b.identities.identities(userId: ana.id).map(\.subject) == ["s1"])

            // A deleted user's identity opens nobody, and a deleted user cannot be linked.
            try await b.tombstoneUser(ben.id)
            #expect(try await b.identities.user(issuer: Self.google, subject: "g3") == nil)
            await #expect(throws: StoreError.notFound("User not found")) {
                try await b.identities.link(userId: ben.id, issuer: Self.apple, subject: "s5", email: nil)
            }
        }
    }

    @Test(arguments: AccountBackendKind.allCases)
    func replacingAPasswordEndsEverySessionOfThatUser(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            let ana = try await b.accounts.createAccount(id: UUID(), email: "ana@example.com", displayName: "", passwordHash: "old")
            let ben = try await b.accounts.createAccount(id: UUID(), email: "ben@example.com", displayName: "", passwordHash: "bens")
            func session(_ user: User, _ digit: Int) -> AccountSession {
                AccountSession(
                    tokenHash: String(repeating: "\(digit)", count: 64), userId: user.id, kind: .api,
                    createdAt: b.clock.now, expiresAt: b.clock.now + 3_600, lastUsedAt: b.clock.now)
            }
            try await b.accounts.createSession(session(ana, 1))
            try await b.accounts.createSession(session(ana, 2))
            try await b.accounts.createSession(session(ben, 3))

            #expect(try await b.passwords.passwordHash(userId: ana.id) == "old")
            #expect(try await b.passwords.replacePassword(userId: ana.id, passwordHash: "new") == 2)
            #expect(try await b.passwords.passwordHash(userId: ana.id) == "new")
            #expect(try await b.accounts.credentials(email: "ana@example.com")?.passwordHash == "new")
            #expect(try await b.accounts.session(tokenHash: String(repeating: "1", count: 64)) == nil)
            #expect(try await b.accounts.session(tokenHash: String(repeating: "2", count: 64)) == nil)
            #expect(try await b.accounts.session(tokenHash: String(repeating: "3", count: 64)) != nil)
            #expect(try await b.passwords.replacePassword(userId: ana.id, passwordHash: "newer") == 0)

            let guest = try await b.accounts.createGuest(id: UUID(), displayName: "")
            #expect(try await b.passwords.passwordHash(userId: guest.id) == nil)
            await #expect(throws: StoreError.notFound("This account has no password to change")) {
                try await b.passwords.replacePassword(userId: guest.id, passwordHash: "x")
            }
            await #expect(throws: StoreError.notFound("This account has no password to change")) {
                try await b.passwords.replacePassword(userId: UUID(), passwordHash: "x")
            }
        }
    }
}
