import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WDietServer
import WDietTestSupport

/// `/profile`, the profile editor of 001, as the server renders it (the script's behaviour is the browser tests').
@Suite("Web profile page")
struct WebProfilePageTests {
    func positions(of needles: [String], in html: String) -> [Int] {
        needles.map { needle in html.range(of: needle).map { html.distance(from: html.startIndex, to: $0.lowerBound) } ?? -1 }
    }

    @Test("seven sections in 001 §2's order, with descriptions, and the badge on the four that affect the plan")
    func sections() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await WebDashboardSession.withProfile(client)
            let page = try await session.get(client, "/profile")
            #expect(page.status == .ok)
            let html = page.text
            let order = positions(of: [
                ">About You<", ">Current Status<", ">Your Goal<", ">Activity &amp; Lifestyle<", ">Diet &amp; Preferences<",
                ">Current Targets<", "id=\"profile-save\"",
            ], in: html)
            #expect(!order.contains(-1), "\(order)")
            #expect(order == order.sorted())
            #expect(html.components(separatedBy: "🔄 Affects your plan</span>").count - 1 == 4)
            #expect(html.contains("Basic information that affects your metabolic calculations. Your age, gender, and height help us calculate how many calories your body burns at rest."))
            #expect(html.contains("Dietary restrictions and meal preferences. These affect meal suggestions but don't change your calorie or macro targets."))
            #expect(html.contains("Your daily nutrition targets (automatically calculated). These update whenever you change health metrics or activity level."))
        }
    }

    @Test("the saved values, the five activity levels with multipliers, suggestions and the stepper")
    func fields() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await WebDashboardSession.withProfile(client, ["dietaryPreferences": ["Vegetarian"], "mealsPerDay": 4, "targetWeightKg": 75])
            let html = try await session.get(client, "/profile").text
            #expect(html.contains("value=\"1995-06-15\""))
            #expect(html.contains("<input type=\"radio\" name=\"sex\" value=\"male\" checked>"))
            #expect(html.contains("id=\"height-cm\" type=\"text\" inputmode=\"decimal\" value=\"180\""))
            #expect(html.contains("id=\"weight\" type=\"text\" inputmode=\"decimal\" value=\"80\""))
            #expect(html.contains("id=\"target-weight\" type=\"text\" inputmode=\"decimal\" value=\"75\""))
            // 180 cm = 70.9 in = 5 ft 10.9 in.
            #expect(html.contains("id=\"height-ft\" type=\"text\" inputmode=\"numeric\" value=\"5\""))
            #expect(html.contains("id=\"height-in\" type=\"text\" inputmode=\"decimal\" value=\"10.9\""))
            for (title, description, multiplier) in [
                ("Sedentary", "Desk job, little to no exercise", "(1.2× BMR multiplier)"),
                ("Lightly Active", "Light exercise 1-3 days/week", "(1.375× BMR multiplier)"),
                ("Moderately Active", "Moderate exercise 3-5 days/week", "(1.55× BMR multiplier)"),
                ("Very Active", "Hard exercise 6-7 days/week", "(1.725× BMR multiplier)"),
                ("Extremely Active", "Physical job + daily intense training", "(1.9× BMR multiplier)"),
            ] {
                #expect(html.contains("<strong>\(title)</strong><span>\(description)</span><span class=\"profile__multiplier\">\(multiplier)</span>"))
            }
            #expect(html.contains("<input type=\"radio\" name=\"activity\" value=\"moderate\" checked>"))
            for suggestion in ProfilePages.preferenceSuggestions + ProfilePages.allergySuggestions {
                #expect(html.contains("data-suggestion=\"\(suggestion)\""))
            }
            #expect(html.contains("data-tag=\"Vegetarian\""))
            #expect(html.contains("aria-valuenow=\"4\""))
        }
    }

    @Test("Current Targets: today's numbers with 001 §4's explanations (Day 60, maintenance phase)")
    func targets() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await WebDashboardSession.withProfile(client)
            let html = try await session.get(client, "/profile").text
            // BMR 1,780, TDEE 2,759, calories = TDEE in a maintenance phase, protein 160 g, water 2,800 ml.
            for (id, value) in [("bmr", "1,780"), ("tdee", "2,759"), ("calories", "2,759"), ("protein", "160"), ("water", "2,800")] {
                #expect(html.contains("data-target=\"\(id)\""))
                #expect(html.contains("<span data-target-value>\(value)</span>"), "\(id)")
            }
            #expect(html.contains("The calories your body burns at rest just to stay alive - breathing, circulation, basic cellular functions."))
            #expect(html.contains("Calculated from: BMR × Activity Level Multiplier"))
            #expect(html.contains("• Lose weight: 2.0g per kg (preserve muscle)"))
            #expect(html.contains("Calculated from: Body weight × 35ml per kg"))
        }
    }

    @Test("pounds and feet when the profile uses them; a waiting change is announced; Settings links here")
    func unitsAndNotice() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await WebDashboardSession.withProfile(client, ["weightUnit": "lb", "heightUnit": "ftIn"])
            let saved = try await session.api(client, .put, "/api/v1/profile", json: APIFixtures.profile(["weightKg": 82.5, "weightUnit": "lb", "heightUnit": "ftIn"]))
            #expect(saved.status == .ok)
            let html = try await session.get(client, "/profile").text
            // 82.5 kg = 181.9 lb.
            #expect(html.contains("id=\"weight\" type=\"text\" inputmode=\"decimal\" value=\"181.9\""))
            #expect(html.contains("<input type=\"radio\" name=\"weightUnitToggle\" value=\"lb\" checked"))
            #expect(html.contains("<input type=\"radio\" name=\"heightUnitToggle\" value=\"ftIn\" checked"))
            #expect(html.contains("id=\"height-cm-row\" hidden"))
            #expect(html.contains("Your plan will be updated tomorrow at midnight (Mon 2 Mar)"))

            let settings = try await session.get(client, "/settings").text
            #expect(settings.contains("href=\"/profile\""))
            #expect(settings.contains("Edit profile"))
        }
    }

    @Test("Current Targets: a waiting change shows tomorrow's numbers beside today's, with the change's difference")
    func waitingTargets() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await WebDashboardSession.withProfile(client)
            let before = try await session.get(client, "/profile").text
            #expect(!before.contains("→ "), "nothing waits before a save")
            #expect(before.contains("data-target=\"protein\" data-base-tomorrow=\"160\""))
            let saved = try await session.api(client, .put, "/api/v1/profile", json: APIFixtures.profile(["weightKg": 82.5]))
            #expect(saved.status == .ok)
            let html = try await session.get(client, "/profile").text
            // Today keeps 2.0 g × 80 kg; from Monday 2.0 g × 82.5 kg = 165 g, and 35 ml × 82.5 = 2,888 ml (2,887.5 rounded).
            #expect(html.contains("<span data-target-value>160</span>"))
            #expect(html.contains("→ 165 g from Mon 2 Mar (+5)"))
            #expect(html.contains("→ 2,888 ml from Mon 2 Mar (+88)"))
            // BMR: 10 kcal per kg, +25.
            #expect(html.contains("→ 1,805 kcal/day from Mon 2 Mar (+25)"))
            // The script's base stays the morning's numbers.
            #expect(html.contains("data-target=\"protein\" data-base-tomorrow=\"160\""))

            let back = try await session.api(client, .put, "/api/v1/profile", json: APIFixtures.profile(["weightKg": 80]))
            #expect(back.status == .ok)
            #expect(!(try await session.get(client, "/profile").text.contains("→ ")), "an edit back to the morning's inputs leaves nothing waiting")
        }
    }

    @Test("without a session: to the welcome screen; without a profile: 001 §8's \"Complete Your Profile\", leading to onboarding")
    func guards() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let anonymous = try await client.execute(uri: "/profile", method: .get)
            #expect(anonymous.status == .seeOther)
            #expect(anonymous.headers[.location] == "/")
            let session = try await WebDashboardSession.guest(client)
            let noProfile = try await session.get(client, "/profile")
            #expect(noProfile.status == .ok)
            let html = noProfile.text
            #expect(html.contains("<h1 id=\"profile-empty-title\">Complete Your Profile</h1>"))
            #expect(html.contains("Tell us about yourself so we can create a personalized fitness plan."))
            #expect(html.contains("This takes about 2-3 minutes."))
            #expect(html.contains("<a class=\"button button--primary\" href=\"/onboarding/profile\">Get Started</a>"))
            #expect(!html.contains("id=\"profile-form\""))
        }
    }
}
