import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietTestSupport

/// `GET /api/v1/profile/preview`, worked from PRODUCT.md's formulas. The fixture (`APIFixtures.profile`): a man born
/// 1995-06-15, 180 cm, 80 kg, moderately active (×1.55), losing weight with the plan from 2026-01-01, in Berlin.
/// TestApp's clock is 2026-03-01 10:00 in Berlin, so the preview is of Mon 2 Mar: age 30, plan day 61 = cycle 3 day 5,
/// a maintenance phase (calories = TDEE).
@Suite("Profile preview API")
struct ProfilePreviewAPITests {
    /// BMR 10×80 + 6.25×180 − 5×30 + 5 = 1,780; TDEE 1,780 × 1.55 = 2,759; protein 2.0 × 80 = 160 g; water 35 × 80 = 2,800 ml.
    static let saved = ["bmr": 1_780.0, "tdee": 2_759.0, "calories": 2_759.0, "proteinGrams": 160.0, "waterMl": 2_800.0]

    func targets(_ value: Any?) throws -> [String: Double] {
        let object = try #require(value as? [String: Any])
        return object.compactMapValues { number($0) }
    }

    @Test("a lower weight: BMR, TDEE, calories, protein and water before, after and their differences, from tomorrow")
    func weightChange() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile()
            let response = try await client.api(.get, "/api/v1/profile/preview?weightKg=70", session)
            #expect(response.status == .ok, "\(response.text)")
            let body = try response.object()
            #expect(try targets(body["before"]) == Self.saved)
            // BMR 10×70 + 1,125 − 150 + 5 = 1,680; TDEE × 1.55 = 2,604; protein 140 g; water 2,450 ml.
            #expect(try targets(body["after"]) == ["bmr": 1_680, "tdee": 2_604, "calories": 2_604, "proteinGrams": 140, "waterMl": 2_450])
            #expect(try targets(body["difference"]) == ["bmr": -100, "tdee": -155, "calories": -155, "proteinGrams": -20, "waterMl": -350])
            #expect(body["date"] as? String == "2026-03-02")
            #expect(body["changesTargets"] as? Bool == true)
            #expect(body["effectiveDate"] as? String == "2026-03-02")
            // Midnight in Berlin (UTC+1) is 23:00 UTC the day before.
            #expect((body["effectiveAt"] as? String)?.hasPrefix("2026-03-01T23:00:00") == true)
            #expect(body["message"] as? String == "Your plan will be updated tomorrow at midnight (Mon 2 Mar)")
            #expect((body["confirmations"] as? [Any])?.isEmpty == true, "10 kg is not more than 10 kg")

            // Nothing was saved.
            let profile = try await client.api(.get, "/api/v1/profile", session).object()
            #expect(number(profile["weightKg"]) == 80)
            #expect(profile["pendingChange"] == nil)
        }
    }

    /// PRODUCT.md "current weight": the weight log is the one source of truth.
    @Test("the current weight is the latest logged: the preview starts from it, measures a large change from it, and a save logs a weight")
    func currentWeightIsTheLatestLogged() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile()
            // 68 kg logged yesterday (the profile still holds the onboarding 80 kg).
            let logged = try await client.api(.post, "/api/v1/weights", session, json: ["kg": 68, "loggedAt": "2026-02-28T07:00:00Z"])
            #expect(logged.status == .created, "\(logged.text)")
            let profile = try await client.api(.get, "/api/v1/profile", session).object()
            #expect(number(profile["weightKg"]) == 68)

            // Unchanged: nothing moves, nothing to confirm.
            let same = try await client.api(.get, "/api/v1/profile/preview?weightKg=68", session).object()
            #expect(same["changesTargets"] as? Bool == false)
            #expect(try targets(same["difference"]).values.allSatisfy { $0 == 0 })

            // 67 kg: tomorrow from 68 kg against tomorrow from 67 kg. BMR 10×68 + 1,125 − 150 + 5 = 1,660 → 1,650;
            // TDEE × 1.55 = 2,573 → 2,557.5; protein 136 → 134 g; water 2,380 → 2,345 ml. 1 kg is no large change.
            let preview = try await client.api(.get, "/api/v1/profile/preview?weightKg=67", session).object()
            #expect(try targets(preview["before"]) == ["bmr": 1_660, "tdee": 2_573, "calories": 2_573, "proteinGrams": 136, "waterMl": 2_380])
            #expect(try targets(preview["after"]) == ["bmr": 1_650, "tdee": 2_558, "calories": 2_558, "proteinGrams": 134, "waterMl": 2_345])
            #expect(preview["changesTargets"] as? Bool == true)
            #expect(preview["effectiveDate"] as? String == "2026-03-02")
            #expect(preview["message"] as? String == "Your plan will be updated tomorrow at midnight (Mon 2 Mar)")
            #expect((preview["confirmations"] as? [Any])?.isEmpty == true)
            // 80 kg (the onboarding weight) is 12 kg from the current 68 kg: confirm.
            let back = try await client.api(.get, "/api/v1/profile/preview?weightKg=80", session).object()
            let confirmations = try #require(back["confirmations"] as? [[String: Any]])
            #expect(confirmations.first?["kind"] as? String == "largeWeightChange")
            #expect(number(confirmations.first?["deltaKg"]) == 12)

            // Saving 67 kg logs a weight for now; the profile's own weight and version stay.
            let version = try #require(number(profile["version"]))
            let saved = try await client.api(.put, "/api/v1/profile", session, json: APIFixtures.profile(["weightKg": 67, "baseVersion": Int(version)]))
            #expect(saved.status == .ok, "\(saved.text)")
            let answer = try saved.object()
            #expect(number(answer["weightKg"]) == 67)
            #expect(number(answer["version"]) == version)
            let pending = try #require(answer["pendingChange"] as? [String: Any])
            #expect(pending["effectiveDate"] as? String == "2026-03-02")
            let entries = try #require(try await client.api(.get, "/api/v1/weights", session).object()["entries"] as? [[String: Any]])
            #expect(entries.compactMap { number($0["kg"]) } == [68, 67])
            #expect(entries.last?["localDate"] as? String == "2026-03-01")
            // Today's plan stays on 68 kg; tomorrow's is 67 kg.
            let today = try await client.api(.get, "/api/v1/plan", session).object()
            #expect(number(today["protein"]) == 136)
            #expect(today["planUpdatesOn"] as? String == "2026-03-02")
            let tomorrow = try await client.api(.get, "/api/v1/plan?date=2026-03-02", session).object()
            #expect(number(tomorrow["protein"]) == 134)
        }
    }

    @Test("a goal change from lose to maintain: protein 160 → 128 g, calories unchanged in a maintenance phase; confirm the goal")
    func goalChange() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile()
            let body = try await client.api(.get, "/api/v1/profile/preview?goal=maintain", session).object()
            #expect(try targets(body["after"]) == ["bmr": 1_780, "tdee": 2_759, "calories": 2_759, "proteinGrams": 128, "waterMl": 2_800])
            #expect(try targets(body["difference"]) == ["bmr": 0, "tdee": 0, "calories": 0, "proteinGrams": -32, "waterMl": 0])
            let confirmations = try #require(body["confirmations"] as? [[String: Any]])
            #expect(confirmations.count == 1)
            #expect(confirmations.first?["kind"] as? String == "goalChange")
            #expect(confirmations.first?["from"] as? String == "lose")
            #expect(confirmations.first?["to"] as? String == "maintain")
        }
    }

    @Test("a goal change during a diet phase: 2,759 − 500 = 2,259 kcal becomes 2,759 at maintenance")
    func goalChangeInDietPhase() async throws {
        // The preview's day, 2026-03-16, is plan day 75 = cycle 3 day 19: a diet phase.
        let t = try TestApp(clockStart: Fixtures.utc("2026-03-15T09:00:00Z"))
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile()
            let body = try await client.api(.get, "/api/v1/profile/preview?goal=maintain", session).object()
            #expect(try targets(body["before"])["calories"] == 2_259)
            #expect(try targets(body["after"])["calories"] == 2_759)
            #expect(try targets(body["difference"])["calories"] == 500)
        }
    }

    @Test("only tags change: no target moves, nothing waits for midnight")
    func tagsOnly() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile()
            let body = try await client.api(.get, "/api/v1/profile/preview?dietaryPreferences=Vegan&dietaryPreferences=Keto&mealsPerDay=5", session).object()
            #expect(body["changesTargets"] as? Bool == false)
            #expect(body["effectiveDate"] == nil)
            #expect(body["message"] == nil)
            #expect(try targets(body["difference"]) == ["bmr": 0, "tdee": 0, "calories": 0, "proteinGrams": 0, "waterMl": 0])
        }
    }

    @Test("the confirmations of 001 §12: height > 5 cm, weight > 10 kg, extreme values, an unrealistic timeline")
    func confirmations() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile()
            // 80 → 65 kg by 2026-04-26 (8 weeks): 15 kg at 1.9 kg a week; safe at 1 kg a week takes 15 weeks → 2026-06-14.
            let body = try await client.api(
                .get, "/api/v1/profile/preview?heightCm=260&weightKg=65&targetWeightKg=50&targetDate=2026-04-26&dateOfBirth=1995-06-16", session
            ).object()
            let kinds = try #require(body["confirmations"] as? [[String: Any]]).compactMap { $0["kind"] as? String }
            #expect(kinds == ["dateOfBirthChange", "largeHeightChange", "largeWeightChange", "unrealisticTimeline", "extremeHeight"])
            let timeline = try #require((body["confirmations"] as? [[String: Any]])?.first { $0["kind"] as? String == "unrealisticTimeline" })
            // 65 → 50 kg in 8 weeks: 15 ÷ 8 = 1.875 → 1.9 kg a week; 15 weeks at 1 kg → 2026-03-01 + 105 days.
            #expect(number(timeline["requiredKgPerWeek"]) == 1.9)
            #expect(number(timeline["recommendedWeeks"]) == 15)
            #expect(timeline["recommendedDate"] as? String == "2026-06-14")
        }
    }

    @Test("bad values: 422 with the form's messages; unknown parameters: 400; no profile: 404")
    func errors() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let guest = try await client.signInAsGuest()
            #expect(try await client.api(.get, "/api/v1/profile/preview?weightKg=70", guest).status == .notFound)

            let session = try await client.signInWithProfile()
            let invalid = try await client.api(.get, "/api/v1/profile/preview?heightCm=40&weightKg=abc", session)
            #expect(invalid.status == .unprocessableContent)
            let fields = try invalid.errorDetail().fields ?? [:]
            #expect(fields["heightCm"] == "Height must be at least 50 cm (1'8\")")
            #expect(fields["weightKg"] == "Please enter a valid number")

            let unknown = try await client.api(.get, "/api/v1/profile/preview?weight=70", session)
            #expect(unknown.status == .badRequest)
            #expect(try unknown.errorDetail().fields?["weight"] != nil)

            #expect(try await client.api(.get, "/api/v1/profile/preview?weightKg=70", nil).status == .unauthorized)
        }
    }
}
