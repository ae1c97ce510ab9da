import Foundation
import GRDB
import Testing
import WDietCore
import WDietSQLite
import WDietStore
import WDietTestSupport

@Suite struct AccountStoreTests {
    let stores: CoachTestStores
    let accounts: any AccountStore
    let hash = "$2b$04$abcdefghijklmnopqrstuuCgJ4cU0dXaK0N4yL7.3qk4e8wJ4Zr0y"

    init() throws {
        stores = try CoachTestStores()
        accounts = SQLiteAccountStore(database: stores.database, now: stores.clock.closure)
    }

    func session(_ hexDigit: Character, userId: UUID, createdAt: Date? = nil, days: Double = 30) -> AccountSession {
        let created = createdAt ?? stores.clock.now
        return AccountSession(
            tokenHash: String(repeating: hexDigit, count: 64), userId: userId, kind: .api,
            createdAt: created, expiresAt: created + days * 86_400, lastUsedAt: created
        )
    }

    @Test func createsAnAccountWithItsCredentials() async throws {
        let id = UUID()
        let user = try await accounts.createAccount(id: id, email: "ana@example.com", displayName: "Ana", passwordHash: hash)
        #expect(user.id == id)
        #expect(user.email == "ana@example.com")
        #expect(user.createdAt == stores.clock.now)
        #expect(try await stores.users.user(id: id) == user)
        #expect(try await accounts.credentials(email: "ana@example.com") == AccountCredentials(user: user, passwordHash: hash))
        #expect(try await accounts.credentials(email: "ANA@Example.COM")?.user.id == id)
        #expect(try await accounts.credentials(email: "bob@example.com") == nil)
    }

    @Test func anEmailIsTakenWhateverItsCase() async throws {
        _ = try await accounts.createAccount(id: UUID(), email: "ana@example.com", displayName: "", passwordHash: hash)
        await #expect(throws: StoreError.conflict("An account with this email already exists")) {
            try await accounts.createAccount(id: UUID(), email: "ANA@EXAMPLE.COM", displayName: "", passwordHash: hash)
        }
        // Also by a user made through the coach's UserStore, without a password.
        _ = try await stores.users.createUser(id: UUID(), email: "bob@example.com", displayName: "")
        await #expect(throws: StoreError.conflict("An account with this email already exists")) {
            try await accounts.createAccount(id: UUID(), email: "Bob@example.com", displayName: "", passwordHash: hash)
        }
        #expect(try await accounts.credentials(email: "bob@example.com") == nil)
        let count = try await stores.database.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM credentials") }
        #expect(count == 1)
    }

    @Test func aGuestHasNoEmailAndNoCredentials() async throws {
        let guest = try await accounts.createGuest(id: UUID(), displayName: "")
        #expect(guest.email == nil)
        #expect(try await stores.users.user(id: guest.id) == guest)
        let count = try await stores.database.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM credentials") }
        #expect(count == 0)
    }

    @Test func upgradingAGuestKeepsItsIdAndRows() async throws {
        let guest = try await accounts.createGuest(id: UUID(), displayName: "")
        let meal = Meal(name: "Porridge", kcal: 350, loggedAt: Fixtures.utc("2026-03-01T08:30:00Z"))
        let saved = try await stores.meals.saveMeal(meal, userId: guest.id, timeZone: Fixtures.zone("Europe/Berlin"))
        stores.clock.advance(seconds: 60)

        let upgraded = try await accounts.upgradeGuest(userId: guest.id, email: "ana@example.com", passwordHash: hash)
        #expect(upgraded.id == guest.id)
        #expect(upgraded.email == "ana@example.com")
        #expect(upgraded.createdAt == guest.createdAt)
        #expect(upgraded.updatedAt == stores.clock.now)
        #expect(upgraded.version > saved.version)
        #expect(try await stores.users.user(id: guest.id) == upgraded)
        #expect(try await accounts.credentials(email: "ana@example.com")?.user == upgraded)
        #expect(try await stores.meals.meal(userId: guest.id, id: meal.id) == saved)
    }

    @Test func upgradingIsRefusedForATakenEmailAnAccountOrNobody() async throws {
        let account = try await accounts.createAccount(id: UUID(), email: "ana@example.com", displayName: "", passwordHash: hash)
        let guest = try await accounts.createGuest(id: UUID(), displayName: "")

        await #expect(throws: StoreError.conflict("An account with this email already exists")) {
            try await accounts.upgradeGuest(userId: guest.id, email: "Ana@Example.com", passwordHash: hash)
        }
        #expect(try await stores.users.user(id: guest.id) == guest)
        await #expect(throws: StoreError.conflict("This account already has an email address")) {
            try await accounts.upgradeGuest(userId: account.id, email: "new@example.com", passwordHash: hash)
        }
        await #expect(throws: StoreError.notFound("User not found")) {
            try await accounts.upgradeGuest(userId: UUID(), email: "new@example.com", passwordHash: hash)
        }
        #expect(try await accounts.credentials(email: "new@example.com") == nil)
    }

    @Test func sessionsAreStoredFoundAndEnded() async throws {
        let ana = try await accounts.createGuest(id: UUID(), displayName: "")
        let bob = try await accounts.createGuest(id: UUID(), displayName: "")
        let a1 = session("a", userId: ana.id), a2 = session("b", userId: ana.id), b1 = session("c", userId: bob.id)
        for s in [a1, a2, b1] { try await accounts.createSession(s) }

        #expect(try await accounts.session(tokenHash: a1.tokenHash) == a1)
        #expect(try await accounts.session(tokenHash: String(repeating: "d", count: 64)) == nil)

        let later = stores.clock.now + 7_200
        try await accounts.touchSession(tokenHash: a1.tokenHash, lastUsedAt: later)
        #expect(try await accounts.session(tokenHash: a1.tokenHash)?.lastUsedAt == later)

        #expect(try await accounts.deleteSession(tokenHash: a1.tokenHash))
        #expect(try await !accounts.deleteSession(tokenHash: a1.tokenHash))
        #expect(try await accounts.session(tokenHash: a1.tokenHash) == nil)
        #expect(try await accounts.session(tokenHash: a2.tokenHash) == a2)

        #expect(try await accounts.deleteSessions(userId: ana.id) == 1)
        #expect(try await accounts.session(tokenHash: a2.tokenHash) == nil)
        #expect(try await accounts.session(tokenHash: b1.tokenHash) == b1)
    }

    @Test func aNewSessionClearsTheUsersExpiredOnesOnly() async throws {
        let ana = try await accounts.createGuest(id: UUID(), displayName: "")
        let bob = try await accounts.createGuest(id: UUID(), displayName: "")
        let start = stores.clock.now
        let anaOld = session("a", userId: ana.id, createdAt: start, days: 1)
        let anaLive = session("b", userId: ana.id, createdAt: start, days: 30)
        let bobOld = session("c", userId: bob.id, createdAt: start, days: 1)
        for s in [anaOld, anaLive, bobOld] { try await accounts.createSession(s) }

        try await accounts.createSession(session("d", userId: ana.id, createdAt: start + 86_400))

        #expect(try await accounts.session(tokenHash: anaOld.tokenHash) == nil)
        #expect(try await accounts.session(tokenHash: anaLive.tokenHash) == anaLive)
        #expect(try await accounts.session(tokenHash: bobOld.tokenHash) == bobOld)
    }

    @Test func aSessionForNobodyIsRefused() async throws {
        await #expect(throws: StoreError.notFound("User not found")) {
            try await accounts.createSession(session("a", userId: UUID()))
        }
    }

    @Test func aDeletedUsersSessionsAndCredentialsSignNobodyIn() async throws {
        let user = try await accounts.createAccount(id: UUID(), email: "ana@example.com", displayName: "", passwordHash: hash)
        let s = session("a", userId: user.id)
        try await accounts.createSession(s)
        try await stores.database.writer.write { db in
            try db.execute(sql: "UPDATE users SET deletedAt = '2026-03-02T00:00:00.000Z'")
        }
        #expect(try await accounts.session(tokenHash: s.tokenHash) == nil)
        #expect(try await accounts.credentials(email: "ana@example.com") == nil)
    }

    @Test func removingAUserRemovesItsCredentialsAndSessions() async throws {
        let user = try await accounts.createAccount(id: UUID(), email: "ana@example.com", displayName: "", passwordHash: hash)
        try await accounts.createSession(session("a", userId: user.id))
        let counts = try await stores.database.writer.write { db in
            try db.execute(sql: "DELETE FROM users")
            return [
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM credentials"),
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sessions"),
            ]
        }
        #expect(counts == [0, 0])
    }

    @Test func aSessionOfAnUnknownKindSignsNobodyIn() async throws {
        let user = try await accounts.createGuest(id: UUID(), displayName: "")
        let s = session("a", userId: user.id)
        try await accounts.createSession(s)
        try await stores.database.writer.write { db in try db.execute(sql: "UPDATE sessions SET kind = 'ios-keychain'") }
        #expect(try await accounts.session(tokenHash: s.tokenHash) == nil)
    }
}
