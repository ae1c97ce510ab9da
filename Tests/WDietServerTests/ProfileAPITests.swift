import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietTestSupport

@Suite("Profile API")
struct ProfileAPITests {
    @Test("no profile yet: GET is a JSON 404 that says to finish onboarding", arguments: StoreBackend.allCases)
    func missing(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInAsGuest()
            let response = try await client.api(.get, "/api/v1/profile", session)
            #expect(response.status == .notFound)
            #expect(try response.errorDetail().code == "profile_missing")
        }
    }

    @Test("PUT creates the profile (201) with defaults, GET returns it with its version", arguments: StoreBackend.allCases)
    func create(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInAsGuest()
            let created = try await client.api(.put, "/api/v1/profile", session, json: APIFixtures.profile(["dietaryPreferences": [" vegan", "Vegan", ""]]))
            #expect(created.status == .created)
            let body = try created.object()
            #expect(body["sex"] as? String == "male")
            #expect(number(body["heightCm"]) == 180)
            #expect(body["timeZone"] as? String == "Europe/Berlin")
            #expect(body["eatingWindowStart"] as? String == "12:00")
            #expect(body["eatingWindowEnd"] as? String == "18:00")
            #expect(body["deficit"] as? String == "minus500")
            #expect(body["weightUnit"] as? String == "kg")
            #expect(body["heightUnit"] as? String == "cm")
            #expect(number(body["mealsPerDay"]) == 3)
            #expect(body["dietaryPreferences"] as? [String] == ["vegan"])
            #expect(body["planStartDate"] as? String == "2026-01-01")
            #expect(body["pendingChange"] == nil, "a first profile applies at once")
            let version = try #require(number(body["version"]))

            let read = try await client.api(.get, "/api/v1/profile", session)
            #expect(read.status == .ok)
            #expect(number(try read.object()["version"]) == version)
        }
    }

    @Test("a new profile starts its plan today in its own time zone; a later save keeps the start", arguments: StoreBackend.allCases)
    func planStartDefault(_ backend: StoreBackend) async throws {
        // 23:30 UTC on 1 March is 00:30 on 2 March in Berlin.
        try await TestApp.test(backend, clockStart: Fixtures.utc("2026-03-01T23:30:00Z")) { t, client in
            let session = try await client.signInAsGuest()
            var profile = APIFixtures.profile()
            profile["planStartDate"] = nil
            let created = try await client.api(.put, "/api/v1/profile", session, json: profile)
            #expect(try created.object()["planStartDate"] as? String == "2026-03-02")

            t.clock.advance(seconds: 5 * 86_400)
            let saved = try await client.api(.put, "/api/v1/profile", session, json: profile.merging(["mealsPerDay": 4]) { $1 })
            #expect(saved.status == .ok)
            let body = try saved.object()
            #expect(body["planStartDate"] as? String == "2026-03-02")
            #expect(number(body["mealsPerDay"]) == 4)
        }
    }

    @Test("001's messages, keyed by the body's member names: 422", arguments: StoreBackend.allCases)
    func validation(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInAsGuest()
            let response = try await client.api(.put, "/api/v1/profile", session, json: APIFixtures.profile([
                "dateOfBirth": "2020-01-01", "sex": "robot", "heightCm": 40, "weightKg": "heavy", "targetWeightKg": 600,
                "goal": "fly", "activity": NSNull(), "mealsPerDay": 11, "timeZone": "Mars/Olympus",
                "eatingWindowStart": "12:15", "deficit": "lots", "targetDate": "2026-02-30",
            ]))
            #expect(response.status == .unprocessableContent)
            let error = try response.errorDetail()
            #expect(error.code == "invalid")
            #expect(error.fields == [
                "dateOfBirth": "You must be at least 13 years old to use w-diet",
                "sex": "Please select your gender",
                "heightCm": "Height must be at least 50 cm (1'8\")",
                "weightKg": "Please enter a valid number",
                "targetWeightKg": "Target weight must be less than 500 kg (1102 lbs)",
                "goal": "Please select your primary goal",
                "activity": "Please select your activity level",
                "mealsPerDay": "Maximum 10 meals per day",
                "timeZone": "Please select a valid time zone",
                "eatingWindowStart": "Please choose a start time on the hour or half hour, such as 12:00",
                "deficit": "Please choose minus500 or studyProtocol",
                "targetDate": "Please enter a date as YYYY-MM-DD",
            ])
            // Nothing was saved.
            #expect(try await client.api(.get, "/api/v1/profile", session).status == .notFound)
        }
    }

    @Test("missing required members get the form's messages", arguments: StoreBackend.allCases)
    func missingMembers(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInAsGuest()
            let response = try await client.api(.put, "/api/v1/profile", session, body: "{}")
            #expect(response.status == .unprocessableContent)
            #expect(try response.errorDetail().fields == [
                "dateOfBirth": "Please enter a valid date of birth",
                "sex": "Please select your gender",
                "heightCm": "Please enter a valid number",
                "weightKg": "Please enter a valid number",
                "goal": "Please select your primary goal",
                "activity": "Please select your activity level",
            ])
        }
    }

    @Test("a change of the targets waits for midnight: the answer says so, today's plan keeps the old targets", arguments: StoreBackend.allCases)
    func changesApplyTomorrow(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInWithProfile()
            let saved = try await client.api(.put, "/api/v1/profile", session, json: APIFixtures.profile(["weightKg": 90]))
            #expect(saved.status == .ok)
            let pending = try #require(try saved.object()["pendingChange"] as? [String: Any])
            #expect(pending["effectiveDate"] as? String == "2026-03-02")
            #expect(pending["message"] as? String == "Your plan will be updated tomorrow at midnight (Mon 2 Mar)")

            let today = try await client.api(.get, "/api/v1/plan", session).object()
            #expect(number(today["protein"]) == 160, "80 kg × 2.0 g until midnight")
            #expect(today["planUpdatesOn"] as? String == "2026-03-02")
            let tomorrow = try await client.api(.get, "/api/v1/plan?date=2026-03-02", session).object()
            #expect(number(tomorrow["protein"]) == 180)
            #expect(tomorrow["planUpdatesOn"] == nil)

            // A display-only change applies at once and says nothing about tomorrow... but the pending one stays.
            let units = try await client.api(.put, "/api/v1/profile", session, json: APIFixtures.profile(["weightKg": 90, "weightUnit": "lb"]))
            #expect(try units.object()["weightUnit"] as? String == "lb")
            #expect(try units.object()["pendingChange"] != nil)
        }
    }

    @Test("an edit against a stale version is 409 with the server's copy; without baseVersion it overwrites", arguments: StoreBackend.allCases)
    func conflict(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInWithProfile()
            let first = try await client.api(.get, "/api/v1/profile", session).object()
            let base = try #require(number(first["version"]))

            // Another device saves in between.
            let other = try await client.api(.put, "/api/v1/profile", session, json: APIFixtures.profile(["mealsPerDay": 5, "baseVersion": base]))
            #expect(other.status == .ok)
            let newer = try #require(number(try other.object()["version"]))
            #expect(newer > base)

            let stale = try await client.api(.put, "/api/v1/profile", session, json: APIFixtures.profile(["mealsPerDay": 2, "baseVersion": base]))
            #expect(stale.status == .conflict)
            let error = try #require(try stale.object()["error"] as? [String: Any])
            #expect(error["code"] as? String == "conflict")
            let current = try #require(error["current"] as? [String: Any])
            #expect(number(current["mealsPerDay"]) == 5)
            #expect(number(current["version"]) == newer)

            let keepMine = try await client.api(.put, "/api/v1/profile", session, json: APIFixtures.profile(["mealsPerDay": 2]))
            #expect(keepMine.status == .ok)
            #expect(number(try keepMine.object()["mealsPerDay"]) == 2)
        }
    }

    @Test("optional members: absent keeps, null clears", arguments: StoreBackend.allCases)
    func absentAndNull(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInWithProfile(["targetWeightKg": 75, "targetDate": "2026-09-01", "allergies": ["peanuts"]])
            let kept = try await client.api(.put, "/api/v1/profile", session, json: APIFixtures.profile()).object()
            #expect(number(kept["targetWeightKg"]) == 75)
            #expect(kept["targetDate"] as? String == "2026-09-01")
            #expect(kept["allergies"] as? [String] == ["peanuts"])

            let cleared = try await client.api(.put, "/api/v1/profile", session, json: APIFixtures.profile([
                "targetWeightKg": NSNull(), "targetDate": NSNull(), "allergies": NSNull(),
            ])).object()
            #expect(cleared["targetWeightKg"] == nil)
            #expect(cleared["targetDate"] == nil)
            #expect(cleared["allergies"] as? [String] == [])
        }
    }

    // MARK: Gender "Other" with the person's own words (001 §3: max 20 characters)

    @Test("Other takes a description: trimmed, stored, returned by GET; absent keeps it, \"\" or null clears it")
    func genderDescription() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile(["sex": "other", "genderDescription": "  Non-binary \n"])
            let read = try await client.api(.get, "/api/v1/profile", session).object()
            #expect(read["sex"] as? String == "other")
            #expect(read["genderDescription"] as? String == "Non-binary")

            // Twenty characters as a person sees them, a five-code-point flag among them.
            let twenty = String(repeating: "a", count: 18) + " 🏳️‍⚧️"
            let saved = try await client.api(.put, "/api/v1/profile", session, json: APIFixtures.profile([
                "sex": "other", "genderDescription": twenty,
            ]))
            #expect(saved.status == .ok, "\(saved.text)")
            #expect(try saved.object()["genderDescription"] as? String == twenty)
            #expect(try saved.object()["pendingChange"] == nil, "words alone never wait for midnight")

            let kept = try await client.api(.put, "/api/v1/profile", session, json: APIFixtures.profile(["sex": "other", "mealsPerDay": 4]))
            #expect(try kept.object()["genderDescription"] as? String == twenty)

            let blank = try await client.api(.put, "/api/v1/profile", session, json: APIFixtures.profile([
                "sex": "other", "genderDescription": "   ",
            ])).object()
            #expect(blank["genderDescription"] == nil, "spaces only is none, and none is left out")
        }
    }

    @Test("21 characters: 422 with a clear message on genderDescription; nothing saved")
    func genderDescriptionTooLong() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile(["sex": "other", "genderDescription": "Agender"])
            let response = try await client.api(.put, "/api/v1/profile", session, json: APIFixtures.profile([
                "sex": "other", "genderDescription": "Twenty-one characters",
            ]))
            #expect(response.status == .unprocessableContent)
            let error = try response.errorDetail()
            #expect(error.code == "invalid")
            #expect(error.message == "Gender description must be 20 characters or fewer")
            #expect(error.fields == ["genderDescription": "Gender description must be 20 characters or fewer"])
            #expect(try await client.api(.get, "/api/v1/profile", session).object()["genderDescription"] as? String == "Agender")

            // The preview judges it as the save does.
            let preview = try await client.api(.get, "/api/v1/profile/preview?genderDescription=Twenty-one%20characters", session)
            #expect(preview.status == .unprocessableContent)
            #expect(try preview.errorDetail().fields == ["genderDescription": "Gender description must be 20 characters or fewer"])
        }
    }

    @Test("a description is only for Other: sent with Male it is a 422; choosing Male without one clears it")
    func genderDescriptionOnlyForOther() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile(["sex": "other", "genderDescription": "Agender"])
            let refused = try await client.api(.put, "/api/v1/profile", session, json: APIFixtures.profile([
                "sex": "male", "genderDescription": "Agender",
            ]))
            #expect(refused.status == .unprocessableContent)
            #expect(try refused.errorDetail().fields == ["genderDescription": "A gender description can only be added for Other"])

            // The preview of a switch to Male drops the saved words as the save would, and shows Male's BMR:
            // Other's −78 becomes +5, so BMR 1,697 → 1,780 (PRODUCT.md; the fixture man, 30, 180 cm, 80 kg).
            let preview = try await client.api(.get, "/api/v1/profile/preview?sex=male", session)
            #expect(preview.status == .ok, "\(preview.text)")
            let difference = try #require(try preview.object()["difference"] as? [String: Any])
            #expect(number(difference["bmr"]) == 83)

            let male = try await client.api(.put, "/api/v1/profile", session, json: APIFixtures.profile(["sex": "male"]))
            #expect(male.status == .ok)
            #expect(try male.object()["genderDescription"] == nil)
            #expect(try await client.api(.get, "/api/v1/profile", session).object()["genderDescription"] == nil)
        }
    }

    @Test("without a session: 401", arguments: StoreBackend.allCases)
    func unauthorized(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let read = try await client.api(.get, "/api/v1/profile", nil)
            let write = try await client.api(.put, "/api/v1/profile", nil, json: APIFixtures.profile())
            #expect(read.status == .unauthorized)
            #expect(write.status == .unauthorized)
        }
    }
}
