import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WDietServer
import WDietSQLite
import WDietTestSupport
import ZIPFoundation

@Suite("API: export, import and account deletion")
struct UserDataAPITests {
    /// Ana with a password, a profile (Berlin), a meal whose name needs CSV quoting, and a weight.
    static func makeAna(_ client: some TestClientProtocol, email: String = "ana@example.com") async throws -> APISession {
        let signedIn = try await client.register(email)
        let ana = APISession(token: signedIn.token, userId: signedIn.user.id)
        #expect(try await client.api(.put, "/api/v1/profile", ana, json: APIFixtures.profile()).status == .created)
        let meal = try await client.api(.post, "/api/v1/meals", ana, json: [
            "name": "Soup, \"hot\"\nbowl", "calories": 420, "protein": 21.5, "loggedAt": "2026-03-01T08:15:00Z",
        ])
        #expect(meal.status == .created, "\(meal.text)")
        #expect(try await client.api(.post, "/api/v1/weights", ana, json: ["kg": 80.4, "loggedAt": "2026-03-01T06:00:00Z"]).status == .created)
        // A journal entry, synced as a generic row.
        let journal = try await client.api(.post, "/api/v1/sync/push", ana, json: ["changes": [[
            "idempotencyKey": "journal-1", "entity": "row", "op": "upsert", "id": journalRowId, "collection": "diary",
            "data": ["mood": 4, "note": "Slept well, \"ate\" early"],
        ]]])
        #expect(journal.status == .ok, "\(journal.text)")
        return ana
    }

    static let journalRowId = "7d1c52a8-1111-4c3e-9a55-0c3f8e1d2b4a"

    @Test("GET /export: one JSON document as an attachment named by the user's day, without secrets", arguments: StoreBackend.allCases)
    func exportJSON(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let ana = try await Self.makeAna(client)
            let ben = try await client.signInWithProfile()
            _ = try await client.api(.post, "/api/v1/meals", ben, json: ["name": "Ben's dinner", "calories": 900])

            let response = try await client.api(.get, "/api/v1/export?format=json", ana)

            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            #expect(response.headers[.contentDisposition] == "attachment; filename=\"w-diet-export-2026-03-01.json\"")
            #expect(response.headers[.cacheControl] == "no-store")
            let document = try response.object()
            #expect(document["format"] as? String == "w-diet-export")
            #expect(number(document["formatVersion"]) == 1)
            let account = try #require(document["account"] as? [String: Any])
            #expect(account["email"] as? String == "ana@example.com")
            #expect(account["id"] as? String == ana.userId.apiText)
            let meals = try #require(document["meals"] as? [[String: Any]])
            #expect(meals.map { $0["name"] as? String } == ["Soup, \"hot\"\nbowl"])
            #expect(number(meals.first?["calories"]) == 420)
            #expect(number(meals.first?["protein"]) == 21.5)
            #expect(meals.first?["localDate"] as? String == "2026-03-01")
            #expect(meals.first?["loggedAt"] as? String == "2026-03-01T08:15:00.000Z")
            let weights = try #require(document["weights"] as? [[String: Any]])
            #expect(weights.map { number($0["kg"]) } == [80.4])
            let profile = try #require(document["profile"] as? [String: Any])
            #expect(profile["timeZone"] as? String == "Europe/Berlin")
            #expect(profile["eatingWindowStart"] as? String == "12:00")
            let rows = try #require(document["rows"] as? [[String: Any]])
            #expect(rows.map { $0["collection"] as? String } == ["diary"])
            #expect(rows.first?["id"] as? String == Self.journalRowId)
            #expect(rows.first?["data"] as? NSDictionary == ["mood": 4, "note": "Slept well, \"ate\" early"] as NSDictionary)
            // Nothing that signs in, and nothing of Ben's.
            let text = response.text
            #expect(!text.contains("$2"))
            #expect(!text.contains(ana.token))
            #expect(!text.contains("passwordHash"))
            #expect(!text.contains("Ben's dinner"))
            // No format means JSON.
            #expect(try await client.api(.get, "/api/v1/export", ana).text.hasPrefix("{\"account\""))
        }
    }

    /// RFC 4180 read back: quoted fields with doubled quotes, commas and line breaks inside; CRLF between records.
    static func parseCSV(_ text: String) -> [[String]] {
        var rows: [[String]] = [], row: [String] = [], field = ""
        var quoted = false, index = text.startIndex
        while index < text.endIndex {
            let c = text[index]
            index = text.index(after: index)
            if quoted {
                if c == "\"" {
                    if index < text.endIndex, text[index] == "\"" { field.append("\""); index = text.index(after: index) } else { quoted = false }
                } else { field.append(c) }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                row.append(field); field = ""
            } else if c == "\r\n" || c == "\n" {
                row.append(field); field = ""; rows.append(row); row = []
            } else {
                field.append(c)
            }
        }
        return rows
    }

    @Test("GET /export?format=csv: a zip of one UTF-8 CSV per table with a header row and RFC 4180 quoting", arguments: StoreBackend.allCases)
    func exportCSV(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let ana = try await Self.makeAna(client)
            let response = try await client.api(.get, "/api/v1/export?format=csv", ana)

            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/zip")
            #expect(response.headers[.contentDisposition] == "attachment; filename=\"w-diet-export-2026-03-01.zip\"")
            let archive = try Archive(data: Data(buffer: response.body), accessMode: .read)
            var files: [String: String] = [:]
            for entry in archive {
                var data = Data()
                _ = try archive.extract(entry) { data.append($0) }
                let text = String(decoding: data, as: UTF8.self)
                // Invalid UTF-8 would have been replaced on decoding, so the bytes would not come back the same.
                #expect(Data(text.utf8) == data, "\(entry.path) is not UTF-8")
                files[entry.path] = text
                #expect(entry.isCompressed)
            }
            #expect(files.keys.sorted() == [
                "account.csv", "analytics_events.csv", "dismissed_tips.csv", "export.json", "identities.csv", "meals.csv",
                "profile.csv", "rows.csv", "weights.csv",
            ])
            let rows = Self.parseCSV(try #require(files["rows.csv"]))
            #expect(rows.first == ["collection", "id", "data", "version", "createdAt", "updatedAt"])
            #expect(rows.count == 2)
            #expect(Array(rows[1].prefix(3)) == ["diary", Self.journalRowId, #"{"mood":4,"note":"Slept well, \"ate\" early"}"#])
            let mealsText = try #require(files["meals.csv"])
            #expect(mealsText.contains("\"Soup, \"\"hot\"\"\nbowl\""))
            #expect(mealsText.hasSuffix("\r\n"))
            let meals = Self.parseCSV(mealsText)
            #expect(meals.first == ["id", "localDate", "loggedAt", "name", "source", "foodId", "grams", "calories", "protein",
                                    "carbs", "fat", "fiber", "version", "createdAt", "updatedAt", "slot"])
            #expect(meals.count == 2)
            let meal = Dictionary(uniqueKeysWithValues: zip(meals[0], meals[1]))
            #expect(meal["name"] == "Soup, \"hot\"\nbowl")
            #expect(meal["calories"] == "420")
            #expect(meal["protein"] == "21.5")
            #expect(meal["carbs"] == "")
            #expect(meal["localDate"] == "2026-03-01")
            #expect(meal["slot"] == "breakfast")  // logged at 09:15 in Berlin without a slot
            #expect(meal["source"] == "manual")
            let weights = Self.parseCSV(try #require(files["weights.csv"]))
            #expect(weights.count == 2)
            #expect(weights[1][3] == "80.4")
            let account = Self.parseCSV(try #require(files["account.csv"]))
            #expect(account == [
                ["id", "email", "displayName", "createdAt", "language", "appearance"],
                [ana.userId.apiText, "ana@example.com", "", "2026-03-01T09:00:00.000Z", "", ""],
            ])
            let profile = Self.parseCSV(try #require(files["profile.csv"]))
            #expect(profile.count == 2)
            #expect(Dictionary(uniqueKeysWithValues: zip(profile[0], profile[1]))["dietaryPreferences"] == "[]")
            #expect(Self.parseCSV(try #require(files["identities.csv"])) == [["issuer", "email", "linkedAt"]])
        }
    }

    @Test("an unknown format is 400 in the error shape; every data route needs a session", arguments: StoreBackend.allCases)
    func badFormatAndSignedOut(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let ana = try await client.signInWithProfile()
            let response = try await client.api(.get, "/api/v1/export?format=xml", ana)
            #expect(response.status == .badRequest)
            #expect(try response.errorDetail().fields == ["format": "Expected json or csv"])

            for (method, path) in [(HTTPRequest.Method.get, "/api/v1/export"), (.post, "/api/v1/import"), (.delete, "/api/v1/account")] {
                let response = try await client.api(method, path, nil, body: "{}")
                #expect(response.status == .unauthorized, "\(method) \(path)")
            }
        }
    }

    @Test("POST /import: the JSON export into a fresh account, same counts and values; again is 409", arguments: StoreBackend.allCases)
    func importRoundTrip(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let ana = try await Self.makeAna(client)
            let exported = try await client.api(.get, "/api/v1/export", ana).text
            let fresh = try await client.register("ana.new@example.com")
            let newcomer = APISession(token: fresh.token, userId: fresh.user.id)

            let response = try await client.api(.post, "/api/v1/import", newcomer, body: exported)

            #expect(response.status == .created, "\(response.text)")
            let body = try response.object()
            let imported = try #require(body["imported"] as? [String: Any])
            #expect(number(imported["profile"]) == 1)
            #expect(number(imported["meals"]) == 1)
            #expect(number(imported["weights"]) == 1)
            #expect(number(imported["rows"]) == 1)
            let before = try JSONSerialization.jsonObject(with: Data(exported.utf8)) as? [String: Any]
            // Ana still has her rows on this server, so the copies got new ids: the meal, the weight, and the events
            // the server recorded about them (recorded off the request's path, so counted rather than assumed).
            let events = (before?["analyticsEvents"] as? [Any])?.count ?? 0
            #expect(number(imported["analyticsEvents"]) == Double(events))
            #expect(number(body["newIds"]) == Double(2 + events))
            let after = try await client.api(.get, "/api/v1/export", newcomer).object()
            func stripped(_ rows: Any?) -> [NSDictionary] {
                ((rows as? [[String: Any]]) ?? []).map { row in
                    var row = row
                    row["id"] = nil
                    row["version"] = nil
                    return row as NSDictionary
                }
            }
            for key in ["meals", "weights", "analyticsEvents", "dismissedTips", "rows"] {
                #expect(stripped(after[key]) == stripped(before?[key]), "\(key)")
            }
            var profileBefore = try #require(before?["profile"] as? [String: Any]), profileAfter = try #require(after["profile"] as? [String: Any])
            profileBefore["version"] = nil
            profileAfter["version"] = nil
            #expect(profileAfter as NSDictionary == profileBefore as NSDictionary)
            // The dashboard reads what was imported.
            let dashboard = try await client.api(.get, "/api/v1/dashboard?date=2026-03-01", newcomer).object()
            #expect(number((dashboard["totals"] as? [String: Any])?["calories"]) == 420)

            let again = try await client.api(.post, "/api/v1/import", newcomer, body: exported)
            #expect(again.status == .conflict)
            #expect(try again.errorDetail().code == "account_not_empty")

            // An export made before rows were added (no "rows" member) still imports, with none.
            var older = try #require(before)
            older["rows"] = nil
            let oldFormat = try await client.register("ana.old@example.com")
            let fromOlder = try await client.api(
                .post, "/api/v1/import", APISession(token: oldFormat.token, userId: oldFormat.user.id), json: older)
            #expect(fromOlder.status == .created, "\(fromOlder.text)")
            #expect(number(try #require(try fromOlder.object()["imported"] as? [String: Any])["rows"]) == 0)
        }
    }

    @Test("a gender description goes out in the JSON and CSV exports and comes back with the import")
    func genderDescriptionRoundTrip() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let signedIn = try await client.register("sam@example.com")
            let sam = APISession(token: signedIn.token, userId: signedIn.user.id)
            let created = try await client.api(.put, "/api/v1/profile", sam, json: APIFixtures.profile([
                "sex": "other", "genderDescription": "Two-spirit 🪶",
            ]))
            #expect(created.status == .created, "\(created.text)")

            let exported = try await client.api(.get, "/api/v1/export", sam).text
            let document = try JSONSerialization.jsonObject(with: Data(exported.utf8)) as? [String: Any]
            let profile = try #require(document?["profile"] as? [String: Any])
            #expect(profile["sex"] as? String == "other")
            #expect(profile["genderDescription"] as? String == "Two-spirit 🪶")

            let csv = try await client.api(.get, "/api/v1/export?format=csv", sam)
            let archive = try Archive(data: Data(buffer: csv.body), accessMode: .read)
            let entry = try #require(archive["profile.csv"])
            var data = Data()
            _ = try archive.extract(entry) { data.append($0) }
            let rows = Self.parseCSV(String(decoding: data, as: UTF8.self))
            #expect(Dictionary(uniqueKeysWithValues: zip(rows[0], rows[1]))["genderDescription"] == "Two-spirit 🪶")

            let fresh = try await client.register("sam.new@example.com")
            let newcomer = APISession(token: fresh.token, userId: fresh.user.id)
            let imported = try await client.api(.post, "/api/v1/import", newcomer, body: exported)
            #expect(imported.status == .created, "\(imported.text)")
            let read = try await client.api(.get, "/api/v1/profile", newcomer).object()
            #expect(read["sex"] as? String == "other")
            #expect(read["genderDescription"] as? String == "Two-spirit 🪶")
        }
    }

    @Test("the profile's earlier plan changes go out in the JSON and CSV exports and come back with the import")
    func planHistoryRoundTrip() async throws {
        let t = try TestApp(clockStart: Fixtures.utc("2026-02-10T09:00:00Z"))
        try await t.app.test(.router) { client in
            let signedIn = try await client.register("kim@example.com")
            let kim = APISession(token: signedIn.token, userId: signedIn.user.id)
            _ = try await client.api(.put, "/api/v1/profile", kim, json: APIFixtures.profile())
            // Very active from a save on 15 Feb, maintaining from one on 28 Feb: two changes, the first an earlier one.
            t.clock.set(Fixtures.utc("2026-02-15T14:00:00Z"))
            _ = try await client.api(.put, "/api/v1/profile", kim, json: APIFixtures.profile(["activity": "very"]))
            t.clock.set(Fixtures.utc("2026-02-28T14:00:00Z"))
            _ = try await client.api(.put, "/api/v1/profile", kim, json: APIFixtures.profile(["activity": "very", "goal": "maintain"]))

            let exported = try await client.api(.get, "/api/v1/export", kim).text
            let document = try JSONSerialization.jsonObject(with: Data(exported.utf8)) as? [String: Any]
            let profile = try #require(document?["profile"] as? [String: Any])
            #expect((profile["planChange"] as? [String: Any])?["changedOn"] as? String == "2026-02-28")
            let earlier = try #require(profile["earlierPlanChanges"] as? [[String: Any]])
            #expect(earlier.map { $0["changedOn"] as? String } == ["2026-02-15"])
            #expect((earlier.first?["previous"] as? [String: Any])?["activity"] as? String == "moderate")

            let csv = try await client.api(.get, "/api/v1/export?format=csv", kim)
            let archive = try Archive(data: Data(buffer: csv.body), accessMode: .read)
            var data = Data()
            _ = try archive.extract(try #require(archive["profile.csv"])) { data.append($0) }
            let rows = Self.parseCSV(String(decoding: data, as: UTF8.self))
            #expect(Dictionary(uniqueKeysWithValues: zip(rows[0], rows[1]))["planEarlierChanges"]?.contains("\"changedOn\":\"2026-02-15\"") == true)

            // Imported elsewhere, 20 Feb keeps its own targets (very active, losing: 1,780 × 1.725 − 500 = 2,571 in a diet phase).
            let fresh = try await client.register("kim.new@example.com")
            let newcomer = APISession(token: fresh.token, userId: fresh.user.id)
            #expect(try await client.api(.post, "/api/v1/import", newcomer, body: exported).status == .created)
            let plan = try await client.api(.get, "/api/v1/plan?date=2026-02-20", newcomer).object()
            #expect(number(plan["calories"]) == 2_571)
            // 10 Feb (plan day 41, maintenance), still moderately active: 1,780 × 1.55 = 2,759.
            let early = try await client.api(.get, "/api/v1/plan?date=2026-02-10", newcomer).object()
            #expect(number(early["calories"]) == 2_759)
        }
    }

    @Test("an export whose description breaks the rules is refused by path; one from before the field imports with none")
    func genderDescriptionImportRules() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let signedIn = try await client.register("sam@example.com")
            let sam = APISession(token: signedIn.token, userId: signedIn.user.id)
            #expect(try await client.api(.put, "/api/v1/profile", sam, json: APIFixtures.profile(["sex": "other"])).status == .created)
            let exported = try await client.api(.get, "/api/v1/export", sam).object()
            #expect((exported["profile"] as? [String: Any])?["genderDescription"] == nil, "none is left out")

            func importing(_ description: Any?, sex: String) async throws -> TestResponse {
                var document = exported
                var profile = document["profile"] as? [String: Any] ?? [:]
                profile["sex"] = sex
                profile["genderDescription"] = description
                document["profile"] = profile
                let fresh = try await client.register("sam.\(UUID().uuidString.prefix(8))@example.com")
                let body = String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self)
                return try await client.api(.post, "/api/v1/import", APISession(token: fresh.token, userId: fresh.user.id), body: body)
            }
            let tooLong = try await importing("Twenty-one characters", sex: "other")
            #expect(tooLong.status == .unprocessableContent)
            #expect(try tooLong.errorDetail().fields == ["profile": "Gender description must be 20 characters or fewer"])
            let notOther = try await importing("Agender", sex: "female")
            #expect(try notOther.errorDetail().fields == ["profile": "A gender description can only be added for Other"])
            // Hand-edited spaces are trimmed, as the form trims them.
            #expect(try await importing("  Agender ", sex: "other").status == .created)
        }
    }

    @Test("POST /import refuses: not JSON 400, another format or version 422, malformed members 422 by path, too large 413", arguments: StoreBackend.allCases)
    func importRefusals(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let ana = try await Self.makeAna(client)
            let exported = try await client.api(.get, "/api/v1/export", ana).object()
            let fresh = try await client.guest()
            let newcomer = APISession(token: fresh.token, userId: fresh.user.id)
            func post(_ document: [String: Any]) async throws -> TestResponse {
                try await client.api(.post, "/api/v1/import", newcomer, json: document)
            }

            #expect(try await client.api(.post, "/api/v1/import", newcomer, body: "not json").status == .badRequest)

            var future = exported
            future["formatVersion"] = 2
            let version = try await post(future)
            #expect(version.status == .unprocessableContent)
            #expect(try version.errorDetail().fields == ["formatVersion": "Expected 1"])

            let other = try await post(["meals": []])
            #expect(other.status == .unprocessableContent)
            #expect(try other.errorDetail().fields?["format"] != nil)

            var wrongType = exported
            var meals = try #require(exported["meals"] as? [[String: Any]])
            meals[0]["calories"] = "lots"
            wrongType["meals"] = meals
            let typed = try await post(wrongType)
            #expect(typed.status == .unprocessableContent)
            #expect(try typed.errorDetail().fields == ["meals.0.calories": "Expected a number"])

            var refused = exported
            meals[0]["calories"] = 0
            refused["meals"] = meals
            var weights = try #require(exported["weights"] as? [[String: Any]])
            weights[0]["id"] = "not-an-id"
            refused["weights"] = weights
            let values = try await post(refused)
            #expect(values.status == .unprocessableContent)
            #expect(try values.errorDetail().fields == [
                "meals.0": "Calories must be between 1-9999", "weights.0.id": "Expected an id such as 3F2504E0-4F89-11D3-9A0C-0305E82C3301",
            ])
            #expect(try values.errorDetail().message == "The export has 2 values that cannot be imported.")

            let huge = "{\"format\":\"w-diet-export\",\"pad\":\"" + String(repeating: "x", count: UserDataAPI.maxImportBytes) + "\"}"
            let tooLarge = try await client.api(.post, "/api/v1/import", newcomer, body: huge)
            #expect(tooLarge.status == .contentTooLarge)
            #expect(try tooLarge.errorDetail().code == "too_large")

            // Nothing of the refused documents was written.
            let after = try await client.api(.get, "/api/v1/export", newcomer).object()
            #expect((after["meals"] as? [Any])?.isEmpty == true)
            #expect(after["profile"] == nil)
        }
    }

    @Test("DELETE /account with the password: 204, every session of the user ends at once, others unaffected", arguments: StoreBackend.allCases)
    func deleteWithPassword(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let ana = try await Self.makeAna(client)
            let second = try await client.login("ana@example.com").json(SignedInBody.self)
            let ben = try await client.signInWithProfile()
            let benMeals = try await client.api(.get, "/api/v1/meals", ben).text
            // Both of Ana's tokens are in the session cache now.
            #expect(try await client.me(ana.token).status == .ok)
            #expect(try await client.me(second.token).status == .ok)

            let missing = try await client.api(.delete, "/api/v1/account", ana, json: [:])
            #expect(missing.status == .unprocessableContent)
            #expect(try missing.errorDetail().fields == ["password": "Please enter your password"])
            let wrong = try await client.api(.delete, "/api/v1/account", ana, json: ["password": "wrong horse"])
            #expect(wrong.status == .unauthorized)
            #expect(try wrong.errorDetail().code == "invalid_credentials")
            #expect(try await client.me(ana.token).status == .ok)

            let deleted = try await client.api(.delete, "/api/v1/account", ana, json: ["password": "correct horse"])
            #expect(deleted.status == .noContent)

            #expect(try await client.me(ana.token).status == .unauthorized)
            #expect(try await client.me(second.token).status == .unauthorized)
            #expect(try await client.api(.get, "/api/v1/export", ana).status == .unauthorized)
            #expect(try await client.login("ana@example.com").status == .unauthorized)
            #expect(try await t.services.users.user(id: ana.userId) == nil)
            #expect(try await client.api(.get, "/api/v1/meals", ben).text == benMeals)
            // The email can sign up again, as a new account with nothing in it.
            let again = try await client.register("ana@example.com")
            #expect(again.user.id != ana.userId)
        }
    }

    @Test("DELETE /account: wrong passwords are throttled like sign-ins (429 with Retry-After)", arguments: StoreBackend.allCases)
    func deleteThrottled(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let ana = try await Self.makeAna(client)
            // The email from this client address: 5 (`LoginThrottle`; in-process tests have no address, one shared).
            for _ in 0..<LoginThrottle.emailAddressLimit {
                #expect(try await client.api(.delete, "/api/v1/account", ana, json: ["password": "wrong horse"]).status == .unauthorized)
            }
            let locked = try await client.api(.delete, "/api/v1/account", ana, json: ["password": "correct horse"])
            #expect(locked.status == .tooManyRequests)
            #expect(locked.headers[.retryAfter] == "900")
            #expect(try await t.services.users.user(id: ana.userId) != nil)
        }
    }

    @Test("DELETE /account for a guest: confirm DELETE, nothing else", arguments: StoreBackend.allCases)
    func deleteGuest(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let guest = try await client.signInWithProfile()
            let refused = try await client.api(.delete, "/api/v1/account", guest, json: ["confirm": "yes"])
            #expect(refused.status == .unprocessableContent)
            #expect(try refused.errorDetail().fields == ["confirm": "Type DELETE to confirm"])
            #expect(try await client.api(.delete, "/api/v1/account", guest, json: ["confirm": "DELETE"]).status == .noContent)
            #expect(try await client.api(.get, "/api/v1/profile", guest).status == .unauthorized)
        }
    }

    @Test("Settings → Delete account: wrong password reopens the dialog; the right one signs out to the welcome page", arguments: StoreBackend.allCases)
    func webDeletion(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            var browser = TestBrowser(client)
            _ = try await browser.get("/onboarding")
            let signUp = try await browser.post(
                "/onboarding/account", [("email", "ana@example.com"), ("password", "correct horse")],
                csrf: browser.cookies[WebSession.preSessionCookie]
            )
            #expect(signUp.status == .seeOther, "\(signUp.text)")
            let profile = try await browser.api(.put, "/api/v1/profile", json: WebSessionTests.profileJSON, csrf: browser.csrfToken)
            #expect(profile.status == .created)
            let settings = try await browser.get("/settings")
            #expect(settings.text.contains("id=\"delete-account-dialog\""))
            #expect(settings.text.contains("This cannot be undone."))
            #expect(settings.text.contains("/api/v1/export?format=csv"))
            let session = try #require(browser.session)

            #expect(try await browser.post("/settings/delete-account", [("password", "correct horse")], csrf: nil).status == .forbidden)
            let wrong = try await browser.post("/settings/delete-account", [("password", "wrong horse")], csrf: browser.csrfToken)
            #expect(wrong.status == .unauthorized)
            #expect(wrong.text.contains("data-open"))
            #expect(wrong.text.contains("Your password is incorrect"))

            let deleted = try await browser.post("/settings/delete-account", [("password", "correct horse")], csrf: browser.csrfToken)
            #expect(deleted.status == .seeOther)
            #expect(deleted.headers[.location] == "/?account=deleted")
            #expect(browser.session == nil)
            let welcome = try await browser.get("/?account=deleted")
            #expect(welcome.status == .ok)
            #expect(welcome.text.contains("data-page-toast=\"Your account and all your data have been deleted.\""))
            // The old cookie opens nothing.
            var replay = TestBrowser(client)
            replay.cookies["wdiet_session"] = session
            #expect(try await replay.get("/settings").headers[.location] == "/")
        }
    }
}
