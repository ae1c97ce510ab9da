import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
import WDietCore
@testable import WDietServer
import WDietSQLite
import WDietStore
import WDietTestSupport

@Suite("Auth: password policy")
struct AuthPasswordPolicyTests {
    @Test("common passwords are refused whatever their case, with a message that says why")
    func commonPasswords() async throws {
        #expect(PasswordPolicy.commonPasswords.count >= 300)
        #expect(PasswordPolicy.newPasswordError("password123", email: nil) == PasswordPolicy.commonPasswordMessage)
        #expect(PasswordPolicy.newPasswordError("PassWord123", email: nil) == PasswordPolicy.commonPasswordMessage)
        #expect(PasswordPolicy.newPasswordError(" qwertyuiop ", email: nil) == PasswordPolicy.commonPasswordMessage)
        #expect(PasswordPolicy.newPasswordError("correct horse", email: nil) == nil)

        let t = try TestApp()
        try await t.app.test(.router) { client in
            let response = try await client.send(.post, "/api/v1/auth/register", body: credentialsJSON("ana@example.com", "Iloveyou1"))
            #expect(response.status == .unprocessableContent)
            #expect(response.apiError?.fields?["password"] == "That password is one of the most common, so it's easy to guess. Please choose another (a short phrase you'll remember works well)")
        }
    }

    @Test("8 to 128 characters as a person counts them, any characters, no composition rules")
    func lengths() {
        #expect(PasswordPolicy.newPasswordError("abcdefg", email: nil) == AccountInput.Message.passwordTooShort)
        #expect(PasswordPolicy.newPasswordError("tomatoes", email: nil) == nil)
        // 8 emoji are 8 characters (32 UTF-8 bytes); 128 accented letters are 128 characters (256 bytes).
        #expect(PasswordPolicy.newPasswordError(String(repeating: "🍅", count: 8), email: nil) == nil)
        #expect(PasswordPolicy.newPasswordError(String(repeating: "é", count: 128), email: nil) == nil)
        #expect(PasswordPolicy.newPasswordError(String(repeating: "é", count: 129), email: nil) == AccountInput.Message.passwordTooLong)
        #expect(PasswordPolicy.newPasswordError("all lowercase words", email: nil) == nil)
    }

    @Test("the email or its name part is not a password")
    func emailAsPassword() {
        #expect(PasswordPolicy.newPasswordError("ana.lopez@example.com", email: "ana.lopez@example.com") == PasswordPolicy.containsEmailMessage)
        #expect(PasswordPolicy.newPasswordError("Ana.Lopez", email: "ana.lopez@example.com") == PasswordPolicy.containsEmailMessage)
        #expect(PasswordPolicy.newPasswordError("ana.lopez runs", email: "ana.lopez@example.com") == nil)
    }
}

@Suite("Auth: unknown email and wrong password look the same")
struct AuthEnumerationTests {
    @Test("same status, same body, one bcrypt check each")
    func indistinguishable() async throws {
        let services = AppServices(database: try AppDatabase.inMemory(), now: TestClock(Fixtures.utc("2026-03-01T09:00:00Z")).closure)
        let hasher = PasswordHasher(cost: 4)
        let accounts = AccountService(services: services, passwords: hasher)
        _ = try await accounts.register(email: "ana@example.com", password: "correct horse", kind: .api)

        func attempt(_ email: String, address: String) async throws -> (APIError, checks: Int) {
            let before = hasher.checkCount
            do {
                _ = try await accounts.login(email: email, password: "wrong horse", kind: .api, clientAddress: address)
                Issue.record("signed in")
                return (APIError.unauthorized, 0)
            } catch {
                // As the API answers it: status, code, message and fields.
                return (APIError.from(error), hasher.checkCount - before)
            }
        }
        let unknown = try await attempt("nobody@example.com", address: "192.0.2.1")
        let wrong = try await attempt("ana@example.com", address: "192.0.2.2")
        let unknownAgain = try await attempt("nobody@example.com", address: "192.0.2.3")
        #expect(unknown.0 == wrong.0)
        #expect(wrong.0 == APIError(.unauthorized, code: "invalid_credentials", message: "Email or password is incorrect"))
        #expect(unknown.checks == 1 && wrong.checks == 1 && unknownAgain.checks == 1)

        let t = try TestApp()
        try await t.app.test(.router) { client in
            _ = try await client.register("ana@example.com")
            let unknown = try await client.login("nobody@example.com", "wrong horse")
            let wrong = try await client.login("ana@example.com", "wrong horse")
            #expect(unknown.status == .unauthorized && wrong.status == .unauthorized)
            #expect(String(buffer: unknown.body) == String(buffer: wrong.body))
            #expect(String(buffer: wrong.body) == #"{"error":{"code":"invalid_credentials","message":"Email or password is incorrect"}}"#)
        }
    }
}

/// The server trusting X-Forwarded-For, so a test can speak from several addresses.
struct ThrottleTestApp {
    let services: AppServices
    let clock: TestClock
    let app: any ApplicationProtocol

    init(database: AppDatabase? = nil) throws {
        clock = TestClock(Fixtures.utc("2026-03-01T09:00:00Z"))
        services = AppServices(database: try database ?? AppDatabase.inMemory(), now: clock.closure)
        var logger = Logger(label: "wdiet-test")
        logger.logLevel = .critical
        app = buildApplication(services: services, configuration: ServerConfiguration(bcryptCost: 4, trustForwardedFor: true), logger: logger)
    }
}

extension TestClientProtocol {
    func login(_ email: String, _ password: String, from address: String) async throws -> TestResponse {
        try await send(.post, "/api/v1/auth/login", body: credentialsJSON(email, password), headers: [HTTPField.Name("X-Forwarded-For")!: "10.0.0.1, \(address)"])
    }
}

@Suite("Auth: sign-in throttling")
struct AuthThrottleTests {
    @Test("5 failures for an email from one address: the 6th attempt from there, even the right password, is 429 with Retry-After until the window ends")
    func perAccount() async throws {
        let t = try ThrottleTestApp()
        try await t.app.test(.router) { client in
            _ = try await client.register("ana@example.com")
            for attempt in 1...5 {
                t.clock.advance(seconds: 10)
                let response = try await client.login("ana@example.com", "wrong horse", from: "198.51.100.9")
                #expect(response.status == .unauthorized, "attempt \(attempt)")
            }
            // The window started at the first failure (t+10 s) and lasts 900 s: at t+60 s, 850 s remain.
            t.clock.advance(seconds: 10)
            let locked = try await client.login("ana@example.com", "correct horse", from: "198.51.100.9")
            #expect(locked.status == .tooManyRequests)
            #expect(locked.headers[.retryAfter] == "850")
            #expect(locked.apiError?.code == "too_many_attempts")
            #expect(locked.apiError?.message == "Too many sign-in attempts. For your security, please wait before trying again. Try again in: 14m 10s")

            t.clock.advance(seconds: 849)
            #expect(try await client.login("ana@example.com", "correct horse", from: "198.51.100.9").headers[.retryAfter] == "1")
            t.clock.advance(seconds: 1)
            #expect(try await client.login("ana@example.com", "correct horse", from: "198.51.100.9").status == .ok)
        }
    }

    @Test("an email without an account is throttled the same way, so a 429 tells nothing")
    func unknownEmailThrottled() async throws {
        let t = try ThrottleTestApp()
        try await t.app.test(.router) { client in
            for _ in 1...5 { _ = try await client.login("nobody@example.com", "wrong horse", from: "198.51.100.1") }
            let locked = try await client.login("nobody@example.com", "wrong horse", from: "198.51.100.1")
            #expect(locked.status == .tooManyRequests)
            #expect(locked.headers[.retryAfter] == "900")
        }
    }

    @Test("a success clears the email's count; another email is not affected")
    func successClears() async throws {
        let t = try ThrottleTestApp()
        try await t.app.test(.router) { client in
            _ = try await client.register("ana@example.com")
            _ = try await client.register("ben@example.com")
            for _ in 1...4 { _ = try await client.login("ana@example.com", "wrong horse", from: "198.51.100.1") }
            #expect(try await client.login("ana@example.com", "correct horse", from: "198.51.100.1").status == .ok)
            for _ in 1...4 { _ = try await client.login("ana@example.com", "wrong horse", from: "198.51.100.1") }
            #expect(try await client.login("ana@example.com", "wrong horse", from: "198.51.100.1").status == .unauthorized)
            #expect(try await client.login("ana@example.com", "correct horse", from: "198.51.100.1").status == .tooManyRequests)
            #expect(try await client.login("ben@example.com", "correct horse", from: "198.51.100.2").status == .ok)
        }
    }

    @Test("20 failures from one address lock that address for every email, not other addresses")
    func perAddress() async throws {
        let t = try ThrottleTestApp()
        try await t.app.test(.router) { client in
            _ = try await client.register("ana@example.com")
            for index in 1...20 {
                #expect(try await client.login("user\(index)@example.com", "wrong horse", from: "203.0.113.7").status == .unauthorized)
            }
            let locked = try await client.login("ana@example.com", "correct horse", from: "203.0.113.7")
            #expect(locked.status == .tooManyRequests)
            #expect(locked.headers[.retryAfter] == "900")
            #expect(try await client.login("ana@example.com", "correct horse", from: "203.0.113.8").status == .ok)
        }
    }

    @Test("the web sign-in answers 429 with the wait on the page")
    func webLogin() async throws {
        let t = try ThrottleTestApp()
        try await t.app.test(.router) { client in
            for _ in 1...5 { _ = try await client.login("ana@example.com", "wrong horse", from: "198.51.100.1") }
            let page = try await client.execute(uri: "/login", method: .get)
            let cookie = page.headers[values: .setCookie].first { $0.hasPrefix(WebSession.preSessionCookie + "=") }!
            let csrf = String(cookie.dropFirst(WebSession.preSessionCookie.count + 1).prefix { $0 != ";" })
            let response = try await client.execute(
                uri: "/login", method: .post,
                headers: [
                    .contentType: "application/x-www-form-urlencoded", .cookie: "\(WebSession.preSessionCookie)=\(csrf)",
                    HTTPField.Name("X-Forwarded-For")!: "198.51.100.1",
                ],
                body: ByteBuffer(string: "_csrf=\(csrf)&email=ana%40example.com&password=wrong+horse")
            )
            #expect(response.status == .tooManyRequests)
            #expect(response.headers[.retryAfter] == "900")
            #expect(String(buffer: response.body).contains("Too many sign-in attempts. For your security, please wait before trying again. Try again in: 15m 0s"))
        }
    }

    @Test("two server processes on one database count the same failures")
    func sharedAcrossProcesses() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("throttle-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let first = try ThrottleTestApp(database: AppDatabase.open(path: path))
        let second = try ThrottleTestApp(database: AppDatabase.open(path: path))
        // Three failures through one process, two through the other: the sixth attempt is refused by both.
        try await first.app.test(.router) { client in
            for _ in 1...3 {
                let status = try await client.login("ana@example.com", "wrong horse", from: "198.51.100.1").status
                #expect(status == .unauthorized)
            }
        }
        try await second.app.test(.router) { client in
            for _ in 4...5 {
                let status = try await client.login("ana@example.com", "wrong horse", from: "198.51.100.1").status
                #expect(status == .unauthorized)
            }
            let status = try await client.login("ana@example.com", "wrong horse", from: "198.51.100.1").status
            #expect(status == .tooManyRequests)
        }
        try await first.app.test(.router) { client in
            let status = try await client.login("ana@example.com", "wrong horse", from: "198.51.100.1").status
            #expect(status == .tooManyRequests)
        }
    }

    @Test("the store counts in windows: a failure after the window starts over at 1")
    func storeWindows() async throws {
        let store = SQLiteLoginThrottleStore(database: try AppDatabase.inMemory())
        let start = Fixtures.utc("2026-03-01T09:00:00Z")
        try await store.recordFailure(keys: ["a", "b"], now: start, window: 900)
        let counts = try await store.recordFailure(keys: ["a"], now: start.addingTimeInterval(899), window: 900)
        #expect(counts == [LoginFailureCount(key: "a", failures: 2, windowStartedAt: start)])
        #expect(try await store.failureCounts(keys: ["a", "b", "c"], now: start.addingTimeInterval(899.9), window: 900).map(\.failures) == [2, 1])
        #expect(try await store.failureCounts(keys: ["a", "b"], now: start.addingTimeInterval(900), window: 900) == [])
        let restarted = try await store.recordFailure(keys: ["a"], now: start.addingTimeInterval(900), window: 900)
        #expect(restarted == [LoginFailureCount(key: "a", failures: 1, windowStartedAt: start.addingTimeInterval(900))])
        try await store.clearFailures(key: "a")
        #expect(try await store.failureCounts(keys: ["a"], now: start.addingTimeInterval(901), window: 900) == [])
    }

    @Test("the email's count from every untrusted client: 20 failures from 20 addresses refuse a 21st address")
    func accountWide() async throws {
        let t = try ThrottleTestApp()
        try await t.app.test(.router) { client in
            _ = try await client.register("ana@example.com")
            for index in 1...20 {
                #expect(try await client.login("ana@example.com", "wrong horse", from: "203.0.113.\(index)").status == .unauthorized)
            }
            let locked = try await client.login("ana@example.com", "correct horse", from: "198.51.100.21")
            #expect(locked.status == .tooManyRequests)
            #expect(locked.headers[.retryAfter] == "900")
        }
    }
}

@Suite("Auth: password change and ending sessions")
struct AuthPasswordChangeTests {
    static func changeJSON(_ current: String, _ new: String) -> String {
        String(decoding: try! JSONEncoder().encode(["currentPassword": current, "newPassword": new]), as: UTF8.self)
    }

    @Test("a password change ends every session at once and answers a new token")
    func changeEndsSessions() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let phone = try await client.register("ana@example.com")
            let tablet = try await client.login("ana@example.com").json(SignedInBody.self)
            // Both sessions are in the cache now; the change must not leave them working for its 10 seconds.
            #expect(try await client.me(phone.token).status == .ok)
            #expect(try await client.me(tablet.token).status == .ok)

            let changed = try await client.send(.post, "/api/v1/auth/password", body: Self.changeJSON("correct horse", "battery staple"), token: phone.token)
            #expect(changed.status == .ok, "\(String(buffer: changed.body))")
            #expect(changed.headers[.cacheControl] == "no-store")
            let fresh = try changed.json(SignedInBody.self)
            #expect(fresh.user.id == phone.user.id)
            #expect(fresh.token != phone.token && fresh.token != tablet.token)

            #expect(try await client.me(phone.token).status == .unauthorized)
            #expect(try await client.me(tablet.token).status == .unauthorized)
            #expect(try await client.me(fresh.token).status == .ok)
            #expect(try await client.login("ana@example.com", "correct horse").status == .unauthorized)
            #expect(try await client.login("ana@example.com", "battery staple").status == .ok)
        }
    }

    @Test("wrong current password, common or unchanged new password, a guest: clear 4xx, nothing changed")
    func refusals() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let ana = try await client.register("ana@example.com")
            let wrong = try await client.send(.post, "/api/v1/auth/password", body: Self.changeJSON("wrong horse", "battery staple"), token: ana.token)
            #expect(wrong.status == .unauthorized)
            #expect(wrong.apiError?.fields?["currentPassword"] == "Your current password is incorrect")

            let common = try await client.send(.post, "/api/v1/auth/password", body: Self.changeJSON("correct horse", "Password1"), token: ana.token)
            #expect(common.status == .unprocessableContent)
            #expect(common.apiError?.fields?["newPassword"] == PasswordPolicy.commonPasswordMessage)

            let same = try await client.send(.post, "/api/v1/auth/password", body: Self.changeJSON("correct horse", "correct horse"), token: ana.token)
            #expect(same.apiError?.fields?["newPassword"] == "Please choose a password that is different from your current one")

            let short = try await client.send(.post, "/api/v1/auth/password", body: Self.changeJSON("", "short"), token: ana.token)
            #expect(short.apiError?.fields == ["currentPassword": "Please enter your current password", "newPassword": AccountInput.Message.passwordTooShort])

            #expect(try await client.me(ana.token).status == .ok)
            #expect(try await client.login("ana@example.com", "correct horse").status == .ok)

            let guest = try await client.guest()
            let noPassword = try await client.send(.post, "/api/v1/auth/password", body: Self.changeJSON("x", "battery staple"), token: guest.token)
            #expect(noPassword.status == .conflict)
            #expect(noPassword.apiError?.code == "no_password")
            #expect(try await client.send(.post, "/api/v1/auth/password", body: Self.changeJSON("correct horse", "battery staple")).status == .unauthorized)
        }
    }

    @Test("sign out everywhere ends every session of the user and no one else's")
    func logoutEverywhere() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let phone = try await client.register("ana@example.com")
            let tablet = try await client.login("ana@example.com").json(SignedInBody.self)
            let ben = try await client.register("ben@example.com")
            #expect(try await client.me(tablet.token).status == .ok)
            #expect(try await client.send(.post, "/api/v1/auth/logout-all", token: phone.token).status == .noContent)
            #expect(try await client.me(phone.token).status == .unauthorized)
            #expect(try await client.me(tablet.token).status == .unauthorized)
            #expect(try await client.me(ben.token).status == .ok)
        }
    }
}
