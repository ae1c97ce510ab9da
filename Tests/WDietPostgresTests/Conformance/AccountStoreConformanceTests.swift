import Foundation
import Testing
import WDietCore
import WDietStore
import WDietTestSupport

/// `AccountStore` on SQLite and PostgreSQL: the same behaviour and the same messages.
@Suite("Account store conformance")
struct AccountStoreConformanceTests {
    static let hash = "$2b$04$abcdefghijklmnopqrstuuCgJ4cU0dXaK0N4yL7.3qk4e8wJ4Zr0y"

    static func session(
        _ hexDigit: Character, userId: UUID, createdAt: Date, days: Double = 30, kind: AccountSession.Kind = .api
    ) -> AccountSession {
        AccountSession(
            tokenHash: String(repeating: hexDigit, count: 64), userId: userId, kind: kind,
            createdAt: createdAt, expiresAt: createdAt + days * 86_400, lastUsedAt: createdAt
        )
    }

    @Test(arguments: AccountBackendKind.allCases)
    func createsAnAccountWithItsCredentials(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            let id = UUID()
            let user = try await b.accounts.createAccount(id: id, email: "ana@example.com", displayName: "Ana", passwordHash: Self.hash)
            #expect(user == User(
                id: id, email: "ana@example.com", displayName: "Ana", createdAt: b.clock.now, updatedAt: b.clock.now,
                version: user.version))
            #expect(try await b.accounts.credentials(email: "ana@example.com") == AccountCredentials(user: user, passwordHash: Self.hash))
            #expect(try await b.accounts.credentials(email: "ANA@Example.COM")?.user.id == id)
            #expect(try await b.accounts.credentials(email: "bob@example.com") == nil)
            await #expect(throws: StoreError.conflict("This account already exists")) {
                try await b.accounts.createAccount(id: id, email: "other@example.com", displayName: "", passwordHash: Self.hash)
            }
        }
    }

    @Test(arguments: AccountBackendKind.allCases)
    func anEmailIsTakenWhateverItsCase(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            _ = try await b.accounts.createAccount(id: UUID(), email: "ana@example.com", displayName: "", passwordHash: Self.hash)
            await #expect(throws: StoreError.conflict("An account with this email already exists")) {
                try await b.accounts.createAccount(id: UUID(), email: "ANA@EXAMPLE.COM", displayName: "", passwordHash: Self.hash)
            }
            // Also by a user made through the coach's user store, without a password.
            _ = try await b.makeUser(email: "bob@example.com")
            await #expect(throws: StoreError.conflict("An account with this email already exists")) {
                try await b.accounts.createAccount(id: UUID(), email: "Bob@example.com", displayName: "", passwordHash: Self.hash)
            }
            #expect(try await b.accounts.credentials(email: "bob@example.com") == nil)
            #expect(try await b.count(.credentials) == 1)
        }
    }

    @Test(arguments: AccountBackendKind.allCases)
    func aGuestHasNoEmailAndNoCredentials(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            let guest = try await b.accounts.createGuest(id: UUID(), displayName: "")
            #expect(guest.email == nil)
            #expect(guest.createdAt == b.clock.now)
            #expect(try await b.count(.credentials) == 0)
            #expect(try await b.passwords.passwordHash(userId: guest.id) == nil)
        }
    }

    @Test(arguments: AccountBackendKind.allCases)
    func upgradingAGuestKeepsItsIdAndRows(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            let guest = try await b.accounts.createGuest(id: UUID(), displayName: "")
            try await b.tips.dismissTip(.eatingWindow, userId: guest.id)
            let tipVersion = try #require(try await b.dismissedTipRows().first?.version)
            b.clock.advance(seconds: 60)

            let upgraded = try await b.accounts.upgradeGuest(userId: guest.id, email: "ana@example.com", passwordHash: Self.hash)
            #expect(upgraded.id == guest.id)
            #expect(upgraded.email == "ana@example.com")
            #expect(upgraded.createdAt == guest.createdAt)
            #expect(upgraded.updatedAt == b.clock.now)
            #expect(upgraded.version > tipVersion)
            #expect(try await b.versionCounter(userId: guest.id) == upgraded.version)
            #expect(try await b.accounts.credentials(email: "ANA@example.com") == AccountCredentials(user: upgraded, passwordHash: Self.hash))
            #expect(try await b.tips.dismissedTips(userId: guest.id) == [.eatingWindow])
        }
    }

    @Test(arguments: AccountBackendKind.allCases)
    func upgradingIsRefusedForATakenEmailAnAccountOrNobody(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            let account = try await b.accounts.createAccount(id: UUID(), email: "ana@example.com", displayName: "", passwordHash: Self.hash)
            let guest = try await b.accounts.createGuest(id: UUID(), displayName: "")

            await #expect(throws: StoreError.conflict("An account with this email already exists")) {
                try await b.accounts.upgradeGuest(userId: guest.id, email: "Ana@Example.com", passwordHash: Self.hash)
            }
            await #expect(throws: StoreError.conflict("This account already has an email address")) {
                try await b.accounts.upgradeGuest(userId: account.id, email: "new@example.com", passwordHash: Self.hash)
            }
            await #expect(throws: StoreError.notFound("User not found")) {
                try await b.accounts.upgradeGuest(userId: UUID(), email: "new@example.com", passwordHash: Self.hash)
            }
            #expect(try await b.accounts.credentials(email: "new@example.com") == nil)
            // The refused upgrade left the guest as it was: it can still take a free email.
            let upgraded = try await b.accounts.upgradeGuest(userId: guest.id, email: "ben@example.com", passwordHash: Self.hash)
            #expect(upgraded.createdAt == guest.createdAt)
        }
    }

    @Test(arguments: AccountBackendKind.allCases)
    func sessionsAreStoredFoundAndEnded(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            let ana = try await b.accounts.createGuest(id: UUID(), displayName: "")
            let bob = try await b.accounts.createGuest(id: UUID(), displayName: "")
            let now = b.clock.now
            let a1 = Self.session("a", userId: ana.id, createdAt: now)
            let a2 = Self.session("b", userId: ana.id, createdAt: now, kind: .web)
            let b1 = Self.session("c", userId: bob.id, createdAt: now)
            for s in [a1, a2, b1] { try await b.accounts.createSession(s) }

            #expect(try await b.accounts.session(tokenHash: a1.tokenHash)?.withoutDataVersion == a1)
            #expect(try await b.accounts.session(tokenHash: a2.tokenHash)?.withoutDataVersion == a2)
            #expect(try await b.accounts.session(tokenHash: String(repeating: "d", count: 64)) == nil)

            let later = now + 7_200
            try await b.accounts.touchSession(tokenHash: a1.tokenHash, lastUsedAt: later)
            #expect(try await b.accounts.session(tokenHash: a1.tokenHash)?.lastUsedAt == later)

            #expect(try await b.accounts.deleteSession(tokenHash: a1.tokenHash))
            #expect(try await !b.accounts.deleteSession(tokenHash: a1.tokenHash))
            #expect(try await b.accounts.session(tokenHash: a1.tokenHash)?.withoutDataVersion == nil)
            #expect(try await b.accounts.session(tokenHash: a2.tokenHash)?.withoutDataVersion == a2)

            #expect(try await b.accounts.deleteSessions(userId: ana.id) == 1)
            #expect(try await b.accounts.deleteSessions(userId: ana.id) == 0)
            #expect(try await b.accounts.session(tokenHash: a2.tokenHash)?.withoutDataVersion == nil)
            #expect(try await b.accounts.session(tokenHash: b1.tokenHash)?.withoutDataVersion == b1)
        }
    }

    @Test("instants come back rounded to the millisecond, the same Date on both backends", arguments: AccountBackendKind.allCases)
    func instantsAreMilliseconds(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            let user = try await b.accounts.createGuest(id: UUID(), displayName: "")
            // 09:00:00.1236 is stored as .124 (and .122 as .122, not .121999 as a microsecond truncation would).
            let created = Fixtures.utc("2026-03-01T09:00:00Z") + 0.1236
            let s = Self.session("e", userId: user.id, createdAt: created)
            try await b.accounts.createSession(s)
            let used = Fixtures.utc("2026-03-01T10:00:00Z") + 0.122
            try await b.accounts.touchSession(tokenHash: s.tokenHash, lastUsedAt: used)
            let stored = try #require(try await b.accounts.session(tokenHash: s.tokenHash))
            #expect(stored.createdAt == Date(timeIntervalSince1970: 1_772_355_600_124 / 1_000))
            #expect(stored.expiresAt == Date(timeIntervalSince1970: (1_772_355_600_124 + 30 * 86_400_000) / 1_000))
            #expect(stored.lastUsedAt == Date(timeIntervalSince1970: 1_772_359_200_122 / 1_000))
        }
    }

    @Test(arguments: AccountBackendKind.allCases)
    func aNewSessionClearsTheUsersExpiredOnesOnly(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            let ana = try await b.accounts.createGuest(id: UUID(), displayName: "")
            let bob = try await b.accounts.createGuest(id: UUID(), displayName: "")
            let start = b.clock.now
            let anaOld = Self.session("a", userId: ana.id, createdAt: start, days: 1)
            let anaLive = Self.session("b", userId: ana.id, createdAt: start, days: 30)
            let bobOld = Self.session("c", userId: bob.id, createdAt: start, days: 1)
            for s in [anaOld, anaLive, bobOld] { try await b.accounts.createSession(s) }

            // Created the instant anaOld expires: an expiry equal to the creation counts as expired.
            try await b.accounts.createSession(Self.session("d", userId: ana.id, createdAt: start + 86_400))

            #expect(try await b.accounts.session(tokenHash: anaOld.tokenHash)?.withoutDataVersion == nil)
            #expect(try await b.accounts.session(tokenHash: anaLive.tokenHash)?.withoutDataVersion == anaLive)
            #expect(try await b.accounts.session(tokenHash: bobOld.tokenHash)?.withoutDataVersion == bobOld)
        }
    }

    @Test(arguments: AccountBackendKind.allCases)
    func aSessionForNobodyOrWithARawTokenIsRefused(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            await #expect(throws: StoreError.notFound("User not found")) {
                try await b.accounts.createSession(Self.session("a", userId: UUID(), createdAt: b.clock.now))
            }
            let user = try await b.accounts.createGuest(id: UUID(), displayName: "")
            // Only a lowercase hex SHA-256 is stored: a base64url token or uppercase hex is refused by the CHECK.
            for raw in ["A", "_"] {
                await #expect(throws: StoreError.invalid("Please check the values entered")) {
                    try await b.accounts.createSession(Self.session(Character(raw), userId: user.id, createdAt: b.clock.now))
                }
            }
            var short = Self.session("a", userId: user.id, createdAt: b.clock.now)
            short.tokenHash = String(repeating: "a", count: 63)
            await #expect(throws: StoreError.invalid("Please check the values entered")) {
                try await b.accounts.createSession(short)
            }
            #expect(try await b.count(.sessions) == 0)
        }
    }

    @Test(arguments: AccountBackendKind.allCases)
    func aDeletedUsersSessionsAndCredentialsSignNobodyIn(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            let user = try await b.accounts.createAccount(id: UUID(), email: "ana@example.com", displayName: "", passwordHash: Self.hash)
            let s = Self.session("a", userId: user.id, createdAt: b.clock.now)
            try await b.accounts.createSession(s)
            try await b.tombstoneUser(user.id)
            #expect(try await b.accounts.session(tokenHash: s.tokenHash)?.withoutDataVersion == nil)
            #expect(try await b.accounts.credentials(email: "ana@example.com") == nil)
            #expect(try await b.passwords.passwordHash(userId: user.id) == nil)
            // Its email stays taken: the uniqueness covers deleted users too.
            await #expect(throws: StoreError.conflict("An account with this email already exists")) {
                try await b.accounts.createAccount(id: UUID(), email: "ana@example.com", displayName: "", passwordHash: Self.hash)
            }
            await #expect(throws: StoreError.notFound("User not found")) {
                try await b.accounts.upgradeGuest(userId: user.id, email: "new@example.com", passwordHash: Self.hash)
            }
        }
    }

    @Test(arguments: AccountBackendKind.allCases)
    func removingAUserRemovesEverythingItOwns(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            let user = try await b.accounts.createAccount(id: UUID(), email: "ana@example.com", displayName: "", passwordHash: Self.hash)
            let other = try await b.accounts.createGuest(id: UUID(), displayName: "")
            for owner in [user.id, other.id] {
                try await b.identities.link(userId: owner, issuer: "https://appleid.apple.com", subject: "\(owner)", email: nil)
                _ = try await b.rateLimits.acquire(.profileUpdate, userId: owner, limit: 10, window: 3_600, now: b.clock.now)
                try await b.tips.dismissTip(.learnWelcome, userId: owner)
                try await b.analytics.recordEvent(AnalyticsEvent(name: .sessionStart, occurredAt: b.clock.now), userId: owner)
            }
            try await b.accounts.createSession(Self.session("a", userId: user.id, createdAt: b.clock.now))
            try await b.accounts.createSession(Self.session("b", userId: other.id, createdAt: b.clock.now))

            try await b.deleteUser(user.id)

            var counts: [AccountStoresBackend.Table: Int] = [:]
            for table in [AccountStoresBackend.Table.credentials, .sessions, .identities, .rateLimitEvents, .dismissedTips, .analyticsEvents] {
                counts[table] = try await b.count(table)
            }
            #expect(counts == [.credentials: 0, .sessions: 1, .identities: 1, .rateLimitEvents: 1, .dismissedTips: 1, .analyticsEvents: 1])
        }
    }

    @Test(arguments: AccountBackendKind.allCases)
    func aSessionOfAnUnknownKindSignsNobodyIn(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            let user = try await b.accounts.createGuest(id: UUID(), displayName: "")
            let s = Self.session("a", userId: user.id, createdAt: b.clock.now)
            try await b.accounts.createSession(s)
            try await b.setEverySessionKind("ios-keychain")
            #expect(try await b.accounts.session(tokenHash: s.tokenHash)?.withoutDataVersion == nil)
        }
    }

    @Test(arguments: AccountBackendKind.allCases)
    func aChosenLanguageIsKeptClearedAndReadWithEverySession(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            let ana = try await b.accounts.createGuest(id: UUID(), displayName: "")
            let bob = try await b.accounts.createAccount(id: UUID(), email: "bob@example.com", displayName: "", passwordHash: Self.hash)
            let web = Self.session("a", userId: ana.id, createdAt: b.clock.now, kind: .web)
            let api = Self.session("b", userId: ana.id, createdAt: b.clock.now)
            let bobs = Self.session("c", userId: bob.id, createdAt: b.clock.now)
            for s in [web, api, bobs] { try await b.accounts.createSession(s) }

            // Nobody has chosen: everyone follows their browser.
            #expect(try await b.accounts.language(userId: ana.id) == nil)
            #expect(try await b.accounts.session(tokenHash: web.tokenHash)?.language == nil)

            try await b.accounts.setLanguage(.german, userId: ana.id)
            #expect(try await b.accounts.language(userId: ana.id) == .german)
            // Every session of hers reads it, and only hers.
            #expect(try await b.accounts.session(tokenHash: web.tokenHash)?.language == .german)
            #expect(try await b.accounts.session(tokenHash: api.tokenHash)?.language == .german)
            #expect(try await b.accounts.session(tokenHash: bobs.tokenHash)?.language == nil)
            #expect(try await b.accounts.language(userId: bob.id) == nil)
            // Setting it is no edit of synced data: the user row's version stays.
            #expect(try await b.users.user(id: ana.id)?.version == ana.version)

            try await b.accounts.setLanguage(.english, userId: ana.id)
            #expect(try await b.accounts.session(tokenHash: web.tokenHash)?.language == .english)
            try await b.accounts.setLanguage(nil, userId: ana.id)
            #expect(try await b.accounts.language(userId: ana.id) == nil)
            #expect(try await b.accounts.session(tokenHash: api.tokenHash)?.language == nil)

            // Nobody, and a deleted user, cannot choose.
            await #expect(throws: StoreError.notFound("User not found")) {
                try await b.accounts.setLanguage(.german, userId: UUID())
            }
            try await b.accounts.setLanguage(.german, userId: bob.id)
            try await b.tombstoneUser(bob.id)
            #expect(try await b.accounts.language(userId: bob.id) == nil)
            await #expect(throws: StoreError.notFound("User not found")) {
                try await b.accounts.setLanguage(.english, userId: bob.id)
            }
        }
    }

    @Test(arguments: AccountBackendKind.allCases)
    func aChosenAppearanceIsKeptClearedAndReadWithEverySession(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            let ana = try await b.accounts.createGuest(id: UUID(), displayName: "")
            let bob = try await b.accounts.createAccount(id: UUID(), email: "bob@example.com", displayName: "", passwordHash: Self.hash)
            let web = Self.session("a", userId: ana.id, createdAt: b.clock.now, kind: .web)
            let bobs = Self.session("c", userId: bob.id, createdAt: b.clock.now, kind: .web)
            for s in [web, bobs] { try await b.accounts.createSession(s) }

            // Auto until someone chooses.
            #expect(try await b.accounts.appearance(userId: ana.id) == nil)
            #expect(try await b.accounts.session(tokenHash: web.tokenHash)?.appearance == nil)

            try await b.accounts.setAppearance(.dark, userId: ana.id)
            #expect(try await b.accounts.appearance(userId: ana.id) == .dark)
            #expect(try await b.accounts.session(tokenHash: web.tokenHash)?.appearance == .dark)
            #expect(try await b.accounts.session(tokenHash: bobs.tokenHash)?.appearance == nil)
            // Independent of the language, and no edit of synced data.
            #expect(try await b.accounts.session(tokenHash: web.tokenHash)?.language == nil)
            #expect(try await b.users.user(id: ana.id)?.version == ana.version)

            try await b.accounts.setLanguage(.german, userId: ana.id)
            try await b.accounts.setAppearance(.light, userId: ana.id)
            let both = try await b.accounts.session(tokenHash: web.tokenHash)
            #expect(both?.appearance == .light)
            #expect(both?.language == .german)
            try await b.accounts.setAppearance(nil, userId: ana.id)
            #expect(try await b.accounts.appearance(userId: ana.id) == nil)
            #expect(try await b.accounts.session(tokenHash: web.tokenHash)?.language == .german)

            await #expect(throws: StoreError.notFound("User not found")) {
                try await b.accounts.setAppearance(.dark, userId: UUID())
            }
            try await b.accounts.setAppearance(.dark, userId: bob.id)
            try await b.tombstoneUser(bob.id)
            #expect(try await b.accounts.appearance(userId: bob.id) == nil)
            await #expect(throws: StoreError.notFound("User not found")) {
                try await b.accounts.setAppearance(.light, userId: bob.id)
            }
        }
    }
}

extension AccountSession {
    /// The session as it was created: the lookup adds the user's data version and what it saw of the profile on
    /// PostgreSQL (see `CoachDashboardConformanceTests` for what they must do).
    var withoutDataVersion: AccountSession {
        var session = self
        session.dataVersion = nil
        session.profileSeen = nil
        return session
    }
}
