import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WDietServer
import WDietStore
import WDietTestSupport

@Suite("Analytics events (004 Story 5.2): recorded at their moments, never in the user's way")
struct AnalyticsEventsTests {
    /// Events are recorded off the request's path: wait (briefly) until `count` are stored.
    static func events(of userId: UUID, in t: TestApp, atLeast count: Int) async throws -> [AnalyticsEvent] {
        for _ in 0..<100 {
            let events = try await t.services.analytics.events(userId: userId)
            if events.count >= count { return events }
            try await Task.sleep(for: .milliseconds(20))
        }
        return try await t.services.analytics.events(userId: userId)
    }

    @Test("a manual meal at 10:00 in Berlin is meal_logged {source manual, meal_type breakfast}; a weight is weight_logged; a replayed meal id adds nothing")
    func mealAndWeight() async throws {
        let t = try TestApp() // 2026-03-01 09:00 UTC = 10:00 in Berlin
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile()
            let meal = ["id": "5f0c7a52-4a51-4d40-9a0e-0d9c1c7f0a11", "name": "Porridge", "calories": 350] as [String: Any]
            #expect(try await client.api(.post, "/api/v1/meals", session, json: meal).status == .created)
            #expect(try await client.api(.post, "/api/v1/weights", session, json: ["kg": 79.4]).status == .created)
            let events = try await Self.events(of: session.userId, in: t, atLeast: 2)
            let meals = events.filter { $0.name == .mealLogged }
            #expect(meals.map(\.properties) == [["source": "manual", "meal_type": "breakfast"]])
            #expect(events.filter { $0.name == .weightLogged }.map(\.properties) == [["unit": "kg"]])

            #expect(try await client.api(.post, "/api/v1/meals", session, json: meal).status == .created)
            try await Task.sleep(for: .milliseconds(200))
            #expect(try await t.services.analytics.events(userId: session.userId).filter { $0.name == .mealLogged }.count == 1)
        }
    }

    @Test("day 15 of a plan that started 2026-02-15 is the switch to the diet phase: recorded once however often the dashboard loads")
    func phaseSwitchOnce() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile(["planStartDate": "2026-02-15"])
            for _ in 0..<3 {
                #expect(try await client.api(.get, "/api/v1/dashboard", session).status == .ok)
            }
            let events = try await Self.events(of: session.userId, in: t, atLeast: 1)
            let switches = events.filter { $0.name == .cyclePhaseSwitched }
            #expect(switches.count == 1)
            #expect(switches.first?.properties == ["from": "maintenance", "to": "diet", "day_of_plan": "15"])
            // Another day's dashboard (history) is not a moment.
            #expect(try await client.api(.get, "/api/v1/dashboard?date=2026-03-15", session).status == .ok)
            try await Task.sleep(for: .milliseconds(200))
            #expect(try await t.services.analytics.events(userId: session.userId).filter { $0.name == .cyclePhaseSwitched }.count == 1)
        }
    }

    @Test("POST /events: a batch is recorded once even when sent twice; 202 with the count")
    func clientBatch() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInAsGuest()
            let batch: [String: Any] = ["events": [
                ["id": "0b3c1f0e-96a4-4f3f-8d7e-1c2b3a4d5e6f", "name": "screen_view", "properties": ["screen_name": "dashboard"], "occurredAt": "2026-03-01T08:59:00Z"],
                ["id": "1b3c1f0e-96a4-4f3f-8d7e-1c2b3a4d5e6f", "name": "screen_exit", "properties": ["screen_name": "dashboard", "time_spent_seconds": "42"]],
            ]]
            for _ in 0..<2 {
                let response = try await client.api(.post, "/api/v1/events", session, json: batch)
                #expect(response.status == .accepted)
                #expect(number(try response.object()["recorded"]) == 2)
            }
            let events = try await t.services.analytics.events(userId: session.userId)
            #expect(events.map(\.name) == [.screenView, .screenExit])
            #expect(events[0].occurredAt == Fixtures.utc("2026-03-01T08:59:00Z"))
            #expect(events[1].occurredAt == Fixtures.utc("2026-03-01T09:00:00Z"))
            #expect(events[1].properties["time_spent_seconds"] == "42")
        }
    }

    @Test("POST /events refuses, whole and with the member named: server events, unknown names, bad properties, far times, bad ids", arguments: [
        (#"{"name": "meal_logged"}"#, "events[0].name", "The server records this event itself"),
        (#"{"name": "app_opened"}"#, "events[0].name", "Unknown event name"),
        (#"{"name": "screen_view", "properties": {"Screen Name": "x"}}"#, "events[0].properties", "Property names are snake_case, at most 40 characters"),
        (#"{"name": "screen_view", "properties": {"screen_name": "\#(String(repeating: "x", count: 201))"}}"#, "events[0].properties.screen_name", "At most 200 characters"),
        (#"{"name": "screen_view", "occurredAt": "2026-03-03T09:00:00Z"}"#, "events[0].occurredAt", "This time is too far from now"),
        (#"{"name": "screen_view", "id": "not-a-uuid"}"#, "events[0].id", "Expected an id such as 3F2504E0-4F89-11D3-9A0C-0305E82C3301"),
    ])
    func refused(event: String, member: String, message: String) async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInAsGuest()
            let body = #"{"events": ["# + event + #", {"name": "session_start"}]}"#
            let response = try await client.api(.post, "/api/v1/events", session, body: body)
            #expect(response.status == .unprocessableContent)
            #expect(try response.errorDetail().fields == [member: message])
            #expect(try await t.services.analytics.events(userId: session.userId).isEmpty)
        }
    }

    @Test("POST /events: 51 events, none, malformed JSON and no session")
    func limits() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInAsGuest()
            let many = Array(repeating: ["name": "screen_view"] as [String: Any], count: 51)
            #expect(try await client.api(.post, "/api/v1/events", session, json: ["events": many]).status == .unprocessableContent)
            #expect(try await client.api(.post, "/api/v1/events", session, json: ["events": [Any]()]).status == .unprocessableContent)
            #expect(try await client.api(.post, "/api/v1/events", session, body: "{\"events\": [").status == .badRequest)
            #expect(try await client.api(.post, "/api/v1/events", nil, json: ["events": [["name": "screen_view"]]]).status == .unauthorized)
        }
    }
}
