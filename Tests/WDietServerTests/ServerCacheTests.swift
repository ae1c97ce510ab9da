import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WDietStore
import WDietTestSupport
@testable import WDietServer

/// The two in-process caches of the request path: what they remember, and when they must forget.
@Suite("Server caches")
struct ServerCacheTests {
    static let start = Fixtures.utc("2026-03-01T09:00:00Z")

    static func session(userId: UUID = UUID(), kind: AccountSession.Kind = .api, expiresIn seconds: TimeInterval) -> AccountSession {
        AccountSession(
            tokenHash: "h", userId: userId, kind: kind, createdAt: start,
            expiresAt: start.addingTimeInterval(seconds), lastUsedAt: start
        )
    }

    @Test("a session is remembered for its time to live, never past its own expiry")
    func sessionLifetime() {
        let cache = SessionCache()
        let long = Self.session(expiresIn: 3_600)
        cache.remember(tokenHash: "a", session: long, at: Self.start)
        #expect(cache.entry(tokenHash: "a", at: Self.start.addingTimeInterval(SessionCache.defaultTimeToLive - 1))?.userId == long.userId)
        #expect(cache.entry(tokenHash: "a", at: Self.start.addingTimeInterval(SessionCache.defaultTimeToLive)) == nil)

        let ending = Self.session(expiresIn: 2)
        cache.remember(tokenHash: "b", session: ending, at: Self.start)
        #expect(cache.entry(tokenHash: "b", at: Self.start.addingTimeInterval(1))?.userId == ending.userId)
        #expect(cache.entry(tokenHash: "b", at: Self.start.addingTimeInterval(2)) == nil)
    }

    @Test("with a time to live of 0 (several servers on PostgreSQL) nothing is remembered: every request asks the store")
    func sessionCacheOff() {
        let cache = SessionCache(timeToLive: 0)
        cache.remember(tokenHash: "a", session: Self.session(expiresIn: 3_600), at: Self.start)
        #expect(cache.entry(tokenHash: "a", at: Self.start) == nil)
    }

    @Test("logout forgets one token; ending a user's sessions forgets all of theirs and no one else's")
    func sessionForgetting() {
        let cache = SessionCache()
        let ana = UUID(), ben = UUID()
        cache.remember(tokenHash: "ana-phone", session: Self.session(userId: ana, expiresIn: 3_600), at: Self.start)
        cache.remember(tokenHash: "ana-web", session: Self.session(userId: ana, kind: .web, expiresIn: 3_600), at: Self.start)
        cache.remember(tokenHash: "ben", session: Self.session(userId: ben, expiresIn: 3_600), at: Self.start)
        cache.forget(tokenHash: "ana-phone")
        #expect(cache.entry(tokenHash: "ana-phone", at: Self.start) == nil)
        #expect(cache.entry(tokenHash: "ana-web", at: Self.start)?.kind == .web)
        cache.forget(userId: ana)
        #expect(cache.entry(tokenHash: "ana-web", at: Self.start) == nil)
        #expect(cache.entry(tokenHash: "ben", at: Self.start)?.userId == ben)
    }

    @Test("a signed-in token stops working at once on logout, though it was just used")
    func logoutIsImmediate() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile()
            #expect(try await client.api(.get, "/api/v1/dashboard", session).status == .ok)
            #expect(try await client.api(.post, "/api/v1/auth/logout", session).status == .noContent)
            #expect(try await client.api(.get, "/api/v1/dashboard", session).status == .unauthorized)
        }
    }

    @Test("a session that expires stops working though it was used a moment before")
    func expiryIsImmediate() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile()
            t.clock.advance(seconds: AccountService.sessionLifetime - 1)
            #expect(try await client.api(.get, "/api/v1/dashboard", session).status == .ok)
            t.clock.advance(seconds: 1)
            #expect(try await client.api(.get, "/api/v1/dashboard", session).status == .unauthorized)
        }
    }

    @Test("search pages are kept for their time to live; a full cache drops the oldest to take one")
    func searchEntries() {
        let cache = FoodSearchCache()
        let body = ByteBuffer(string: #"{"results":[]}"#)
        cache.store(body, for: "10 apple", at: Self.start)
        #expect(cache.body(for: "10 apple", at: Self.start.addingTimeInterval(FoodSearchCache.timeToLive - 1)) == body)
        #expect(cache.body(for: "20 apple", at: Self.start) == nil)
        #expect(cache.body(for: "10 apple", at: Self.start.addingTimeInterval(FoodSearchCache.timeToLive)) == nil)

        for index in 0..<(FoodSearchCache.capacity + 10) {
            cache.store(body, for: "q\(index)", at: Self.start)
        }
        let kept = (0..<(FoodSearchCache.capacity + 10)).filter { cache.body(for: "q\($0)", at: Self.start) != nil }
        #expect(kept.count == FoodSearchCache.capacity)
        #expect(kept.contains(FoodSearchCache.capacity + 9))
        // The oldest ten made room for the last ten.
        #expect(kept == Array(10..<(FoodSearchCache.capacity + 10)))
        #expect(cache.count == FoodSearchCache.capacity)
    }

    @Test("a repeated search answers exactly the first answer")
    func repeatedSearch() async throws {
        let t = try TestApp(catalog: try await ServerCatalogDatabase.shared.value)
        try await t.app.test(.router) { client in
            let session = try await client.signInAsGuest()
            let first = try await client.api(.get, "/api/v1/foods/search?q=chicken%20bre&limit=5", session)
            let second = try await client.api(.get, "/api/v1/foods/search?q=chicken%20bre&limit=5", session)
            #expect(first.status == .ok && second.status == .ok)
            #expect(second.headers[.contentType] == "application/json; charset=utf-8")
            #expect(first.body == second.body)
            let three = try await client.api(.get, "/api/v1/foods/search?q=chicken%20bre&limit=3", session).object()
            #expect((three["results"] as? [Any])?.count == 3)
        }
    }
}
