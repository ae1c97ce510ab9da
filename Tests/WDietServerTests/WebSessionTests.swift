import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
@testable import WDietServer
import WDietSQLite
import WDietTestSupport

/// A browser as the tests drive it: a cookie jar filled from `Set-Cookie`, form posts, and API calls signed by the
/// session cookie with or without the page's CSRF token.
struct TestBrowser {
    let client: any TestClientProtocol
    var cookies: [String: String] = [:]

    init(_ client: any TestClientProtocol) { self.client = client }

    var session: String? { cookies["wdiet_session"] }
    var csrfToken: String? { session.map(WebSession.csrfToken(forSession:)) }

    mutating func get(_ uri: String) async throws -> TestResponse {
        try await send(.get, uri)
    }

    /// A form post; `_csrf` is sent as given (nil leaves it out).
    mutating func post(_ uri: String, _ fields: [(String, String)] = [], csrf: String?, headers: HTTPFields = [:]) async throws -> TestResponse {
        var all = fields
        if let csrf { all.insert(("_csrf", csrf), at: 0) }
        let body = all.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        var headers = headers
        headers[.contentType] = "application/x-www-form-urlencoded"
        return try await send(.post, uri, headers: headers, body: body)
    }

    /// An API call signed by the cookie; `csrf` goes in `X-CSRF-Token` when given.
    mutating func api(_ method: HTTPRequest.Method, _ uri: String, json: String? = nil, csrf: String?, headers: HTTPFields = [:]) async throws -> TestResponse {
        var headers = headers
        if json != nil { headers[.contentType] = "application/json" }
        if let csrf { headers[WebSession.csrfHeader] = csrf }
        return try await send(method, uri, headers: headers, body: json)
    }

    mutating func send(_ method: HTTPRequest.Method, _ uri: String, headers: HTTPFields = [:], body: String? = nil) async throws -> TestResponse {
        var headers = headers
        if !cookies.isEmpty {
            headers[.cookie] = cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        }
        let response = try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        for line in response.headers[values: .setCookie] {
            let cookie = SetCookie(line)
            if cookie.maxAge == 0 || cookie.value.isEmpty { cookies[cookie.name] = nil } else { cookies[cookie.name] = cookie.value }
        }
        return response
    }

    /// "Continue without an account" on the account step, as the page's form posts it.
    mutating func startGuest() async throws -> TestResponse {
        _ = try await get("/onboarding")
        return try await post("/onboarding/guest", csrf: cookies[WebSession.preSessionCookie])
    }

    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

/// One `Set-Cookie` line, read apart: "name=value; Max-Age=…; Path=/; HttpOnly; SameSite=Lax".
struct SetCookie {
    var name: String
    var value: String
    var attributes: [String: String] = [:]

    init(_ line: String) {
        let parts = line.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        let pair = parts.first.map { $0.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false) } ?? []
        name = pair.first.map(String.init) ?? ""
        value = pair.count > 1 ? String(pair[1]) : ""
        for attribute in parts.dropFirst() {
            let kv = attribute.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            attributes[kv[0].lowercased()] = kv.count > 1 ? String(kv[1]) : ""
        }
    }

    var maxAge: Int? { attributes["max-age"].flatMap { Int($0) } }
    func has(_ attribute: String) -> Bool { attributes[attribute.lowercased()] != nil }
}

extension TestResponse {
    func setCookie(_ name: String) -> SetCookie? {
        headers[values: .setCookie].map(SetCookie.init).first { $0.name == name }
    }
}

@Suite("Web: sessions and CSRF")
struct WebSessionTests {
    static let profileJSON = """
        {"dateOfBirth":"1995-06-15","sex":"male","heightCm":180,"weightKg":80,"goal":"lose","activity":"moderate","timeZone":"UTC"}
        """

    @Test("the guest form sets wdiet_session: HttpOnly, SameSite=Lax, Path=/, 30 days, not Secure without TLS")
    func guestCookie() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            var browser = TestBrowser(client)
            let response = try await browser.startGuest()
            #expect(response.status == .seeOther)
            #expect(response.headers[.location] == "/onboarding/profile")
            let cookie = try #require(response.setCookie("wdiet_session"))
            #expect(cookie.value.count >= 32)
            #expect(cookie.has("HttpOnly"))
            #expect(cookie.attributes["samesite"]?.lowercased() == "lax")
            #expect(cookie.attributes["path"] == "/")
            #expect(cookie.maxAge == 30 * 24 * 60 * 60)
            #expect(!cookie.has("Secure"))
            // The cookie signs the browser in.
            #expect(try await browser.get("/onboarding/profile").status == .ok)
        }
    }

    @Test("behind TLS (secureCookies) the session cookie is Secure")
    func secureCookie() async throws {
        let services = AppServices(database: try AppDatabase.inMemory(), now: TestClock(Fixtures.utc("2026-03-01T09:00:00Z")).closure)
        var logger = Logger(label: "wdiet-test")
        logger.logLevel = .warning
        let app = buildApplication(services: services, configuration: ServerConfiguration(secureCookies: true, bcryptCost: 4), logger: logger)
        try await app.test(.router) { client in
            var browser = TestBrowser(client)
            let page = try await browser.get("/onboarding")
            #expect(page.setCookie(WebSession.preSessionCookie)?.has("Secure") == true)
            let response = try await browser.startGuest()
            let cookie = try #require(response.setCookie("wdiet_session"))
            #expect(cookie.has("Secure"))
            #expect(cookie.has("HttpOnly"))
        }
    }

    @Test("a form post without _csrf, or with a wrong one, is refused with 403 and changes nothing")
    func formsNeedTheToken() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            var browser = TestBrowser(client)
            _ = try await browser.get("/onboarding")
            let preSession = try #require(browser.cookies[WebSession.preSessionCookie])
            #expect(try await browser.post("/onboarding/guest", csrf: nil).status == .forbidden)
            #expect(try await browser.post("/onboarding/guest", csrf: "wrong" + preSession.dropFirst(5)).status == .forbidden)
            #expect(browser.session == nil)

            // Signed in, a form needs the session's token, not the old pre-session one.
            #expect(try await browser.post("/onboarding/guest", csrf: preSession).status == .seeOther)
            let session = try #require(browser.session)
            #expect(try await browser.post("/logout", csrf: nil).status == .forbidden)
            #expect(try await browser.post("/logout", csrf: preSession).status == .forbidden)
            #expect(browser.session == session)
            #expect(try await browser.get("/onboarding/profile").status == .ok)
        }
    }

    @Test("a cookie-signed POST /api/v1/weights needs X-CSRF-Token: 403 without, 201 with")
    func apiCallsNeedTheHeader() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            var browser = TestBrowser(client)
            _ = try await browser.startGuest()
            let csrf = try #require(browser.csrfToken)
            #expect(try await browser.api(.put, "/api/v1/profile", json: Self.profileJSON, csrf: csrf).status == .created)

            let missing = try await browser.api(.post, "/api/v1/weights", json: #"{"kg": 79.4}"#, csrf: nil)
            #expect(missing.status == .forbidden)
            #expect(missing.apiError?.code == "csrf_failed")
            #expect(try await browser.api(.post, "/api/v1/weights", json: #"{"kg": 79.4}"#, csrf: String(csrf.reversed())).status == .forbidden)
            #expect(try await browser.api(.get, "/api/v1/weights", csrf: nil).text.contains("79.4") == false)

            #expect(try await browser.api(.post, "/api/v1/weights", json: #"{"kg": 79.4}"#, csrf: csrf).status == .created)
            // Reading needs no token.
            let list = try await browser.api(.get, "/api/v1/weights", csrf: nil)
            #expect(list.status == .ok)
            #expect(list.text.contains("79.4"))
        }
    }

    @Test("a bearer-token request needs no CSRF token")
    func bearerNeedsNoToken() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile()
            let response = try await client.api(.post, "/api/v1/weights", session, body: #"{"kg": 79.4}"#)
            #expect(response.status == .created)
        }
    }

    @Test("a state-changing request from another site's page (cross-site Origin) is 403, with or without the token")
    func crossSiteOrigin() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            var browser = TestBrowser(client)
            _ = try await browser.startGuest()
            let csrf = try #require(browser.csrfToken)
            let evil: HTTPFields = [.origin: "https://evil.example"]
            #expect(try await browser.api(.put, "/api/v1/profile", json: Self.profileJSON, csrf: csrf, headers: evil).status == .forbidden)
            #expect(try await browser.post("/logout", csrf: csrf, headers: evil).status == .forbidden)
            let userId = try #require(await browser.userId(t))
            #expect(try await t.services.profiles.profile(userId: userId) == nil)
            // The same requests without the foreign Origin go through.
            #expect(try await browser.api(.put, "/api/v1/profile", json: Self.profileJSON, csrf: csrf).status == .created)
        }
    }

    @Test("logout ends the session server-side and clears the cookie; the old cookie no longer signs in")
    func logout() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            var browser = TestBrowser(client)
            _ = try await browser.startGuest()
            let session = try #require(browser.session)
            let csrf = try #require(browser.csrfToken)

            let response = try await browser.post("/logout", csrf: csrf)
            #expect(response.status == .seeOther)
            #expect(response.headers[.location] == "/")
            let cleared = try #require(response.setCookie("wdiet_session"))
            #expect(cleared.value.isEmpty)
            #expect(cleared.maxAge == 0)
            #expect(browser.session == nil)
            #expect(try await t.services.accounts.session(tokenHash: SessionToken.hash(session)) == nil)

            // Replaying the old cookie gets nowhere.
            var replay = TestBrowser(client)
            replay.cookies["wdiet_session"] = session
            #expect(try await replay.api(.get, "/api/v1/profile", csrf: nil).status == .unauthorized)
            let page = try await replay.get("/onboarding/profile")
            #expect(page.status == .seeOther)
            #expect(page.headers[.location] == "/")
        }
    }

    @Test("sign in: a wrong password and an unknown email get the same answer; the right one signs in")
    func login() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            _ = try await client.register("ana@example.com", "correct horse")

            var browser = TestBrowser(client)
            let form = try await browser.get("/login")
            #expect(form.status == .ok)
            let token = try #require(browser.cookies[WebSession.preSessionCookie])
            #expect(form.text.contains(#"name="_csrf" value="\#(token)""#))

            let wrongPassword = try await browser.post("/login", [("email", "ana@example.com"), ("password", "wrong horse")], csrf: browser.cookies[WebSession.preSessionCookie])
            let unknownEmail = try await browser.post("/login", [("email", "bob@example.com"), ("password", "correct horse")], csrf: browser.cookies[WebSession.preSessionCookie])
            for response in [wrongPassword, unknownEmail] {
                #expect(response.status == .unauthorized)
                #expect(response.text.contains("Email or password is incorrect"))
                #expect(response.setCookie("wdiet_session") == nil)
            }
            // The email typed stays in the form; the password does not come back.
            #expect(wrongPassword.text.contains(#"value="ana@example.com""#))
            #expect(!wrongPassword.text.contains("wrong horse"))

            let empty = try await browser.post("/login", [("email", ""), ("password", "")], csrf: browser.cookies[WebSession.preSessionCookie])
            #expect(empty.status == .unprocessableContent)

            let signedIn = try await browser.post("/login", [("email", "ana@example.com"), ("password", "correct horse")], csrf: browser.cookies[WebSession.preSessionCookie])
            #expect(signedIn.status == .seeOther)
            #expect(signedIn.headers[.location] == "/")
            #expect(browser.session != nil)
            // No profile yet: "/" sends the account on to the profile steps.
            #expect(try await browser.get("/").headers[.location] == "/onboarding/profile")
        }
    }
}

extension TestBrowser {
    /// The user the browser's session cookie belongs to.
    func userId(_ t: TestApp) async throws -> UUID? {
        guard let session else { return nil }
        return try await t.services.accounts.session(tokenHash: SessionToken.hash(session))?.userId
    }
}
