import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WDietServer
import WDietStore

/// A browser's session for `user`: the `wdiet_session` cookie and the CSRF token its pages carry.
struct WebTestSession {
    var cookie: String
    var csrfToken: String

    /// Creates a web session for the user straight in the store, as the guest and sign-in forms do.
    static func make(for userId: UUID, in t: TestApp) async throws -> WebTestSession {
        let token = SessionToken.generate()
        let now = t.clock.now
        try await t.services.accounts.createSession(AccountSession(
            tokenHash: SessionToken.hash(token), userId: userId, kind: .web,
            createdAt: now, expiresAt: now + AccountService.sessionLifetime, lastUsedAt: now
        ))
        return WebTestSession(cookie: "\(SessionToken.cookieName)=\(token)", csrfToken: WebSession.csrfToken(forSession: token))
    }
}

@Suite("Tips API")
struct TipsAPITests {
    static func dismissed(_ response: TestResponse) throws -> [String] {
        #expect(response.status == .ok, "\(response.text)")
        return try #require(try response.object()["dismissed"] as? [String])
    }

    @Test("a new user has dismissed nothing; a dismissal is kept, and dismissing twice is the same 204")
    func dismissAndList() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInAsGuest()
            #expect(try Self.dismissed(try await client.api(.get, "/api/v1/tips", session)) == [])

            let first = try await client.api(.post, "/api/v1/tips/first-weekly-average/dismiss", session)
            #expect(first.status == .noContent)
            #expect(first.body.readableBytes == 0)
            #expect(try await client.api(.post, "/api/v1/tips/eating-window/dismiss", session).status == .noContent)
            #expect(try await client.api(.post, "/api/v1/tips/eating-window/dismiss", session).status == .noContent)

            // In the tips' own order, each once.
            #expect(try Self.dismissed(try await client.api(.get, "/api/v1/tips", session)) == ["eating-window", "first-weekly-average"])
        }
    }

    @Test("an unknown tip id is a 404 in the API's error shape, and nothing is stored",
          arguments: ["no-such-tip", "Eating-Window", "learn", "eating_window"])
    func unknownTip(id: String) async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInAsGuest()
            let response = try await client.api(.post, "/api/v1/tips/\(id)/dismiss", session)
            #expect(response.status == .notFound)
            #expect(try response.errorDetail().code == "not_found")
            #expect(try response.errorDetail().message == "Tip not found")
            #expect(try Self.dismissed(try await client.api(.get, "/api/v1/tips", session)) == [])
        }
    }

    @Test("signed out, both routes answer 401")
    func signedOut() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let list = try await client.api(.get, "/api/v1/tips", nil)
            #expect(list.status == .unauthorized)
            #expect(try list.errorDetail().code == "unauthorized")
            #expect(try await client.api(.post, "/api/v1/tips/eating-window/dismiss", nil).status == .unauthorized)
        }
    }

    @Test("user A's dismissals never affect user B, by bearer token or by cookie")
    func crossUser() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let ana = try await client.signInAsGuest()
            let ben = try await client.signInAsGuest()
            #expect(try await client.api(.post, "/api/v1/tips/first-phase-switch/dismiss", ana).status == .noContent)

            #expect(try Self.dismissed(try await client.api(.get, "/api/v1/tips", ben)) == [])
            let benInBrowser = try await WebTestSession.make(for: ben.userId, in: t)
            let byCookie = try await client.execute(uri: "/api/v1/tips", method: .get, headers: [.cookie: benInBrowser.cookie])
            #expect(try Self.dismissed(byCookie) == [])
            #expect(try Self.dismissed(try await client.api(.get, "/api/v1/tips", ana)) == ["first-phase-switch"])
        }
    }

    @Test("with the session cookie, a dismissal needs the page's CSRF token; with a bearer token it does not")
    func csrf() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let api = try await client.signInAsGuest()
            let web = try await WebTestSession.make(for: api.userId, in: t)
            let path = "/api/v1/tips/learn-welcome/dismiss"

            let withoutToken = try await client.execute(uri: path, method: .post, headers: [.cookie: web.cookie])
            #expect(withoutToken.status == .forbidden)
            #expect(try withoutToken.errorDetail().code == "csrf_failed")
            let wrongToken = try await client.execute(
                uri: path, method: .post, headers: [.cookie: web.cookie, WebSession.csrfHeader: "not-the-token"]
            )
            #expect(wrongToken.status == .forbidden)
            #expect(try Self.dismissed(try await client.api(.get, "/api/v1/tips", api)) == [])

            let withToken = try await client.execute(
                uri: path, method: .post, headers: [.cookie: web.cookie, WebSession.csrfHeader: web.csrfToken]
            )
            #expect(withToken.status == .noContent)
            #expect(try Self.dismissed(try await client.api(.get, "/api/v1/tips", api)) == ["learn-welcome"])
        }
    }
}
