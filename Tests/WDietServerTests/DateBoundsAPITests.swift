import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietCore
import WDietStore
import WDietTestSupport

/// Issue 21 item 7: a plan start in year 0 or 9999 was accepted, and `/plan?date=9999-12-31` answered a BMR of
/// −38,411. Every accepted day is now within 1900–2100, a plan start within 2000 and a year from today.
@Suite struct DateBoundsAPITests {
    @Test("planStartDate out of its window: 422 naming it, by the API and by a sync push", arguments: StoreBackend.allCases)
    func planStart(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { _, client in
            let session = try await client.signInAsGuest()
            for day in ["0000-01-01", "9999-12-31", "1999-12-31", "2027-03-03"] {
                let response = try await client.api(.put, "/api/v1/profile", session, json: APIFixtures.profile(["planStartDate": day]))
                #expect(response.status == .unprocessableContent, "\(day): \(response.text)")
                #expect(try response.errorDetail().fields?["planStartDate"] == "planStartDate must be a day from 2000-01-01 to 2027-03-02.", "\(day)")
            }
            // The clock is 2026-03-01 in Berlin: a year and a day ahead is the last accepted start.
            let last = try await client.api(.put, "/api/v1/profile", session, json: APIFixtures.profile(["planStartDate": "2027-03-02"]))
            #expect(last.status == .created, "\(last.text)")

            let pushed = try await client.api(.post, "/api/v1/sync/push", session, body: """
                {"changes": [{"idempotencyKey": "p", "entity": "profile", "op": "upsert", "profile": {"dateOfBirth": "1995-06-15", "sex": "male",
                "heightCm": 180, "weightKg": 80, "goal": "lose", "activity": "moderate", "dietaryPreferences": [], "allergies": [], "mealsPerDay": 3,
                "timeZoneIdentifier": "Europe/Berlin", "eatingWindow": {"startMinute": 720}, "planStartDate": "9999-01-01", "deficit": "minus500",
                "weightUnit": "kg", "heightUnit": "cm"}}]}
                """)
            #expect(pushed.status == .unprocessableContent, "\(pushed.text)")
            #expect(try pushed.errorDetail().fields?["changes.0"] == "planStartDate must be a day from 2000-01-01 to 2100-12-31.")
        }
    }

    @Test("a day parameter outside 1900–2100: 400 naming it; the plan of a far day is never computed", arguments: StoreBackend.allCases)
    func dayParameters(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { _, client in
            let session = try await client.signInWithProfile()
            for path in ["/api/v1/plan?date=9999-12-31", "/api/v1/plan?date=0001-01-01", "/api/v1/meals?date=9999-12-31", "/api/v1/dashboard?date=2101-01-01"] {
                let response = try await client.api(.get, path, session)
                #expect(response.status == .badRequest, "\(path): \(response.text)")
                #expect(try response.errorDetail().fields?["date"] == "date must be a day from 1900-01-01 to 2100-12-31.", "\(path)")
            }
            let plan = try await client.api(.get, "/api/v1/plan?date=2100-12-31", session)
            #expect(plan.status == .ok)
            let bmr = try #require(number(try plan.object()["bmr"]))
            #expect(bmr > 0, "at 105 years old the BMR is still positive: \(bmr)")
        }
    }
}

/// Issue 21 item 9: an import took a meal's or weight's `localDate` as it came, even one that contradicts its
/// `loggedAt` in every time zone. It keeps a day some zone gives (the zone the person was in then) and refuses the rest.
@Suite struct ImportLocalDateTests {
    @Test("a localDate no time zone gives its loggedAt: 422 naming it, nothing imported", arguments: StoreBackend.allCases)
    func contradictingLocalDate(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { _, client in
            let source = try await client.signInWithProfile()
            // Saved at 09:00 UTC on 1 March: 10:00 in Berlin, local day 2026-03-01.
            #expect(try await client.api(.post, "/api/v1/meals", source, json: ["name": "Stew", "calories": 540]).status == .created)
            let export = try await client.api(.get, "/api/v1/export", source).text
            #expect(export.contains(#""localDate":"2026-03-01""#), "\(export.prefix(400))")
            // 09:00 UTC is 1 March everywhere from UTC−9 to UTC+14 and 28 February west of that: 2 March is no zone's.
            let moved = export.replacingOccurrences(of: #""localDate":"2026-03-01""#, with: #""localDate":"2026-03-05""#)
            let target = try await client.signInAsGuest()
            let refused = try await client.api(.post, "/api/v1/import", target, body: moved)
            #expect(refused.status == .unprocessableContent, "\(refused.text)")
            #expect(try refused.errorDetail().fields?["meals.0.localDate"]
                == "localDate 2026-03-05 is not the day of loggedAt in any time zone (it falls on 2026-02-28 to 2026-03-01).")
            // The day of another zone (UTC−10: 23:00 on 28 February) is kept as exported.
            let west = export.replacingOccurrences(of: #""localDate":"2026-03-01""#, with: #""localDate":"2026-02-28""#)
            let kept = try await client.api(.post, "/api/v1/import", target, body: west)
            #expect(kept.status == .created, "\(kept.text)")
        }
    }
}
