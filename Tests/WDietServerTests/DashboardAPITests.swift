import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietTestSupport

@Suite("Dashboard API")
struct DashboardAPITests {
    @Test("a day with nothing logged: 0 cal, grey streak, the weight prompt, no smileys, Day 4 of 14", arguments: StoreBackend.allCases)
    func empty(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInWithProfile()
            let response = try await client.api(.get, "/api/v1/dashboard", session)
            #expect(response.status == .ok)
            let day = try response.object()
            #expect(day["date"] as? String == "2026-03-01")
            let streak = try #require(day["streak"] as? [String: Any])
            #expect(number(streak["days"]) == 0)
            #expect(streak["activeToday"] as? Bool == false)
            #expect(streak["milestone"] == nil)
            let targets = try #require(day["targets"] as? [String: Any])
            #expect(number(targets["calories"]) == 2_759)
            #expect(number(targets["protein"]) == 160)
            let totals = try #require(day["totals"] as? [String: Any])
            #expect(number(totals["calories"]) == 0)
            #expect(number(totals["mealCount"]) == 0)
            let ring = try #require(day["ring"] as? [String: Any])
            #expect((ring["arcs"] as? [Any])?.isEmpty == true)
            #expect(number(ring["targetKcal"]) == 2_759)
            let macros = try #require(day["macros"] as? [[String: Any]])
            #expect(macros.map { $0["macro"] as? String } == ["protein", "carbs", "fat"])
            #expect(macros.allSatisfy { $0["smiley"] == nil })
            #expect(day["showsWeightPrompt"] as? Bool == true)
            let card = try #require(day["weightCard"] as? [String: Any])
            #expect(card.isEmpty, "-- kg · Tap to log your weight")
            let window = try #require(day["eatingWindow"] as? [String: Any])
            #expect(window["start"] as? String == "12:00")
            #expect(window["end"] as? String == "18:00")
            #expect(window["placementNow"] as? String == "grace")  // 10:00 in Berlin, within 2 hours of 12:00
            #expect(day["phaseLabel"] as? String == "Day 4 of 14 · Maintenance phase")
            let cycle = try #require(day["cycle"] as? [String: Any])
            #expect(cycle["nextSwitch"] as? String == "2026-03-12")
            #expect((day["fireCoach"] as? [String: Any])?["variant"] as? String == "standard")
            #expect(day["planUpdatesOn"] == nil)
        }
    }

    @Test("after a meal with macros, a meal without, and a weight: totals, ring segments, smileys, streak, weight card", arguments: StoreBackend.allCases)
    func afterSaves(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInWithProfile()
            // 30 g protein (120 kcal), 50 g carbs (200 kcal), 20 g fat (180 kcal) = 500 kcal.
            let lunch = try await client.api(.post, "/api/v1/meals", session, json: [
                "name": "Lunch", "calories": 500, "protein": 30, "carbs": 50, "fat": 20,
                "loggedAt": "2026-03-01T08:30:00Z",
            ])
            #expect(lunch.status == .created)
            let snack = try await client.api(.post, "/api/v1/meals", session, json: ["calories": 250, "loggedAt": "2026-03-01T08:45:00Z"])
            #expect(snack.status == .created)
            #expect(try await client.api(.post, "/api/v1/weights", session, json: ["kg": 79.4]).status == .created)

            let day = try await client.api(.get, "/api/v1/dashboard", session).object()
            let totals = try #require(day["totals"] as? [String: Any])
            #expect(number(totals["calories"]) == 750)
            #expect(number(totals["protein"]) == 30)
            #expect(number(totals["mealCount"]) == 2)

            let ring = try #require(day["ring"] as? [String: Any])
            #expect(number(ring["proteinKcal"]) == 120)
            #expect(number(ring["carbsKcal"]) == 200)
            #expect(number(ring["fatKcal"]) == 180)
            #expect(number(ring["unspecifiedKcal"]) == 250)
            #expect(number(ring["totalKcal"]) == 750)
            // The new weight moves the targets from tomorrow: today's stay on the profile's 80 kg
            // (10 × 80 + 1,125 − 150 + 5 = 1,780 × 1.55 = 2,759).
            #expect(number(ring["targetKcal"]) == 2_759)
            let arcs = try #require(ring["arcs"] as? [[String: Any]])
            #expect(arcs.map { $0["segment"] as? String } == ["protein", "carbs", "fat", "unspecified"])
            #expect(number(arcs[0]["start"]) == 0)
            #expect(number(arcs[0]["end"]) == 0.0435)  // 120 / 2,759
            #expect(number(arcs[3]["end"]) == 0.2718)  // 750 / 2,759

            let macros = try #require(day["macros"] as? [[String: Any]])
            #expect(number(macros[0]["grams"]) == 30)
            #expect(number(macros[0]["goal"]) == 160)  // 80 × 2.0
            #expect(macros[0]["smiley"] as? String == "sad")

            let streak = try #require(day["streak"] as? [String: Any])
            #expect(number(streak["days"]) == 1)
            #expect(streak["activeToday"] as? Bool == true)
            #expect(day["showsWeightPrompt"] as? Bool == false)
            let card = try #require(day["weightCard"] as? [String: Any])
            #expect(number(card["todayKg"]) == 79.4)
            #expect(number(card["averageKg"]) == 79.4)
            #expect(card["belowAverageKg"] == nil)
        }
    }

    @Test("another day reads as it stood at its local noon; a malformed date is 400", arguments: StoreBackend.allCases)
    func otherDay(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInWithProfile()
            let yesterday = try await client.api(.post, "/api/v1/meals", session, json: ["calories": 600, "loggedAt": "2026-02-28T11:00:00Z"])
            #expect(yesterday.status == .created)
            #expect(try yesterday.object()["localDate"] as? String == "2026-02-28")

            let past = try await client.api(.get, "/api/v1/dashboard?date=2026-02-28", session).object()
            #expect(past["date"] as? String == "2026-02-28")
            #expect(number((past["totals"] as? [String: Any])?["calories"]) == 600)
            #expect((past["streak"] as? [String: Any])?["activeToday"] as? Bool == true)
            #expect((past["eatingWindow"] as? [String: Any])?["placementNow"] as? String == "inside")

            // Today: yesterday's log keeps the streak at 1 while today has none yet.
            let today = try await client.api(.get, "/api/v1/dashboard", session).object()
            #expect(number((today["totals"] as? [String: Any])?["calories"]) == 0)
            #expect(number((today["streak"] as? [String: Any])?["days"]) == 1)
            #expect((today["streak"] as? [String: Any])?["activeToday"] as? Bool == false)

            let bad = try await client.api(.get, "/api/v1/dashboard?date=yesterday", session)
            #expect(bad.status == .badRequest)
        }
    }

    @Test("no profile: 404 profile_missing, with or without a date", arguments: StoreBackend.allCases)
    func missingProfile(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInAsGuest()
            #expect(try await client.api(.get, "/api/v1/dashboard", session).errorDetail().code == "profile_missing")
            #expect(try await client.api(.get, "/api/v1/dashboard?date=2026-02-01", session).errorDetail().code == "profile_missing")
        }
    }

    @Test("a pending profile change shows as planUpdatesOn", arguments: StoreBackend.allCases)
    func pending(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInWithProfile()
            _ = try await client.api(.put, "/api/v1/profile", session, json: APIFixtures.profile(["activity": "very"]))
            let day = try await client.api(.get, "/api/v1/dashboard", session).object()
            #expect(day["planUpdatesOn"] as? String == "2026-03-02")
            #expect(number((day["targets"] as? [String: Any])?["calories"]) == 2_759)
        }
    }
}
