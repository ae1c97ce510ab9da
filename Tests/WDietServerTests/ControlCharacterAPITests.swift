import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietCore
import WDietStore
import WDietTestSupport

/// Issue 21 item 4: a NUL in a text field answered 503 on PostgreSQL (and a syncing device retried that push for
/// ever), 500 for a `foodId` on SQLite, and was cut off silently elsewhere on SQLite (`abc\0def` stored as `abc`).
/// Now every entry point refuses control characters with 422 naming the member, on both backends.
@Suite struct ControlCharacterAPITests {
    static let nulName = #"{"name": "abc\u0000def", "calories": 300}"#

    @Test("API bodies: 422 naming the member, nothing stored", arguments: StoreBackend.allCases)
    func apiBodies(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { _, client in
            let session = try await client.signInWithProfile()
            let meal = try await client.api(.post, "/api/v1/meals", session, body: Self.nulName)
            #expect(meal.status == .unprocessableContent, "\(meal.text)")
            let detail = try meal.errorDetail()
            #expect(detail.code == "invalid")
            #expect(detail.message == "name contains a control character (U+0000), which is not allowed.")
            #expect(detail.fields == ["name": "Contains a control character (U+0000), which is not allowed"])

            let food = try await client.api(.post, "/api/v1/meals", session, body: #"{"foodId": "05064\u0000", "grams": 100}"#)
            #expect(food.status == .unprocessableContent)
            #expect(try food.errorDetail().fields?["foodId"] != nil)

            let zone = try await client.api(.put, "/api/v1/profile", session, json: APIFixtures.profile(["timeZone": "Europe/Berlin\u{1}"]))
            #expect(zone.status == .unprocessableContent)
            #expect(try zone.errorDetail().fields?["timeZone"] == "Contains a control character (U+0001), which is not allowed")

            let events = try await client.api(.post, "/api/v1/events", session, body: #"{"events": [{"id": "\#(UUID().uuidString)", "name": "screen_viewed", "properties": {"screen": "da\u0000sh"}, "occurredAt": "2026-03-01T09:00:00Z"}]}"#)
            #expect(events.status == .unprocessableContent)
            #expect(try events.errorDetail().fields?["events.0.properties.screen"] != nil)

            // Nothing was stored: the day has no meal.
            let meals = try await client.api(.get, "/api/v1/meals?date=2026-03-01", session).object()
            #expect((meals["meals"] as? [Any])?.isEmpty == true, "\(meals)")
        }
    }

    @Test("a query parameter: 422 naming it", arguments: StoreBackend.allCases)
    func queryParameters(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { _, client in
            let session = try await client.signInWithProfile()
            let search = try await client.api(.get, "/api/v1/foods/search?q=app%00le", session)
            #expect(search.status == .unprocessableContent, "\(search.text)")
            #expect(try search.errorDetail().fields == ["q": "Contains a control character (U+0000), which is not allowed"])
        }
    }

    @Test("sync push: the change with the NUL is refused by name, nothing applied; the rest then goes through", arguments: StoreBackend.allCases)
    func syncPush(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { _, client in
            let session = try await client.signInWithProfile()
            func meal(_ key: String, name: String) -> String {
                let id = UUID().uuidString
                return #"{"idempotencyKey": "\#(key)", "entity": "meal", "op": "upsert", "id": "\#(id)", "meal": {"id": "\#(id)", "name": "\#(name)", "kcal": 300, "source": "manual", "loggedAt": "2026-03-01T11:00:00Z"}}"#
            }
            let good = meal("good", name: "Soup")
            let refused = try await client.api(.post, "/api/v1/sync/push", session, body: #"{"changes": [\#(good), \#(meal("bad", name: #"So\u0000up"#))]}"#)
            #expect(refused.status == .unprocessableContent, "\(refused.text)")
            let detail = try refused.errorDetail()
            #expect(detail.code == "invalid_change")
            #expect(detail.message == "Change 1 (bad): meal.name contains a control character (U+0000), which is not allowed.")
            #expect(detail.fields == ["changes.1": "meal.name contains a control character (U+0000), which is not allowed."])

            let badKey = try await client.api(.post, "/api/v1/sync/push", session, body: #"{"changes": [\#(meal(#"k\u0000"#, name: "Tea"))]}"#)
            #expect(badKey.status == .unprocessableContent)
            #expect(try badKey.errorDetail().fields?.keys.first == "changes.0")

            let pull = try await client.api(.get, "/api/v1/sync/pull?cursor=0", session)
            let page = try SyncCoding.decoder.decode(SyncPullResponse.self, from: Data(buffer: pull.body))
            #expect(page.items.map(\.entity) == [.profile], "nothing of the refused pushes was applied")
            let alone = try await client.api(.post, "/api/v1/sync/push", session, body: #"{"changes": [\#(good)]}"#)
            #expect(alone.status == .ok)
        }
    }

    @Test("import: 422 naming the member, nothing imported", arguments: StoreBackend.allCases)
    func importDocument(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { _, client in
            let source = try await client.signInWithProfile()
            #expect(try await client.api(.post, "/api/v1/meals", source, json: ["name": "Stew", "calories": 540]).status == .created)
            let export = try await client.api(.get, "/api/v1/export", source).text
            #expect(export.contains("\"Stew\""))
            let poisoned = export.replacingOccurrences(of: "\"Stew\"", with: #""St\u0000ew""#)
            let target = try await client.signInAsGuest()
            let imported = try await client.api(.post, "/api/v1/import", target, body: poisoned)
            #expect(imported.status == .unprocessableContent, "\(imported.text)")
            #expect(try imported.errorDetail().fields?["meals.0.name"] == "Contains a control character (U+0000), which is not allowed")
            let profile = try await client.api(.get, "/api/v1/profile", target)
            #expect(profile.status == .notFound, "nothing imported")
        }
    }
}

/// The web forms go through the same check (`WebForm.read`): a NUL in a field is a 422 page naming the field, before
/// the page's handler reads the form.
@Suite struct ControlCharacterWebFormTests {
    @Test func aFormFieldWithANulIsRefusedNamingTheField() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            var browser = TestBrowser(client)
            _ = try await browser.startGuest()
            let refused = try await browser.post("/meals/new", [("name", "abc\u{0}def"), ("calories", "300")], csrf: browser.csrfToken)
            #expect(refused.status == .unprocessableContent, "\(refused.status)")
            #expect(String(buffer: refused.body).contains("name contains a control character (U+0000), which is not allowed."))
            // The same form without the NUL is not refused by the check (the page answers as it always did).
            let clean = try await browser.post("/meals/new", [("name", "abc def"), ("calories", "300")], csrf: browser.csrfToken)
            #expect(clean.status != .unprocessableContent || !String(buffer: clean.body).contains("control character"))
        }
    }
}
