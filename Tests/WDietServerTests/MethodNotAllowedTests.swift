import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietTestSupport
@testable import WDietServer

/// Issue 21 item 10: schemathesis sent 52 methods the document does not have to paths it does have, and each was
/// answered 404, as if the path did not exist. Now 405 with `Allow` naming the path's methods (RFC 9110 §15.5.6).
@Suite("API: a method a known path does not have is 405 with Allow")
struct MethodNotAllowedTests {
    @Test("405 with the route's methods, signed in or not; unknown paths and a handler's own 404 stay 404")
    func methodNotAllowed() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile()
            let cases: [(HTTPRequest.Method, String, String)] = [
                (.delete, "/api/v1/plan", "GET"),
                (.post, "/api/v1/profile", "GET, PUT"),
                (.patch, "/api/v1/weights", "GET, POST"),
                (.get, "/api/v1/auth/login", "POST"),
                (.put, "/api/v1/meals/2b0a4c55-8c6e-4b8a-9a57-3e2d1c0b9a88", "DELETE, PATCH"),
                // A literal segment wins over a parameter, as in the router: /meals/batch is not /meals/{id}.
                (.get, "/api/v1/meals/batch", "POST"),
                (.init("TRACE")!, "/api/v1/health", "GET"),
                (.options, "/api/v1/journal/entries", "GET, POST"),
            ]
            for (method, path, allow) in cases {
                for signedIn in [session, nil] {
                    let response = try await client.api(method, path, signedIn)
                    #expect(response.status == .methodNotAllowed, "\(method) \(path): \(response.status) \(response.text)")
                    #expect(response.headers[.allow] == allow, "\(method) \(path)")
                    let error = try response.errorDetail()
                    #expect(error.code == "method_not_allowed")
                    #expect(error.message == "Method Not Allowed")
                }
            }
            // A path no route has, and a route's own "not found", are still 404.
            let unknown = try await client.api(.get, "/api/v1/nothing-here", session)
            #expect(unknown.status == .notFound)
            #expect(unknown.headers[.allow] == nil)
            let missingMeal = try await client.api(.delete, "/api/v1/meals/2b0a4c55-8c6e-4b8a-9a57-3e2d1c0b9a88", session)
            #expect(missingMeal.status == .notFound)
            // The web app's pages keep their 404 page.
            let page = try await client.execute(uri: "/settings", method: .delete)
            #expect(page.status != .methodNotAllowed)
        }
    }

    @Test("the German reason phrase for a German reader")
    func german() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let response = try await client.execute(uri: "/api/v1/plan", method: .delete, headers: [.acceptLanguage: "de"])
            #expect(response.status == .methodNotAllowed)
            #expect(response.headers[.allow] == "GET")
            #expect(String(buffer: response.body).contains("Methode nicht erlaubt"))
        }
    }

    /// Found by schemathesis: `DELETE /challenge/days/{date}/{kind}` stood beside `PUT …/nutrition`, `…/workout` and
    /// `…/habits`; the router takes the literal segment and does not come back to `{kind}`, so every delete of a day's
    /// log answered 404 (the one test asked only for a day with nothing logged). Now a DELETE on each PUT's path.
    @Test("a day's logs can be deleted, each kind on its own path", arguments: StoreBackend.allCases)
    func challengeDayDelete(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend, clockStart: Fixtures.utc("2026-12-01T09:00:00Z")) { _, client in
            let session = try await client.signInWithProfile()
            let started = try await client.api(.post, "/api/v1/challenge", session, json: ["startDate": "2026-11-30", "goalWeight": 75, "startWeight": 80])
            #expect(started.status == .created)
            let bodies: [(String, [String: Any])] = [
                ("nutrition", ["kcal": 2_100, "protein": 150, "carbs": 200, "fat": 70]),
                ("workout", ["type": "push"]),
                ("habits", ["water": true, "sleep": true]),
            ]
            for (kind, body) in bodies {
                let path = "/api/v1/challenge/days/2026-11-30/\(kind)"
                let saved = try await client.api(.put, path, session, json: body)
                #expect(saved.status == .ok, "\(kind): \(saved.text)")
                let deleted = try await client.api(.delete, path, session)
                #expect(deleted.status == .noContent, "\(kind): \(deleted.status) \(deleted.text)")
                #expect(try await client.api(.delete, path, session).status == .notFound, "\(kind) deleted twice")
            }
            let day = try await client.api(.get, "/api/v1/challenge/days/2026-11-30", session).object()
            #expect((day["nutrition"] as? [String: Any])?["state"] as? String == "pending", "\(day)")
            #expect((day["workout"] as? [String: Any])?["state"] as? String == "pending", "\(day)")
            #expect(number((day["habits"] as? [String: Any])?["ticked"]) == 0, "\(day)")
            // No such kind: no route.
            #expect(try await client.api(.delete, "/api/v1/challenge/days/2026-11-30/sleep", session).status == .notFound)
        }
    }
}
