import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WDietServer
import WDietStore
import WDietTestSupport

@Suite("Auth: sessions")
struct AuthSessionTests {
    static let day: TimeInterval = 24 * 60 * 60

    @Test("a session lasts 30 days from sign-in; after that it is refused and forgotten", arguments: StoreBackend.allCases)
    func sessionsExpire(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let registered = try await client.register("ana@example.com")
            t.clock.advance(seconds: 30 * Self.day - 1)
            #expect(try await client.me(registered.token).status == .ok)

            t.clock.advance(seconds: 1)
            let expired = try await client.me(registered.token)
            #expect(expired.status == .unauthorized)
            #expect(expired.apiError?.code == "unauthorized")
            #expect(try await t.services.accounts.session(tokenHash: SessionToken.hash(registered.token)) == nil)

            // Signing in again starts a new 30 days.
            let login = try await client.login("ana@example.com")
            #expect(try await client.me(login.json(SignedInBody.self).token).status == .ok)
        }
    }

    @Test("using a session does not extend it", arguments: StoreBackend.allCases)
    func useDoesNotExtend(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let registered = try await client.register("ana@example.com")
            for _ in 0..<30 {
                #expect(try await client.me(registered.token).status == .ok)
                t.clock.advance(seconds: Self.day)
            }
            #expect(try await client.me(registered.token).status == .unauthorized)
        }
    }

    @Test("lastUsedAt is written when a session is used after an hour, not on every request", arguments: StoreBackend.allCases)
    func lastUsedAt(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let registered = try await client.register("ana@example.com")
            let hash = SessionToken.hash(registered.token)
            let start = t.clock.now

            t.clock.advance(seconds: 59 * 60)
            _ = try await client.me(registered.token)
            #expect(try await t.services.accounts.session(tokenHash: hash)?.lastUsedAt == start)

            t.clock.advance(seconds: 60)
            _ = try await client.me(registered.token)
            #expect(try await t.services.accounts.session(tokenHash: hash)?.lastUsedAt == t.clock.now)
        }
    }

    @Test("the sessions table holds the token's SHA-256, never the token")
    func tokensAreStoredHashed() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let registered = try await client.register("ana@example.com")
            let guest = try await client.guest()

            let rows = try #require(t.services.database).writer.read { db in try Row.fetchAll(db, sql: "SELECT * FROM sessions") }
            #expect(rows.count == 2)
            let stored = rows.flatMap { row in row.columnNames.compactMap { row[$0] as String? } }
            for token in [registered.token, guest.token] {
                #expect(!stored.contains { $0.contains(token) })
                #expect(stored.contains(SessionToken.hash(token)))
            }
            let hashes = rows.map { $0["tokenHash"] as String }
            #expect(hashes.allSatisfy { $0.count == 64 && $0.allSatisfy(\.isHexDigit) && $0 == $0.lowercased() })
        }
    }

    @Test("tokens are 32 random bytes in base64url, and SHA-256 matches its published test vector")
    func tokenShape() {
        let tokens = (0..<200).map { _ in SessionToken.generate() }
        #expect(Set(tokens).count == tokens.count)
        #expect(tokens.allSatisfy { $0.count == 43 && SessionToken.isWellFormed($0) })
        #expect(SessionToken.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("a web session signs in through the cookie only, an API session through the Authorization header only", arguments: StoreBackend.allCases)
    func sessionKinds(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let api = try await client.register("ana@example.com")
            let webToken = SessionToken.generate()
            let now = t.clock.now
            try await t.services.accounts.createSession(AccountSession(
                tokenHash: SessionToken.hash(webToken), userId: api.user.id, kind: .web,
                createdAt: now, expiresAt: now + 30 * Self.day, lastUsedAt: now
            ))

            let byCookie = try await client.send(.get, "/api/v1/auth/me", headers: [.cookie: "theme=dark; wdiet_session=\(webToken)"])
            #expect(byCookie.status == .ok)
            #expect(try byCookie.json(AccountUserBody.self).id == api.user.id)

            #expect(try await client.me(webToken).status == .unauthorized)
            let apiTokenAsCookie = try await client.send(.get, "/api/v1/auth/me", headers: [.cookie: "wdiet_session=\(api.token)"])
            #expect(apiTokenAsCookie.status == .unauthorized)
        }
    }

    @Test("the session of a user deleted meanwhile signs nobody in")
    func deletedUser() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let registered = try await client.register("ana@example.com")
            try await #require(t.services.database).writer.write { db in
                try db.execute(sql: "UPDATE users SET deletedAt = '2026-03-01T10:00:00.000Z'")
            }
            #expect(try await client.me(registered.token).status == .unauthorized)
            #expect(try await client.login("ana@example.com").status == .unauthorized)
        }
    }
}
