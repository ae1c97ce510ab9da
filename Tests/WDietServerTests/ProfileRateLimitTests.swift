import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietTestSupport

/// 001 §12.7: more than 10 profile updates in an hour → 429 with `Retry-After` to the second, counted in the store.
@Suite("Profile update rate limit")
struct ProfileRateLimitTests {
    func update(_ client: some TestClientProtocol, _ session: APISession, meals: Int) async throws -> TestResponse {
        try await client.api(.put, "/api/v1/profile", session, json: APIFixtures.profile(["mealsPerDay": meals]))
    }

    func retryAfter(_ response: TestResponse) throws -> Int? {
        let header = response.headers[.retryAfter].flatMap { Int($0) }
        let body = try response.object()["error"] as? [String: Any]
        #expect(number(body?["retryAfterSeconds"]).map { Int($0) } == header, "header and body agree")
        #expect(body?["code"] as? String == "rate_limited")
        return header
    }

    @Test("ten changes a minute apart pass; the 11th is 429 with Retry-After counted from the first change's hour")
    func eleventhUpdate() async throws {
        let start = Fixtures.utc("2026-03-01T09:00:00Z")
        let t = try TestApp(clockStart: start)
        try await t.app.test(.router) { client in
            // The first profile (onboarding) is not a change and does not count.
            let session = try await client.signInWithProfile()
            for minute in 0..<10 {
                t.clock.set(start.addingTimeInterval(Double(minute) * 60))
                let saved = try await update(client, session, meals: minute % 2 == 0 ? 4 : 5)
                #expect(saved.status == .ok, "change \(minute + 1): \(saved.text)")
            }

            // 09:10:00.5: the first change (09:00:00) leaves the hour at 10:00:00, 2,999.5 s later: rounded up.
            t.clock.set(start.addingTimeInterval(600.5))
            let limited = try await update(client, session, meals: 6)
            #expect(limited.status == .tooManyRequests)
            #expect(try retryAfter(limited) == 3_000)
            #expect(try await client.api(.get, "/api/v1/profile", session).object()["mealsPerDay"].flatMap(number) == 5, "not saved")

            // One second before the hour is up.
            t.clock.set(start.addingTimeInterval(3_599))
            let stillLimited = try await update(client, session, meals: 6)
            #expect(try retryAfter(stillLimited) == 1)

            // At 10:00:00 the first change has left the window: one slot.
            t.clock.set(start.addingTimeInterval(3_600))
            #expect(try await update(client, session, meals: 6).status == .ok)
            // The next slot frees when the change of 09:01:00 leaves, at 10:01:00.
            let next = try await update(client, session, meals: 7)
            #expect(next.status == .tooManyRequests)
            #expect(try retryAfter(next) == 60)
        }
    }

    @Test("identical saves, refused saves (409, 422) and other users do not count")
    func onlyChangesCount() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile()
            let other = try await client.signInWithProfile()
            let version = try #require(number(try await client.api(.get, "/api/v1/profile", session).object()["version"]))
            for _ in 0..<12 {
                // The same profile again (a retried upload).
                #expect(try await client.api(.put, "/api/v1/profile", session, json: APIFixtures.profile()).status == .ok)
                // Stale base version.
                let stale = try await client.api(.put, "/api/v1/profile", session, json: APIFixtures.profile(["mealsPerDay": 4, "baseVersion": Int(version) - 1]))
                #expect(stale.status == .conflict)
                // Invalid.
                #expect(try await update(client, session, meals: 11).status == .unprocessableContent)
            }
            for meals in 1...10 { #expect(try await update(client, other, meals: meals).status == .ok) }
            // Still ten slots for the first user.
            for meals in 1...10 { #expect(try await update(client, session, meals: meals).status == .ok, "change \(meals)") }
            #expect(try await update(client, session, meals: 4).status == .tooManyRequests)
        }
    }
}
