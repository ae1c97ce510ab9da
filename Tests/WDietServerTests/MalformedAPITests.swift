import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietTestSupport

@Suite("API: malformed requests are 400/422 JSON, never 5xx")
struct MalformedAPITests {
    static let bodies: [String] = [
        "", "{", "not json", "[]", "null", "42", "\"text\"", "{\"calories\": {}}", "{\"calories\": [1]}",
        "{\"kg\": true}", "{\"loggedAt\": \"yesterday\"}", "{\"loggedAt\": 12}", "{\"id\": \"not-a-uuid\", \"calories\": 100}",
        "{\"id\": 7}", "{\"name\": 5, \"calories\": 100}", "{\"foodId\": 5062, \"grams\": 100}", "{\"sex\": 1}",
        "{\"dietaryPreferences\": \"vegan\"}", "{\"dateOfBirth\": \"1995-02-30\"}", "{\"goal\": \"fly\"}", "{\"baseVersion\": \"x\"}",
        "{\"grams\": {\"a\": 1}}", "{\"lb\": \"\"}", "{\"portion\": 3}", String(repeating: "[", count: 10_000),
        "{\"calories\": 1e400}", "{\"calories\": 100, \"protein\": -0}", "\u{FEFF}{}",
    ]

    @Test("bodies that are not what the endpoint takes", arguments: bodies)
    func malformedBody(_ body: String) async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile()
            let meal = try await client.api(.post, "/api/v1/meals", session, json: ["calories": 100]).object()
            let mealId = try #require(meal["id"] as? String)
            let endpoints: [(HTTPRequest.Method, String)] = [
                (.post, "/api/v1/meals"), (.patch, "/api/v1/meals/\(mealId)"), (.put, "/api/v1/profile"), (.post, "/api/v1/weights"),
            ]
            for (method, path) in endpoints {
                let response = try await client.api(method, path, session, body: body)
                let status = response.status.code
                // A few of these bodies are valid for some endpoint (`{"calories": 100, …}` creates a meal).
                #expect(status < 500, "\(method) \(path) \(body.prefix(40)): \(status) \(response.text)")
                if status >= 400 {
                    #expect([400, 413, 422].contains(status), "\(method) \(path) \(body.prefix(40)): \(status)")
                    #expect(try response.errorDetail().message.isEmpty == false)
                }
            }
        }
    }

    @Test("where the body is wrong, fields names the member")
    func fieldPaths() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile()
            let notJSON = try await client.api(.post, "/api/v1/meals", session, body: "{")
            #expect(notJSON.status == .badRequest)
            #expect(try notJSON.errorDetail().message == "The request body is not valid JSON.")
            let empty = try await client.api(.post, "/api/v1/meals", session, body: "")
            #expect(try empty.errorDetail().message == "The request body is empty: send a JSON object.")
            let array = try await client.api(.post, "/api/v1/meals", session, body: "[]")
            #expect(array.status == .badRequest)

            let badInstant = try await client.api(.post, "/api/v1/meals", session, body: #"{"calories": 100, "loggedAt": "yesterday"}"#)
            #expect(badInstant.status == .badRequest)
            #expect(try badInstant.errorDetail().fields?["loggedAt"] == "Expected an ISO 8601 instant such as 2026-03-01T12:30:00Z")
            let badId = try await client.api(.post, "/api/v1/meals", session, body: #"{"id": "nope", "calories": 100}"#)
            #expect(try badId.errorDetail().fields?["id"] != nil)
            let wrongType = try await client.api(.put, "/api/v1/profile", session, body: #"{"dietaryPreferences": "vegan"}"#)
            #expect(wrongType.status == .badRequest)
            #expect(try wrongType.errorDetail().fields?["dietaryPreferences"] == "Expected a list of text")
            let nested = try await client.api(.put, "/api/v1/profile", session, body: #"{"allergies": ["nuts", 3]}"#)
            #expect(try nested.errorDetail().fields?["allergies.1"] == "Expected text")
        }
    }

    @Test("ids in paths that are not UUIDs: 400")
    func pathIds() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile()
            for (method, path) in [(HTTPRequest.Method.patch, "/api/v1/meals/42"), (.delete, "/api/v1/meals/not-a-uuid"), (.delete, "/api/v1/weights/%20")] {
                let response = try await client.api(method, path, session, body: "{}")
                #expect(response.status == .badRequest, "\(method) \(path)")
                #expect(try response.errorDetail().fields?["id"] != nil)
            }
        }
    }

    @Test("an oversized body is refused before it is read")
    func oversized() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile()
            let body = #"{"name": ""# + String(repeating: "a", count: 100_000) + #"", "calories": 100}"#
            let response = try await client.api(.post, "/api/v1/meals", session, body: body)
            #expect(response.status == .contentTooLarge)
        }
    }
}
