import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietCore
import WDietStore
import WDietTestSupport
@testable import WDietServer

/// The API's meal save on PostgreSQL checks its session in the save's own statement (`DeferredSessionCheck`,
/// `SessionAuthMiddleware.answerCheckingInTheWrite`): one round trip instead of the lookup and then the insert.
/// Whatever another server process changes in between (here: the store written directly, as another process
/// writes it) takes effect at once, as when every request read its session first.
@Suite("Meal save: the session checked in the save's statement")
struct SessionCheckedInSaveTests {
    static var meal: [String: Any] { ["name": "Pasta", "calories": 650] }

    /// Meals the store holds for the user on a day, whoever asks.
    static func storedMeals(_ t: TestApp, _ session: APISession, on day: String) async throws -> Int {
        try await t.services.meals.meals(userId: session.userId, on: try #require(LocalDate(iso: day))).count
    }

    @Test("a save whose session this server read a moment ago does not read it again; after the hint's 60 s it does")
    func savesWithoutReadingTheSession() async throws {
        try await TestApp.test(.postgres) { t, client in
            let session = try await client.signInWithProfile()
            let tokenHash = SessionToken.hash(session.token)
            #expect(try await client.api(.post, "/api/v1/meals", session, json: Self.meal).status == .created)
            // A lookup touches `lastUsedAt` when it is an hour old or more: make it so, then save.
            let twoHoursAgo = t.clock.now.addingTimeInterval(-7_200)
            try await t.services.accounts.touchSession(tokenHash: tokenHash, lastUsedAt: twoHoursAgo)
            t.clock.advance(seconds: 30)
            #expect(try await client.api(.post, "/api/v1/meals", session, json: Self.meal).status == .created)
            #expect(try await t.services.accounts.session(tokenHash: tokenHash)?.lastUsedAt == twoHoursAgo)
            #expect(try await Self.storedMeals(t, session, on: "2026-03-01") == 2)

            // 61 s after the lookup the hint is gone: the save reads the session (and touches it).
            t.clock.advance(seconds: 31)
            #expect(try await client.api(.post, "/api/v1/meals", session, json: Self.meal).status == .created)
            #expect(try await t.services.accounts.session(tokenHash: tokenHash)?.lastUsedAt == t.clock.now)
            #expect(try await Self.storedMeals(t, session, on: "2026-03-01") == 3)
        }
    }

    @Test("a logout by another server ends the session at once: 401, nothing saved", arguments: [false, true])
    func logoutElsewhere(_ allSessions: Bool) async throws {
        try await TestApp.test(.postgres) { t, client in
            let session = try await client.signInWithProfile()
            #expect(try await client.api(.post, "/api/v1/meals", session, json: Self.meal).status == .created)
            #expect(try await client.api(.post, "/api/v1/meals", session, json: Self.meal).status == .created)
            if allSessions {
                #expect(try await t.services.accounts.deleteSessions(userId: session.userId) == 1)
            } else {
                #expect(try await t.services.accounts.deleteSession(tokenHash: SessionToken.hash(session.token)))
            }
            let refused = try await client.api(.post, "/api/v1/meals", session, json: Self.meal)
            #expect(refused.status == .unauthorized)
            #expect(try await Self.storedMeals(t, session, on: "2026-03-01") == 2)
            // And so it stays.
            #expect(try await client.api(.post, "/api/v1/meals", session, json: Self.meal).status == .unauthorized)
            #expect(try await Self.storedMeals(t, session, on: "2026-03-01") == 2)
        }
    }

    @Test("a new time zone saved by another server decides the next save's day: 11:00Z is 2 March in Kiritimati")
    func profileChangedElsewhere() async throws {
        try await TestApp.test(.postgres) { t, client in
            let session = try await client.signInWithProfile()
            let logged: [String: Any] = ["name": "Pasta", "calories": 650, "loggedAt": "2026-03-01T11:00:00Z"]
            let inBerlin = try await client.api(.post, "/api/v1/meals", session, json: logged)
            #expect(try inBerlin.object()["localDate"] as? String == "2026-03-01")  // 12:00 in Berlin

            let stored = try #require(try await t.services.profiles.profile(userId: session.userId))
            var moved = stored.profile
            moved.timeZoneIdentifier = "Pacific/Kiritimati"
            _ = try await t.services.profiles.saveProfile(moved, userId: session.userId, expectedVersion: stored.version)

            let inKiritimati = try await client.api(.post, "/api/v1/meals", session, json: logged)
            #expect(inKiritimati.status == .created)
            #expect(try inKiritimati.object()["localDate"] as? String == "2026-03-02")  // 01:00 on 2 March (UTC+14)
            #expect(try await Self.storedMeals(t, session, on: "2026-03-01") == 1)
            #expect(try await Self.storedMeals(t, session, on: "2026-03-02") == 1)
        }
    }

    @Test("German chosen on another server: the next save answers in German, its refusals too")
    func languageChangedElsewhere() async throws {
        try await TestApp.test(.postgres) { t, client in
            let session = try await client.signInWithProfile()
            let english = try await client.api(.post, "/api/v1/meals", session, json: ["name": "Pasta", "calories": 0])
            #expect(try english.errorDetail().fields == ["calories": "Calories must be between 1-9999"])
            #expect(try await client.api(.post, "/api/v1/meals", session, json: Self.meal).status == .created)

            try await t.services.accounts.setLanguage(.german, userId: session.userId)
            let saved = try await client.api(.post, "/api/v1/meals", session, json: Self.meal)
            #expect(saved.status == .created)
            #expect(saved.headers[.contentLanguage] == "de")
            let refused = try await client.api(.post, "/api/v1/meals", session, json: ["name": "Pasta", "calories": 0])
            #expect(try refused.errorDetail().fields == ["calories": "Die Kalorien müssen zwischen 1 und 9999 liegen"])
            #expect(try await Self.storedMeals(t, session, on: "2026-03-01") == 2)
        }
    }

    @Test("a retried meal id is answered once the session is read: the same meal, once; after a logout elsewhere, 401")
    func retriedIdAnsweredAfterTheSessionIsRead() async throws {
        try await TestApp.test(.postgres) { t, client in
            let session = try await client.signInWithProfile()
            let id = "0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"
            let first = try await client.api(.post, "/api/v1/meals", session, json: ["id": id, "name": "Pasta", "calories": 650])
            #expect(first.status == .created)
            let again = try await client.api(.post, "/api/v1/meals", session, json: ["id": id, "name": "Pasta", "calories": 650])
            #expect(again.status == .created)
            #expect(try again.object()["id"] as? String == id)
            #expect(try await Self.storedMeals(t, session, on: "2026-03-01") == 1)

            #expect(try await t.services.accounts.deleteSessions(userId: session.userId) == 1)
            let refused = try await client.api(.post, "/api/v1/meals", session, json: ["id": id, "name": "Pasta", "calories": 650])
            #expect(refused.status == .unauthorized)
        }
    }
}

@Suite("Server caches: session hints")
struct SessionHintTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func session(expiresIn seconds: TimeInterval) -> AccountSession {
        AccountSession(
            tokenHash: "h", userId: UUID(), kind: .api, createdAt: start, expiresAt: start.addingTimeInterval(seconds),
            lastUsedAt: start, language: .german, profileSeen: .version(7))
    }

    @Test("a hint is offered for its time to live, never past the session's expiry, and never answers as the cache does")
    func hintLifetime() {
        let cache = SessionCache(timeToLive: 0, hintTimeToLive: 60)
        cache.remember(tokenHash: "a", session: Self.session(expiresIn: 3_600), at: Self.start)
        cache.remember(tokenHash: "b", session: Self.session(expiresIn: 20), at: Self.start)
        #expect(cache.entry(tokenHash: "a", at: Self.start) == nil)
        let hint = cache.hint(tokenHash: "a", at: Self.start.addingTimeInterval(59.9))
        #expect(hint?.profileSeen == .version(7))
        #expect(hint?.language == .german)
        #expect(cache.hint(tokenHash: "a", at: Self.start.addingTimeInterval(60)) == nil)
        #expect(cache.hint(tokenHash: "b", at: Self.start.addingTimeInterval(19.9)) != nil)
        #expect(cache.hint(tokenHash: "b", at: Self.start.addingTimeInterval(20)) == nil)
    }

    @Test("logout and 'end every session' forget hints as they forget answers; SQLite's cache keeps none")
    func hintsForgotten() {
        let cache = SessionCache(timeToLive: 0, hintTimeToLive: 60)
        let session = Self.session(expiresIn: 3_600)
        cache.remember(tokenHash: "a", session: session, at: Self.start)
        cache.remember(tokenHash: "b", session: session, at: Self.start)
        cache.forget(tokenHash: "a")
        #expect(cache.hint(tokenHash: "a", at: Self.start) == nil)
        #expect(cache.hint(tokenHash: "b", at: Self.start) != nil)
        cache.forget(userId: session.userId)
        #expect(cache.hint(tokenHash: "b", at: Self.start) == nil)

        let sqlite = SessionCache()
        sqlite.remember(tokenHash: "a", session: session, at: Self.start)
        #expect(sqlite.entry(tokenHash: "a", at: Self.start) != nil)
        #expect(sqlite.hint(tokenHash: "a", at: Self.start) == nil)
    }
}
