import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietTestSupport

/// Issue 17: every meal has a slot (breakfast, lunch, dinner, snack), chosen or defaulted from its local time by 002's
/// buckets, and `meal_logged`'s `meal_type` is that slot.
@Suite("Meal slot API")
struct MealSlotAPITests {
    @Test("without a slot a meal takes its local time's (10:00, 15:30 and 21:00 in Berlin: breakfast, snack, snack); a chosen one is kept", arguments: StoreBackend.allCases)
    func defaultedAndChosen(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInWithProfile()
            var slots: [String?] = []
            for at in ["2026-03-01T09:00:00Z", "2026-03-01T14:30:00Z", "2026-03-01T20:00:00Z"] {
                let response = try await client.api(.post, "/api/v1/meals", session, json: ["name": "Toast", "calories": 200, "loggedAt": at])
                #expect(response.status == .created)
                slots.append(try response.object()["slot"] as? String)
            }
            #expect(slots == ["breakfast", "snack", "snack"])

            let chosen = try await client.api(.post, "/api/v1/meals", session, json: [
                "name": "Leftover pasta", "calories": 500, "loggedAt": "2026-03-01T09:30:00Z", "slot": "dinner",
            ])
            #expect(try chosen.object()["slot"] as? String == "dinner")
            let events = try await t.services.analytics.events(userId: session.userId).filter { $0.name == .mealLogged }
            #expect(events.map { $0.properties["meal_type"] } == ["breakfast", "snack", "snack", "dinner"])

            let day = try await client.api(.get, "/api/v1/meals?date=2026-03-01", session).object()
            let daySlots = (day["meals"] as? [[String: Any]])?.compactMap { $0["slot"] as? String }
            #expect(daySlots == ["snack", "snack", "dinner", "breakfast"])
        }
    }

    @Test("PATCH moves a meal to another slot; an unknown slot is 422 with the slot's message", arguments: StoreBackend.allCases)
    func patchAndRefuse(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { _, client in
            let session = try await client.signInWithProfile()
            let bad = try await client.api(.post, "/api/v1/meals", session, json: ["calories": 200, "slot": "brunch"])
            #expect(bad.status == .unprocessableContent)
            #expect(try bad.errorDetail().fields == ["slot": "Please choose Breakfast, Lunch, Dinner or Snack"])

            let saved = try await client.api(.post, "/api/v1/meals", session, json: ["name": "Soup", "calories": 200])
            let id = try #require(try saved.object()["id"] as? String)
            #expect(try saved.object()["slot"] as? String == "breakfast")
            let moved = try await client.api(.patch, "/api/v1/meals/\(id)", session, json: ["slot": "lunch"])
            #expect(moved.status == .ok)
            #expect(try moved.object()["slot"] as? String == "lunch")
            #expect(number(try moved.object()["calories"]) == 200)
            let refused = try await client.api(.patch, "/api/v1/meals/\(id)", session, json: ["slot": 3])
            #expect(refused.status.code >= 400 && refused.status.code < 500)
        }
    }
}
