import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietCore

@Suite("Auth: what the forms refuse")
struct AuthValidationTests {
    static let emailMessage = "Please enter a valid email address (e.g., you@example.com)"

    @Test("a password shorter than 8 or longer than 128 characters is refused with the field named", arguments: [
        ("", "Password must be at least 8 characters"),
        ("1234567", "Password must be at least 8 characters"),
        ("äöüßéèê", "Password must be at least 8 characters"),
        (String(repeating: "x", count: 129), "Password must be at most 128 characters"),
    ])
    func passwordLength(_ password: String, _ message: String) async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let response = try await client.send(.post, "/api/v1/auth/register", body: credentialsJSON("ana@example.com", password))
            #expect(response.status == .unprocessableContent)
            #expect(response.apiError?.code == "invalid")
            #expect(response.apiError?.message == message)
            #expect(response.apiError?.fields == ["password": message])
            #expect(try await client.login("ana@example.com", password).status != .ok)
        }
    }

    @Test("8 and 128 characters are accepted, counted as a person sees them", arguments: [
        "ryebread", String(repeating: "x", count: 128), "👩‍👩‍👧‍👦🇩🇪éé👍🏽ñ€!",
    ])
    func passwordLengthBounds(_ password: String) async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let registered = try await client.register("ana@example.com", password)
            let login = try await client.login("ana@example.com", password)
            #expect(login.status == .ok)
            #expect(try login.json(SignedInBody.self).user.id == registered.user.id)
        }
    }

    @Test("an address that does not look like an email is refused in the words of 001 §5", arguments: [
        "", "   ", "ana", "ana@", "@example.com", "ana@example", "ana@example.", "ana@.com", "ana example@example.com",
        "ana@exa mple.com", "ana@@example.com", "ana..b@example.com", ".ana@example.com", "ana@-example.com",
        "<ana@example.com>", "ana@example.c", "ana@127.0.0.1",
    ])
    func badEmail(_ email: String) async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            for path in ["/api/v1/auth/register", "/api/v1/auth/login"] {
                let response = try await client.send(.post, path, body: credentialsJSON(email, "correct horse"))
                #expect(response.status == .unprocessableContent, "\(path)")
                #expect(response.apiError?.message == Self.emailMessage)
                #expect(response.apiError?.fields == ["email": Self.emailMessage])
            }
        }
    }

    @Test("both fields wrong: both named, the email's message first")
    func bothFieldsWrong() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let response = try await client.send(.post, "/api/v1/auth/register", body: credentialsJSON("ana", "short"))
            #expect(response.status == .unprocessableContent)
            #expect(response.apiError?.message == Self.emailMessage)
            #expect(response.apiError?.fields == ["email": Self.emailMessage, "password": "Password must be at least 8 characters"])
        }
    }

    @Test("signing in with an empty password asks for it instead of checking it")
    func loginEmptyPassword() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            _ = try await client.register("ana@example.com")
            let response = try await client.login("ana@example.com", "")
            #expect(response.status == .unprocessableContent)
            #expect(response.apiError?.fields == ["password": "Please enter your password"])
        }
    }

    static let malformedBodies: [String?] = [
        nil, "", " ", "{", "}", "null", "[]", "42", "\"ana@example.com\"", "not json",
        #"{"email":"ana@example.com","password":"#,
        #"{"email":"ana@example.com","password":"correct horse""#,
        #"{"email":"ana@example.com"}"#,
        #"{"password":"correct horse"}"#,
        #"{"email":5,"password":"correct horse"}"#,
        #"{"email":"ana@example.com","password":12345678}"#,
        #"{"email":null,"password":"correct horse"}"#,
        #"{"email":["ana@example.com"],"password":"correct horse"}"#,
        #"{"email":"ana@example.com","password":{"value":"correct horse"}}"#,
        "{\"email\":\"ana@example.com\",\"password\":\"\u{FFFD}\u{0000}\"",
    ]

    @Test("a body that is not the JSON asked for is a 400 in the API's shape, never a 5xx", arguments: malformedBodies)
    func malformedBody(_ body: String?) async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let guest = try await client.guest()
            for (path, token) in [("/api/v1/auth/register", nil), ("/api/v1/auth/login", nil), ("/api/v1/auth/upgrade", guest.token)] {
                let response = try await client.send(.post, path, body: body, token: token)
                #expect(response.status == .badRequest, "\(path) \(body ?? "nil"): \(String(buffer: response.body))")
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                #expect(response.apiError?.code == "bad_request")
                #expect(response.apiError?.message.isEmpty == false)
            }
            #expect(try await client.me(guest.token).json(AccountUserBody.self).isGuest)
        }
    }

    @Test("a member of the wrong type is named in fields", arguments: [
        (#"{"email":5,"password":"correct horse"}"#, "email"),
        (#"{"email":"ana@example.com","password":12345678}"#, "password"),
        (#"{"email":"ana@example.com"}"#, "password"),
    ])
    func wrongTypeNamesTheMember(_ body: String, _ member: String) async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let response = try await client.send(.post, "/api/v1/auth/register", body: body)
            #expect(response.status == .badRequest)
            #expect(response.apiError?.fields?.keys.contains(member) == true)
        }
    }

    @Test("a body larger than any form is refused with 413")
    func oversizedBody() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let body = credentialsJSON("ana@example.com", String(repeating: "x", count: 100_000))
            let response = try await client.send(.post, "/api/v1/auth/register", body: body)
            #expect(response.status == .contentTooLarge)
            #expect(response.apiError?.code == "too_large")
        }
    }
}
