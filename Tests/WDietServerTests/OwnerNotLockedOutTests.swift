import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WDietServer
import WDietTestSupport

/// Issue 21 item 11: the sign-in throttle hurts the guesser, not the owner.
@Suite("Auth: guesses do not lock the owner out")
struct OwnerNotLockedOutTests {
    struct LoginBody: Decodable {
        var token: String
        var deviceToken: String?
    }

    @Test("5 wrong guesses from one address lock that address out of the account, not the owner elsewhere")
    func guesserLockedOutNotOwner() async throws {
        let t = try ThrottleTestApp()
        try await t.app.test(.router) { client in
            _ = try await client.register("ana@example.com")
            for _ in 1...5 {
                #expect(try await client.login("ana@example.com", "wrong horse", from: "203.0.113.7").status == .unauthorized)
            }
            #expect(try await client.login("ana@example.com", "correct horse", from: "203.0.113.7").status == .tooManyRequests)
            #expect(try await client.login("ana@example.com", "correct horse", from: "198.51.100.20").status == .ok)
        }
    }

    @Test("guesses from 25 addresses lock out new devices for the window; the owner's device that signed in before is let through")
    func trustedDeviceLetThrough() async throws {
        let t = try ThrottleTestApp()
        try await t.app.test(.router) { client in
            _ = try await client.register("ana@example.com")
            let first = try await client.login("ana@example.com", "correct horse", from: "198.51.100.20")
            #expect(first.status == .ok)
            let device = try #require(try first.json(LoginBody.self).deviceToken)
            for index in 1...25 {
                _ = try await client.login("ana@example.com", "wrong horse", from: "203.0.113.\(index)")
            }
            // The account's untrusted-client counter is full (20): a new device is refused…
            #expect(try await client.login("ana@example.com", "correct horse", from: "198.51.100.30").status == .tooManyRequests)
            // …the device that signed in before is not, from any address.
            let body = String(decoding: try JSONEncoder().encode(["email": "ana@example.com", "password": "correct horse", "deviceToken": device]), as: UTF8.self)
            let trusted = try await client.send(.post, "/api/v1/auth/login", body: body, headers: [HTTPField.Name("X-Forwarded-For")!: "10.0.0.1, 203.0.113.1"])
            #expect(trusted.status == .ok)
            // A made-up device token is no trusted device.
            let forged = String(decoding: try JSONEncoder().encode(["email": "ana@example.com", "password": "correct horse", "deviceToken": String(device.dropLast(2)) + "AA"]), as: UTF8.self)
            #expect(try await client.send(.post, "/api/v1/auth/login", body: forged, headers: [HTTPField.Name("X-Forwarded-For")!: "10.0.0.1, 198.51.100.31"]).status == .tooManyRequests)
        }
    }

    @Test("there is a Forgot password? page, linked from sign-in")
    func forgotPasswordPage() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let login = try await client.execute(uri: "/login", method: .get)
            #expect(String(buffer: login.body).contains(#"<a href="/forgot-password">Forgot password?</a>"#))
            let page = try await client.execute(uri: "/forgot-password", method: .get)
            #expect(page.status == .ok)
        }
    }
}
