import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietCore
@testable import WDietServer
import WDietTestSupport

/// Issue 21 item 3: imports per account and per client address (429 `too_many_imports` with Retry-After, counted
/// in the login throttle's store, which `LoginThrottleConformanceTests` runs on SQLite and PostgreSQL).
@Suite("Import limits per account and per client address")
struct ImportLimitTests {
    static func from(_ address: String) -> HTTPFields {
        [HTTPField.Name("X-Forwarded-For")!: "10.0.0.1, \(address)"]
    }

    /// A real export: a guest with a profile and one meal.
    static func export(_ client: some TestClientProtocol) async throws -> String {
        let owner = try await client.send(.post, "/api/v1/auth/guest", headers: from("198.51.100.1")).json(SignedInBody.self)
        let profile = #"{"dateOfBirth":"1990-04-02","sex":"female","heightCm":168,"weightKg":72,"goal":"lose","activity":"moderate","timeZone":"UTC"}"#
        #expect((200...201).contains(try await client.send(.put, "/api/v1/profile", body: profile, token: owner.token).status.code))
        #expect(try await client.send(.post, "/api/v1/meals", body: #"{"name":"Porridge","calories":350}"#, token: owner.token).status == .created)
        return String(buffer: try await client.send(.get, "/api/v1/export", token: owner.token).body)
    }

    @Test("10 imports an hour from one address; the 11th is 429 with Retry-After; refused ones cost the address nothing; another address is not affected")
    func perAddress() async throws {
        let t = try ThrottleTestApp()
        try await t.app.test(.router) { client in
            let exported = try await Self.export(client)
            var guests: [String] = []
            for index in 0..<12 {
                // Guests from addresses of their own (10 guests an hour per address).
                guests.append(try await client.send(.post, "/api/v1/auth/guest", headers: Self.from("198.51.100.\(10 + index)")).json(SignedInBody.self).token)
            }
            t.clock.advance(seconds: 60)
            // Not JSON: 400, and the address's slot is given back.
            let broken = try await client.send(.post, "/api/v1/import", body: "{", token: guests[0], headers: Self.from("203.0.113.7"))
            #expect(broken.status == .badRequest)
            for index in 0..<10 {
                t.clock.advance(seconds: 60)
                let response = try await client.send(.post, "/api/v1/import", body: exported, token: guests[index], headers: Self.from("203.0.113.7"))
                #expect(response.status == .created, "import \(index + 1): \(String(buffer: response.body))")
            }
            // An account with data is refused (409) and gives the slot back too, so the 11th is still only refused
            // for the count: the window started at the first import (t+120 s); at t+720 s, 3,000 s remain.
            #expect(try await client.send(.post, "/api/v1/import", body: exported, token: guests[0], headers: Self.from("203.0.113.9")).status == .conflict)
            t.clock.advance(seconds: 60)
            let refused = try await client.send(.post, "/api/v1/import", body: exported, token: guests[10], headers: Self.from("203.0.113.7"))
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers[.retryAfter] == "3000")
            #expect(refused.apiError?.code == "too_many_imports")
            #expect(refused.apiError?.message == "Too many imports into this account or from your network. Please try again in: 50m 0s")
            #expect(try await client.send(.post, "/api/v1/import", body: exported, token: guests[11], headers: Self.from("203.0.113.8")).status == .created)
            t.clock.advance(seconds: 3_000)
            #expect(try await client.send(.post, "/api/v1/import", body: exported, token: guests[10], headers: Self.from("203.0.113.7")).status == .created)
        }
    }

    @Test("20 import attempts an hour into one account, refused ones included; the 21st is 429 from any address")
    func perAccount() async throws {
        let t = try ThrottleTestApp()
        try await t.app.test(.router) { client in
            let exported = try await Self.export(client)
            let guest = try await client.send(.post, "/api/v1/auth/guest", headers: Self.from("198.51.100.2")).json(SignedInBody.self).token
            for attempt in 1...20 {
                t.clock.advance(seconds: 2)
                let response = try await client.send(.post, "/api/v1/import", body: "[1, 2", token: guest, headers: Self.from("203.0.113.\(attempt)"))
                #expect(response.status == .badRequest, "attempt \(attempt)")
            }
            // The window started at the first attempt (t+2 s): at t+50 s, 3,552 s remain.
            t.clock.advance(seconds: 10)
            let refused = try await client.send(.post, "/api/v1/import", body: exported, token: guest, headers: Self.from("203.0.113.99"))
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers[.retryAfter] == "3552")
            #expect(refused.apiError?.code == "too_many_imports")
            t.clock.advance(seconds: 3_552)
            #expect(try await client.send(.post, "/api/v1/import", body: exported, token: guest, headers: Self.from("203.0.113.99")).status == .created)
        }
    }
}
