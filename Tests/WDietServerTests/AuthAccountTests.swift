import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietCore
import WDietTestSupport

@Suite("Auth: register, login, logout, me")
struct AuthAccountTests {
    @Test("register, me, login, logout: one account, two sessions", arguments: StoreBackend.allCases)
    func roundTrip(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let registered = try await client.register("Ana@Example.com")
            #expect(registered.user.email == "ana@example.com")
            #expect(registered.user.isGuest == false)
            #expect(registered.token.count == 43)

            let me = try await client.me(registered.token)
            #expect(me.status == .ok)
            #expect(try me.json(AccountUserBody.self) == registered.user)

            let login = try await client.login("ana@example.com")
            #expect(login.status == .ok)
            #expect(login.headers[.cacheControl] == "no-store")
            let signedIn = try login.json(SignedInBody.self)
            #expect(signedIn.user == registered.user)
            #expect(signedIn.token != registered.token)

            let logout = try await client.send(.post, "/api/v1/auth/logout", token: signedIn.token)
            #expect(logout.status == .noContent)
            #expect(try await client.me(signedIn.token).status == .unauthorized)
        }
    }

    @Test("register answers 201 with the token and the user, and the JSON spells a guest's email as null", arguments: StoreBackend.allCases)
    func registerShape(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let response = try await client.send(.post, "/api/v1/auth/register", body: credentialsJSON("ana@example.com", "correct horse"))
            #expect(response.status == .created)
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            let object = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
            #expect(object.map { Set($0.keys) } == ["token", "user"])
            #expect((object?["user"] as? [String: Any]).map { Set($0.keys) } == ["id", "email", "isGuest"])

            let guest = try await client.send(.post, "/api/v1/auth/guest")
            #expect(String(buffer: guest.body).contains(#""email":null"#))
        }
    }

    @Test("logout ends only the session it was sent with", arguments: StoreBackend.allCases)
    func logoutEndsOneSession(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let phone = try await client.register("ana@example.com")
            let tablet = try await client.login("ana@example.com").json(SignedInBody.self)

            #expect(try await client.send(.post, "/api/v1/auth/logout", token: phone.token).status == .noContent)

            #expect(try await client.me(phone.token).status == .unauthorized)
            #expect(try await client.me(tablet.token).status == .ok)
            // A second logout with the ended token is a 401, like any other request with it.
            #expect(try await client.send(.post, "/api/v1/auth/logout", token: phone.token).status == .unauthorized)
        }
    }

    @Test("an email is taken whatever its case or surrounding spaces", arguments: StoreBackend.allCases, [
        "ana@example.com", "ANA@EXAMPLE.COM", "Ana@Example.Com", "  ana@example.com ",
    ])
    func duplicateEmail(_ backend: StoreBackend, _ email: String) async throws {
        try await TestApp.test(backend) { _, client in
            _ = try await client.register("ana@example.com")
            let response = try await client.send(.post, "/api/v1/auth/register", body: credentialsJSON(email, "another password"))
            #expect(response.status == .conflict)
            #expect(response.apiError?.code == "email_taken")
            #expect(response.apiError?.fields == ["email": "An account with this email already exists"])
        }
    }

    @Test("sign-in is case-insensitive in the email and exact in the password", arguments: StoreBackend.allCases)
    func loginMatching(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let registered = try await client.register("ana@example.com", "Correct Horse 1")
            let login = try await client.login(" ANA@example.COM", "Correct Horse 1")
            #expect(login.status == .ok)
            #expect(try login.json(SignedInBody.self).user.id == registered.user.id)
            #expect(try await client.login("ana@example.com", "correct horse 1").status == .unauthorized)
            #expect(try await client.login("ana@example.com", "Correct Horse 1 ").status == .unauthorized)
        }
    }

    @Test("a wrong password and an unknown email get the same status and the same body", arguments: StoreBackend.allCases)
    func wrongPasswordAndUnknownEmailLookAlike(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            _ = try await client.register("ana@example.com")
            let wrongPassword = try await client.login("ana@example.com", "not the password")
            let unknownEmail = try await client.login("bob@example.com", "not the password")

            #expect(wrongPassword.status == .unauthorized)
            #expect(unknownEmail.status == wrongPassword.status)
            #expect(String(buffer: unknownEmail.body) == String(buffer: wrongPassword.body))
            #expect(wrongPassword.apiError?.code == "invalid_credentials")
            #expect(wrongPassword.apiError?.message == "Email or password is incorrect")
        }
    }

    @Test("a guest has no password to sign in with", arguments: StoreBackend.allCases)
    func guestCannotLogIn(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            _ = try await client.guest()
            #expect(try await client.login("guest@example.com").status == .unauthorized)
        }
    }

    @Test("me needs a live bearer token", arguments: [
        nil, "Bearer", "Bearer ", "Bearer not-a-token", "Basic YW5hOnBhc3N3b3Jk",
        "Bearer AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "Bearer ' OR 1=1 --",
    ])
    func meWithoutASession(_ authorization: String?) async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            _ = try await client.register("ana@example.com")
            var headers: HTTPFields = [:]
            if let authorization { headers[.authorization] = authorization }
            let response = try await client.send(.get, "/api/v1/auth/me", headers: headers)
            #expect(response.status == .unauthorized)
            #expect(response.apiError?.code == "unauthorized")
        }
    }

    @Test("the bearer scheme is case-insensitive and the token may be padded; another scheme is no token", arguments: StoreBackend.allCases)
    func bearerSchemeCase(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let token = try await client.register("ana@example.com").token
            for accepted in ["bearer \(token)", "BEARER \(token)", "BeArEr   \(token) \t", "Bearer \t\(token)"] {
                let response = try await client.send(.get, "/api/v1/auth/me", headers: [.authorization: accepted])
                #expect(response.status == .ok, "\(accepted.debugDescription)")
            }
            for refused in ["Bearers \(token)", "Bear \(token)", "Bearer \(token)x", "Bearer \(token) x", "Bëarer \(token)"] {
                let response = try await client.send(.get, "/api/v1/auth/me", headers: [.authorization: refused])
                #expect(response.status == .unauthorized, "\(refused.debugDescription)")
            }
        }
    }
}
