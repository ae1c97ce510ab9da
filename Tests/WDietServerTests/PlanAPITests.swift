import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietTestSupport

@Suite("Plan API")
struct PlanAPITests {
    @Test("the worked man on day 15: the first diet day, 2,759 − 500 = 2,259 kcal, 160/80/224 g")
    func dayFifteen() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile()
            let response = try await client.api(.get, "/api/v1/plan?date=2026-01-15", session)
            #expect(response.status == .ok)
            let plan = try response.object()
            #expect(plan["date"] as? String == "2026-01-15")
            #expect(number(plan["bmr"]) == 1_780)  // 800 + 1,125 − 150 + 5
            #expect(number(plan["tdee"]) == 2_759)  // × 1.55
            #expect(plan["phase"] as? String == "diet")
            #expect(number(plan["dayOfPhase"]) == 1)
            #expect(number(plan["dayOfPlan"]) == 15)
            #expect(number(plan["cycle"]) == 1)
            #expect(plan["nextSwitch"] as? String == "2026-01-29")
            #expect(plan["phaseLabel"] as? String == "Day 1 of 14 · Diet phase")
            #expect(number(plan["calories"]) == 2_259)
            #expect(number(plan["protein"]) == 160)
            #expect(number(plan["fat"]) == 80)
            #expect(number(plan["carbs"]) == 224)
            #expect(number(plan["water"]) == 2_800)
            #expect(number(plan["weightKg"]) == 80)
            #expect(plan["floorApplied"] as? Bool == false)
            #expect(plan["underageMaintenance"] as? Bool == false)
        }
    }

    @Test("by default today in the user's zone: day 60, maintenance, 2,759 kcal; the study protocol cuts to 67 %")
    func today() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile(["deficit": "studyProtocol"])
            let plan = try await client.api(.get, "/api/v1/plan", session).object()
            #expect(plan["date"] as? String == "2026-03-01")
            #expect(plan["phase"] as? String == "maintenance")
            #expect(number(plan["dayOfPhase"]) == 4)
            #expect(number(plan["dayOfPlan"]) == 60)
            #expect(number(plan["calories"]) == 2_759)
            let diet = try await client.api(.get, "/api/v1/plan?date=2026-01-15", session).object()
            #expect(number(diet["calories"]) == 1_849)  // 2,759.0 × 0.67
        }
    }

    @Test("the latest weight logged before the day began drives its targets: today's weight counts from tomorrow")
    func latestWeight() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile()
            let logged = try await client.api(.post, "/api/v1/weights", session, json: ["kg": 79])
            #expect(logged.status == .created)
            let today = try await client.api(.get, "/api/v1/plan", session).object()
            #expect(number(today["weightKg"]) == 80)
            #expect(number(today["protein"]) == 160)
            let tomorrow = try await client.api(.get, "/api/v1/plan?date=2026-03-02", session).object()
            #expect(number(tomorrow["weightKg"]) == 79)
            #expect(number(tomorrow["protein"]) == 158)
            let before = try await client.api(.get, "/api/v1/plan?date=2026-02-28", session).object()
            #expect(number(before["weightKg"]) == 80)
            #expect(number(before["protein"]) == 160)
        }
    }

    @Test("maintain and under-18 plans do not cycle; the floor is reported")
    func nonCycling() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let teen = try await client.signInWithProfile(["dateOfBirth": "2010-01-01"])
            let plan = try await client.api(.get, "/api/v1/plan?date=2026-01-15", teen).object()
            #expect(plan["phase"] == nil)
            #expect(plan["underageMaintenance"] as? Bool == true)

            let small = try await client.signInWithProfile(["sex": "female", "heightCm": 150, "weightKg": 45, "activity": "sedentary"])
            let floored = try await client.api(.get, "/api/v1/plan?date=2026-01-15", small).object()
            #expect(number(floored["calories"]) == 1_200)
            #expect(floored["floorApplied"] as? Bool == true)
        }
    }

    @Test("a malformed date is 400 naming the parameter; no profile is 404")
    func errors() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInAsGuest()
            #expect(try await client.api(.get, "/api/v1/plan", session).errorDetail().code == "profile_missing")
            let bad = try await client.api(.get, "/api/v1/plan?date=15.01.2026", session)
            #expect(bad.status == .badRequest)
            #expect(try bad.errorDetail().fields == ["date": "Please enter a date as YYYY-MM-DD"])
        }
    }
}
