import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietTestSupport
@testable import WDietServer

/// Issue 20: the Challenge through `/api/v1/challenge…` on both backends. The clock: Tuesday 1 December 2026, 09:00
/// UTC (10:00 in the profile's Berlin); the challenge starts on Monday 30 November, 80 → 75 kg.
@Suite("Challenge API")
struct ChallengeAPITests {
    static let clock = Fixtures.utc("2026-12-01T09:00:00Z")

    static func object(_ value: Any?) -> [String: Any] { (value as? [String: Any]) ?? [:] }

    @Test("a week of the challenge: start, daily logs, the late photo, one weigh-in a week, the score, progress, settings, export", arguments: StoreBackend.allCases)
    func walk(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend, clockStart: Self.clock) { _, client in
            let session = try await client.signInWithProfile()
            #expect(try await client.api(.get, "/api/v1/challenge", session).status == .notFound)

            // Start: a Monday and a goal weight.
            let wednesday = try await client.api(.post, "/api/v1/challenge", session, json: ["startDate": "2026-12-02", "goalWeight": 75])
            #expect(wednesday.status == .unprocessableContent)
            #expect(try wednesday.errorDetail().fields?["startDate"] == "A challenge starts on a Monday.")
            let noGoal = try await client.api(.post, "/api/v1/challenge", session, json: ["startDate": "2026-11-30"])
            #expect(try noGoal.errorDetail().fields?["goalWeight"] == "Weight must be between 20-500 kg")
            let started = try await client.api(.post, "/api/v1/challenge", session, json: ["startDate": "2026-11-30", "goalWeight": 75, "startWeight": 80])
            #expect(started.status == .created, "\(String(buffer: started.body))")
            let home = try started.object()
            #expect(home["status"] as? String == "running")
            #expect(number(home["week"]) == 1)
            #expect(number(home["dayOfChallenge"]) == 2)
            #expect(Self.object(Self.object(home["todayChecklist"])["nutrition"])["state"] as? String == "pending")
            let challenge = Self.object(home["challenge"])
            #expect(challenge["startDate"] as? String == "2026-11-30")
            #expect(number(challenge["weeks"]) == 17)
            #expect(number(challenge["goalWeightKg"]) == 75)
            #expect((challenge["id"] as? String).map { $0 == $0.lowercased() } == true)

            // Monday typed, Tuesday skipped; a skipped day with calories, a day ahead and a day before the start refused.
            let monday = try await client.api(.put, "/api/v1/challenge/days/2026-11-30/nutrition", session,
                                              json: ["kcal": 2_100, "protein": 150, "carbs": "200", "fat": 70])
            #expect(monday.status == .ok, "\(String(buffer: monday.body))")
            let mondayVersion = try #require(number(try monday.object()["version"]))
            #expect(try await client.api(.put, "/api/v1/challenge/days/2026-12-01/nutrition", session, json: ["status": "skipped"]).status == .ok)
            let skippedWithCalories = try await client.api(.put, "/api/v1/challenge/days/2026-12-01/nutrition", session,
                                                           json: ["status": "skipped", "kcal": 300])
            #expect(try skippedWithCalories.errorDetail().fields?["kcal"] == "A skipped day, or one taken from your logged meals, has no typed totals.")
            let ahead = try await client.api(.put, "/api/v1/challenge/days/2026-12-05/nutrition", session, json: ["kcal": 1_800])
            #expect(try ahead.errorDetail().fields?["date"] == "You can log up to today.")
            let before = try await client.api(.put, "/api/v1/challenge/days/2026-11-29/nutrition", session, json: ["kcal": 1_800])
            #expect(try before.errorDetail().fields?["date"] == "Choose a day within your challenge (30 Nov 2026 to 28 Mar 2027).")
            // An edit from a stale version loses: 409 with the server's row.
            #expect(try await client.api(.put, "/api/v1/challenge/days/2026-11-30/nutrition", session, json: ["kcal": 2_000]).status == .ok)
            let stale = try await client.api(.put, "/api/v1/challenge/days/2026-11-30/nutrition", session,
                                             json: ["kcal": 1_900, "baseVersion": mondayVersion])
            #expect(stale.status == .conflict)
            let staleError = Self.object(try stale.object()["error"])
            #expect(staleError["code"] as? String == "changed_elsewhere")
            #expect(number(Self.object(staleError["server"])["kcal"]) == 2_000)

            // Workout from the Push template; habits ticked over two requests (members left out stay).
            let workout = try await client.api(.put, "/api/v1/challenge/days/2026-11-30/workout", session, json: ["type": "push", "useTemplate": true])
            #expect(number(try workout.object()["minutes"]) == 45)
            #expect(try workout.object()["notes"] as? String == "Bench press, overhead press, dips, triceps")
            let badType = try await client.api(.put, "/api/v1/challenge/days/2026-11-30/workout", session, json: ["type": "yoga"])
            #expect(try badType.errorDetail().fields?["type"] == "Enter a valid value.")
            _ = try await client.api(.put, "/api/v1/challenge/days/2026-11-30/habits", session, json: ["water": true, "sleep": true])
            let habits = try await client.api(.put, "/api/v1/challenge/days/2026-11-30/habits", session, json: ["steps": true])
            #expect(try habits.object()["water"] as? Bool == true && habits.object()["steps"] as? Bool == true && habits.object()["sleep"] as? Bool == true)

            // The week's photo: the picture must be the user's; added on Tuesday it is late.
            let unknown = try await client.api(.put, "/api/v1/challenge/weeks/1/photo", session, json: ["mediaId": UUID().uuidString])
            #expect(try unknown.errorDetail().fields?["mediaId"] == "This photo was not found. Upload it again.")
            let mediaId = MediaAPITests.newId()
            let upload = try await MediaAPITests.put(client, mediaId, try await MediaFixtures.photo(width: 64, height: 64), type: "image/jpeg", session)
            #expect(upload.status == .created || upload.status == .ok, "\(String(buffer: upload.body))")
            let photo = try await client.api(.put, "/api/v1/challenge/weeks/1/photo", session, json: ["mediaId": mediaId])
            #expect(photo.status == .ok, "\(String(buffer: photo.body))")
            #expect(try photo.object()["late"] as? Bool == true)
            #expect(try photo.object()["takenOn"] as? String == "2026-12-01")
            #expect(try await client.api(.put, "/api/v1/challenge/weeks/3/photo", session, json: ["mediaId": mediaId]).errorDetail().fields?["week"]
                    == "This week has not begun yet.")

            // One weigh-in a week: a second is "Already logged this week" with the first; PUT edits it.
            let weighIn = try await client.api(.post, "/api/v1/challenge/weeks/1/weigh-in", session, json: ["weight": 79.4, "waist": 90])
            #expect(weighIn.status == .created)
            #expect(number(try weighIn.object()["kg"]) == 79.4)
            #expect(number(try weighIn.object()["waistCm"]) == 90)
            #expect(try weighIn.object()["late"] as? Bool == true)
            let again = try await client.api(.post, "/api/v1/challenge/weeks/1/weigh-in", session, json: ["weight": 79.0])
            #expect(again.status == .conflict)
            let againError = Self.object(try again.object()["error"])
            #expect(againError["code"] as? String == "already_logged")
            #expect(againError["message"] as? String == "Already logged this week")
            #expect(number(Self.object(againError["existing"])["kg"]) == 79.4)
            let edited = try await client.api(.put, "/api/v1/challenge/weeks/1/weigh-in", session, json: ["weight": 79.2, "waist": 89.5])
            #expect(number(try edited.object()["kg"]) == 79.2)
            #expect(try edited.object()["loggedOn"] as? String == "2026-12-01")

            // Home: Monday done, Tuesday skipped; 1 nutrition day 7.14 + 1 workout 2.86 + 3 habits 2.14 + photo 10 +
            // weigh-in 5 = 27.14 → 27, gray.
            let after = try await client.api(.get, "/api/v1/challenge", session).object()
            let score = Self.object(after["score"])
            #expect(number(score["score"]) == 27)
            #expect(score["colour"] as? String == "gray")
            #expect(number(score["nutritionDays"]) == 1)
            #expect(Self.object(Self.object(after["todayChecklist"])["nutrition"])["state"] as? String == "skipped")
            #expect(Self.object(Self.object(after["thisWeek"])["photo"])["late"] as? Bool == true)
            let streaks = (after["streaks"] as? [[String: Any]]) ?? []
            #expect(streaks.map { "\($0["kind"] ?? ""):\(Int(number($0["current"]) ?? -1))" } == ["nutrition:0", "workout:1", "habits:1"])

            // The Log screen: Tuesday with Monday's totals to ghost.
            let day = try await client.api(.get, "/api/v1/challenge/days/2026-12-01", session).object()
            #expect(number(Self.object(day["yesterdayNutrition"])["kcal"]) == 2_000)
            #expect((day["workoutTemplates"] as? [Any])?.count == 5)

            // Progress: the pace line from 80 to 75 at 18 Mondays; current 79.2 on Tuesday.
            let progress = try await client.api(.get, "/api/v1/challenge/progress", session).object()
            let line = (progress["paceLine"] as? [[String: Any]]) ?? []
            #expect(line.count == 18)
            #expect(number(line.first?["kg"]) == 80)
            #expect(number(line.last?["kg"]) == 75)
            #expect(progress["pacePlan"] as? String == "matador")   // the profile's goal is Lose
            #expect(number(Self.object(progress["pace"])["currentKg"]) == 79.2)
            #expect((progress["photos"] as? [Any])?.count == 1)
            #expect((progress["weeks"] as? [Any])?.count == 1)

            // Settings: 003's defaults, then a change.
            let defaults = try await client.api(.get, "/api/v1/challenge/settings", session).object()
            let reminders = (defaults["reminders"] as? [[String: Any]]) ?? []
            #expect(reminders.map { "\($0["kind"] ?? "") \($0["time"] ?? "")" } == ["nutrition 20:30", "workout 18:00", "photo 10:00", "weighIn 10:15", "habits 21:00"])
            #expect(defaults["smartRules"] as? Bool == true)
            #expect(defaults["version"] is NSNull)
            let changed = try await client.api(.put, "/api/v1/challenge/settings", session, json: [
                "reminders": [["kind": "habits", "enabled": false], ["kind": "nutrition", "time": "21:15"]], "smartRules": false, "appLock": true,
            ])
            #expect(changed.status == .ok, "\(String(buffer: changed.body))")
            let saved = try await client.api(.get, "/api/v1/challenge/settings", session).object()
            let savedReminders = (saved["reminders"] as? [[String: Any]]) ?? []
            #expect(savedReminders.map { "\($0["kind"] ?? "") \($0["time"] ?? "") \($0["enabled"] ?? "")" }
                    == ["nutrition 21:15 1", "workout 18:00 1", "photo 10:00 1", "weighIn 10:15 1", "habits 21:00 0"])
            #expect(saved["smartRules"] as? Bool == false)
            #expect(saved["appLock"] as? Bool == true)
            let badTime = try await client.api(.put, "/api/v1/challenge/settings", session, json: ["reminders": [["kind": "photo", "time": "25:00"]]])
            #expect(try badTime.errorDetail().fields?["reminders.0.time"] == "Enter a valid value.")

            // Export: CSV one line per day so far, JSON every row.
            let csv = try await client.api(.get, "/api/v1/challenge/export?format=csv", session)
            #expect(csv.headers[.contentType] == "text/csv; charset=utf-8")
            let lines = String(buffer: csv.body).components(separatedBy: "\r\n").filter { !$0.isEmpty }
            #expect(lines.count == 3)
            #expect(lines[1] == "2026-11-30,1,logged,typed,2000,,,,,push,45,\"Bench press, overhead press, dips, triceps\",yes,yes,yes")
            #expect(lines[2] == "2026-12-01,1,skipped,,,,,,,,,,,,")
            let weeks = String(buffer: try await client.api(.get, "/api/v1/challenge/export?format=csv&table=weeks", session).body)
            #expect(weeks.contains("\r\n1,2026-11-30,27,gray,1,1,3,yes,yes,79.2,yes,89.5,,,,2000,,,\r\n"))
            let json = try await client.api(.get, "/api/v1/challenge/export", session).object()
            #expect((json["nutrition"] as? [Any])?.count == 2)
            #expect((json["weighIns"] as? [Any])?.count == 1)
            #expect(try await client.api(.get, "/api/v1/challenge/export?format=pdf", session).status == .badRequest)

            // Another user sees none of it.
            let other = try await client.signInWithProfile()
            #expect(try await client.api(.get, "/api/v1/challenge", other).status == .notFound)
            #expect(try await client.api(.put, "/api/v1/challenge/days/2026-11-30/nutrition", other, json: ["kcal": 1]).status == .notFound)

            // Deleting the challenge takes its rows; Home is 404 again.
            #expect(try await client.api(.delete, "/api/v1/challenge", session).status == .noContent)
            #expect(try await client.api(.get, "/api/v1/challenge", session).status == .notFound)
        }
    }

    @Test("bad paths and bodies are 4xx with a message, never 5xx", arguments: StoreBackend.allCases)
    func badInput(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend, clockStart: Self.clock) { _, client in
            let session = try await client.signInWithProfile()
            _ = try await client.api(.post, "/api/v1/challenge", session, json: ["startDate": "2026-11-30", "goalWeight": 75])
            #expect(try await client.api(.get, "/api/v1/challenge/days/not-a-day", session).status == .badRequest)
            #expect(try await client.api(.get, "/api/v1/challenge/weeks/0", session).status == .badRequest)
            #expect(try await client.api(.get, "/api/v1/challenge/weeks/99", session).status == .badRequest)
            #expect(try await client.api(.put, "/api/v1/challenge/days/2026-11-30/nutrition", session, body: "{not json").status == .badRequest)
            let text = try await client.api(.put, "/api/v1/challenge/days/2026-11-30/nutrition", session, json: ["kcal": "lots"])
            #expect(try text.errorDetail().fields?["kcal"] == "Enter a valid value.")
            #expect(try await client.api(.delete, "/api/v1/challenge/days/2026-11-30/nutrition", session).status == .notFound)
            #expect(try await client.api(.delete, "/api/v1/challenge/days/2026-11-30/sleep", session).status == .notFound)
            // In German: the same rules, the catalog's German messages.
            let german = try await client.execute(
                uri: "/api/v1/challenge/weeks/1/weigh-in", method: .post,
                headers: [.authorization: "Bearer \(session.token)", .contentType: "application/json", .acceptLanguage: "de"],
                body: ByteBuffer(string: #"{"weight": 5}"#))
            #expect(try german.errorDetail().fields?["weight"] == "Das Gewicht muss zwischen 20 und 500 kg liegen")
            _ = try await client.api(.post, "/api/v1/challenge/weeks/1/weigh-in", session, json: ["weight": 79])
            let taken = try await client.execute(
                uri: "/api/v1/challenge/weeks/1/weigh-in", method: .post,
                headers: [.authorization: "Bearer \(session.token)", .contentType: "application/json", .acceptLanguage: "de"],
                body: ByteBuffer(string: #"{"weight": 78}"#))
            #expect(Self.object(try taken.object()["error"])["message"] as? String == "Diese Woche schon eingetragen")
            // In pounds: 176.4 lb is 80.0 kg.
            let lb = try await client.api(.put, "/api/v1/challenge", session, json: ["weightUnit": "lb", "startWeight": 176.4])
            #expect(number(try lb.object()["startWeightKg"]) == 80)
            #expect(try lb.object()["weightUnit"] as? String == "lb")
        }
    }

    @Test("app lock: a PIN of 4–6 digits kept as a hash; a wrong PIN says how many are left; the fifth ends the session", arguments: StoreBackend.allCases)
    func appLock(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend, clockStart: Self.clock) { app, client in
            let session = try await client.signInWithProfile()
            #expect(try await client.api(.post, "/api/v1/challenge/app-lock/verify", session, json: ["pin": "2468"]).status == .notFound)
            for bad in ["123", "1234567", "12a4", "١٢٣٤"] {
                let refused = try await client.api(.put, "/api/v1/challenge/app-lock", session, json: ["pin": bad])
                #expect(try refused.errorDetail().fields?["pin"] == "A PIN has 4 to 6 digits.", "\(bad)")
            }
            #expect(try await client.api(.put, "/api/v1/challenge/app-lock", session, json: ["pin": "2468"]).status == .noContent)
            // Only a bcrypt hash is kept.
            let api = ChallengeAppLockAPI(services: app.services, accounts: AccountService(services: app.services, passwords: PasswordHasher(cost: 4)))
            let stored = try #require(try await api.store.appLock(userId: session.userId))
            #expect(stored.pinHash.hasPrefix("$2") && !stored.pinHash.contains("2468"))
            let wrong = try await client.api(.post, "/api/v1/challenge/app-lock/verify", session, json: ["pin": "1111"])
            #expect(wrong.status == .unprocessableContent)
            #expect(try wrong.errorDetail().code == "pin_wrong")
            #expect(try wrong.errorDetail().fields?["attemptsLeft"] == "4")
            // The right PIN starts the count over.
            #expect(try await client.api(.post, "/api/v1/challenge/app-lock/verify", session, json: ["pin": "2468"]).status == .noContent)
            for left in ["4", "3", "2", "1"] {
                let again = try await client.api(.post, "/api/v1/challenge/app-lock/verify", session, json: ["pin": "0000"])
                #expect(try again.errorDetail().fields?["attemptsLeft"] == left)
            }
            let fifth = try await client.api(.post, "/api/v1/challenge/app-lock/verify", session, json: ["pin": "0000"])
            #expect(fifth.status == .unauthorized)
            #expect(try fifth.errorDetail().code == "pin_locked_out")
            #expect(try fifth.errorDetail().message == "Too many wrong PINs. Sign in again.")
            // The session is over.
            #expect(try await client.api(.get, "/api/v1/profile", session).status == .unauthorized)
        }
    }
}
