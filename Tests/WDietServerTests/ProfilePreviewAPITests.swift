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
