import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietTestSupport

/// Issue 18: the Journal's entries through `/api/v1/journal/entries…` on both backends. TestApp's clock:
/// 2026-03-01 09:00 UTC, 10:00 in the profile's Europe/Berlin: today is Sunday 1 March 2026.
@Suite("Journal API: entries")
struct JournalAPITests {
    static func entry(_ response: TestResponse) throws -> [String: Any] {
        let object = try response.object()
        return try #require((object["entry"] as? [String: Any]) ?? object)
    }

    static func entries(_ response: TestResponse) throws -> [[String: Any]] {
        try #require(try response.object()["entries"] as? [[String: Any]])
    }

    @Test("POST fills today, now, text, the raw input and 002's category; 002's toast counts today's entries", arguments: StoreBackend.allCases)
    func create(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { _, client in
            let session = try await client.signInWithProfile()
            let first = try await client.api(.post, "/api/v1/journal/entries", session, json: ["processedDescription": "Two idlis and sambar"])
            #expect(first.status == .created)
            let object = try first.object()
            let entry = try Self.entry(first)
            let id = try #require(entry["id"] as? String)
            #expect(first.headers[.location] == "/api/v1/journal/entries/\(id)")
            #expect(entry["date"] as? String == "2026-03-01")
            #expect(entry["time"] as? String == "10:00")  // 09:00 UTC in Berlin
            #expect(entry["inputType"] as? String == "text")
            #expect(entry["rawInput"] as? String == "Two idlis and sambar")
            #expect(entry["category"] as? String == "breakfast")  // "idlis" → idli, a breakfast word
            #expect(entry["mediaIds"] as? [String] == [])
            #expect(entry["updatedAt"] is NSNull)
            #expect(number(object["todayCount"]) == 1)
            #expect(object["toast"] as? String == "First entry today! 🎉")

            // No keyword: the hour decides (21:00 is outside 5–20: snack); a later time sorts after.
            let second = try await client.api(.post, "/api/v1/journal/entries", session, json: ["processedDescription": "leftovers", "time": "21:00"])
            #expect(try Self.entry(second)["category"] as? String == "snack")
            #expect(try second.object()["toast"] as? String == "Meal #2 today!")
            // A chosen category wins over the words; null saves none.
            let chosen = try await client.api(.post, "/api/v1/journal/entries", session, json: [
                "processedDescription": "masala chai", "category": "dessert", "time": "08:00",
            ])
            #expect(try Self.entry(chosen)["category"] as? String == "dessert")
            let none = try await client.api(.post, "/api/v1/journal/entries", session, body: #"{"processedDescription":"a bite","category":null,"time":"09:30"}"#)
            #expect(try Self.entry(none)["category"] is NSNull)

            let day = try Self.entries(try await client.api(.get, "/api/v1/journal/entries", session))
            #expect(day.map { $0["processedDescription"] as? String } == ["masala chai", "a bite", "Two idlis and sambar", "leftovers"])

            // A past day has no toast.
            let past = try await client.api(.post, "/api/v1/journal/entries", session, json: ["processedDescription": "dosa", "date": "2026-02-27"])
            #expect(try Self.entry(past)["time"] as? String == "12:00")  // noon on another day
            #expect(try past.object()["toast"] == nil)
        }
    }

    @Test("GET ?from=&to=: the range's entries by day; from after to and more than 366 days are 400", arguments: StoreBackend.allCases)
    func range(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { _, client in
            let session = try await client.signInWithProfile()
            for (date, words) in [("2026-02-26", "toast"), ("2026-02-28", "rice"), ("2026-03-01", "coffee")] {
                let saved = try await client.api(.post, "/api/v1/journal/entries", session, json: ["processedDescription": words, "date": date])
                #expect(saved.status == .created)
            }
            let response = try await client.api(.get, "/api/v1/journal/entries?from=2026-02-27&to=2026-03-01", session)
            #expect(try response.object()["from"] as? String == "2026-02-27")
            #expect(try Self.entries(response).map { $0["processedDescription"] as? String } == ["rice", "coffee"])
            #expect(try Self.entries(try await client.api(.get, "/api/v1/journal/entries?from=2026-02-26", session)).count == 1)

            let backwards = try await client.api(.get, "/api/v1/journal/entries?from=2026-03-01&to=2026-02-01", session)
            #expect(backwards.status == .badRequest)
            let tooLong = try await client.api(.get, "/api/v1/journal/entries?from=2025-02-28&to=2026-03-01", session)
            #expect(tooLong.status == .badRequest)
            #expect(try tooLong.errorDetail().message == "Ask for at most 366 days at a time.")
            #expect(try await client.api(.get, "/api/v1/journal/entries?from=2025-03-01&to=2026-03-01", session).status == .ok)
            #expect(try await client.api(.get, "/api/v1/journal/entries?from=1.3.2026", session).status == .badRequest)
        }
    }

    @Test("the entry's rules answer 422 with each member's message", arguments: StoreBackend.allCases)
    func rules(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { _, client in
            let session = try await client.signInWithProfile()
            let blank = try await client.api(.post, "/api/v1/journal/entries", session, json: ["processedDescription": "   "])
            #expect(blank.status == .unprocessableContent)
            #expect(try blank.errorDetail().fields == ["processedDescription": "Describe what you ate in 1 to 2,000 characters."])
            let many = try await client.api(.post, "/api/v1/journal/entries", session, json: [
                "processedDescription": "rice", "time": "25:00", "category": "brunch", "inputType": "video", "date": "2026-03-03",
            ])
            #expect(many.status == .unprocessableContent)
            #expect(try many.errorDetail().fields == [
                "time": "Enter a time like 12:30.",
                "category": "Choose breakfast, lunch, snack, dinner, dessert, beverage or no category.",
                "inputType": "Choose text, photo or voice.",
                "date": "Choose a day between 1900 and today.",
            ])
            let mediaOnText = try await client.api(.post, "/api/v1/journal/entries", session, json: [
                "processedDescription": "rice", "mediaIds": [UUID().uuidString],
            ])
            #expect(try mediaOnText.errorDetail().fields == ["mediaIds": "A text entry has no photo or recording; save it as a photo or voice entry."])
            // Tomorrow is allowed (a device a zone ahead); nothing above was saved.
            #expect(try await client.api(.post, "/api/v1/journal/entries", session, json: ["processedDescription": "rice", "date": "2026-03-02"]).status == .created)
            #expect(try Self.entries(try await client.api(.get, "/api/v1/journal/entries?from=2026-02-01&to=2026-03-02", session)).count == 1)
            #expect(try await client.api(.post, "/api/v1/journal/entries", session, body: "[1]").status == .badRequest)
        }
    }

    @Test("PUT changes what is sent and marks it edited; category null removes it, auto detects it again", arguments: StoreBackend.allCases)
    func change(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInWithProfile()
            let created = try Self.entry(try await client.api(.post, "/api/v1/journal/entries", session, json: ["processedDescription": "um two idlis"]))
            let id = try #require(created["id"] as? String)
            let version = try #require(number(created["version"]))

            // Nothing changed: the entry stays as it was, not edited.
            let same = try await client.api(.put, "/api/v1/journal/entries/\(id)", session, json: ["processedDescription": "um two idlis"])
            #expect(try Self.entry(same)["updatedAt"] is NSNull)

            t.clock.advance(seconds: 90)
            let edited = try Self.entry(try await client.api(.put, "/api/v1/journal/entries/\(id)", session, json: ["processedDescription": "Two idlis", "time": "08:15"]))
            #expect(edited["processedDescription"] as? String == "Two idlis")
            #expect(edited["rawInput"] as? String == "um two idlis", "the original input stays")
            #expect(edited["time"] as? String == "08:15")
            #expect(edited["updatedAt"] as? String == "2026-03-01T09:01:30.000Z")
            #expect(try #require(number(edited["version"])) > version)

            let cleared = try Self.entry(try await client.api(.put, "/api/v1/journal/entries/\(id)", session, body: #"{"category":null}"#))
            #expect(cleared["category"] is NSNull)
            let coffee = try Self.entry(try await client.api(.put, "/api/v1/journal/entries/\(id)", session, json: ["processedDescription": "coffee", "category": "auto"]))
            #expect(coffee["category"] as? String == "beverage")
            #expect(try await client.api(.get, "/api/v1/journal/entries/\(id)", session).object()["processedDescription"] as? String == "coffee")

            let otherId = try await client.api(.put, "/api/v1/journal/entries/\(id)", session, json: ["id": UUID().uuidString, "processedDescription": "x"])
            #expect(try otherId.errorDetail().fields == ["id": "The id is in the path"])
            let stale = try await client.api(.put, "/api/v1/journal/entries/\(id)", session, json: ["processedDescription": "tea", "baseVersion": Int(version)])
            #expect(stale.status == .conflict)
        }
    }

    @Test("DELETE, then restore (Undo); a client id makes a retried POST add nothing twice", arguments: StoreBackend.allCases)
    func deleteRestoreIdempotent(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { _, client in
            let session = try await client.signInWithProfile()
            let clientId = UUID().uuidString
            let body: [String: Any] = ["id": clientId, "processedDescription": "rice and dal"]
            let first = try Self.entry(try await client.api(.post, "/api/v1/journal/entries", session, json: body))
            let again = try await client.api(.post, "/api/v1/journal/entries", session, json: body)
            #expect(again.status == .created)
            #expect(try Self.entry(again)["version"] as? Int == first["version"] as? Int)
            #expect(first["id"] as? String == clientId.lowercased())
            #expect(try Self.entries(try await client.api(.get, "/api/v1/journal/entries", session)).count == 1)

            #expect(try await client.api(.delete, "/api/v1/journal/entries/\(clientId)", session).status == .noContent)
            #expect(try await client.api(.get, "/api/v1/journal/entries/\(clientId)", session).status == .notFound)
            #expect(try Self.entries(try await client.api(.get, "/api/v1/journal/entries", session)).isEmpty)
            #expect(try await client.api(.delete, "/api/v1/journal/entries/\(clientId)", session).status == .notFound)

            let restored = try await client.api(.post, "/api/v1/journal/entries/\(clientId)/restore", session)
            #expect(restored.status == .ok)
            #expect(try restored.object()["processedDescription"] as? String == "rice and dal")
            #expect(try Self.entries(try await client.api(.get, "/api/v1/journal/entries", session)).count == 1)
            #expect(try await client.api(.post, "/api/v1/journal/entries/\(UUID().uuidString)/restore", session).status == .notFound)
            #expect(try await client.api(.get, "/api/v1/journal/entries/not-an-id", session).status == .badRequest)
        }
    }

    @Test("duplicate: 'I ate it today' copies a past entry onto today, now, with its own id, not edited", arguments: StoreBackend.allCases)
    func duplicate(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { _, client in
            let session = try await client.signInWithProfile()
            let past = try Self.entry(try await client.api(.post, "/api/v1/journal/entries", session, json: [
                "processedDescription": "Masala dosa", "date": "2026-02-20", "time": "19:30", "category": "dinner",
            ]))
            let id = try #require(past["id"] as? String)
            _ = try await client.api(.put, "/api/v1/journal/entries/\(id)", session, json: ["processedDescription": "Masala dosa, crisp"])

            let copyId = UUID().uuidString.lowercased()
            let response = try await client.api(.post, "/api/v1/journal/entries/\(id)/duplicate", session, json: ["id": copyId])
            #expect(response.status == .created)
            let copy = try Self.entry(response)
            #expect(copy["id"] as? String == copyId)
            #expect(copy["date"] as? String == "2026-03-01")
            #expect(copy["time"] as? String == "10:00")
            #expect(copy["processedDescription"] as? String == "Masala dosa, crisp")
            #expect(copy["category"] as? String == "dinner")
            #expect(copy["updatedAt"] is NSNull)
            #expect(try response.object()["toast"] as? String == "First entry today! 🎉")
            // Sent again with the same id: the same copy, not a second one.
            #expect(try await client.api(.post, "/api/v1/journal/entries/\(id)/duplicate", session, json: ["id": copyId]).status == .created)
            // Without a body: "I ate again", another copy.
            let again = try await client.api(.post, "/api/v1/journal/entries/\(copyId)/duplicate", session)
            #expect(try again.object()["toast"] as? String == "Meal #2 today!")
            #expect(try Self.entries(try await client.api(.get, "/api/v1/journal/entries", session)).count == 2)
            #expect(try Self.entries(try await client.api(.get, "/api/v1/journal/entries?from=2026-02-20&to=2026-02-20", session)).count == 1)
        }
    }

    @Test("journal_entry_added for a new entry and a copy (input type, category, origin); none for an edit, a retry or a refusal", arguments: StoreBackend.allCases)
    func analytics(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInWithProfile()
            let clientId = UUID().uuidString
            let body: [String: Any] = ["id": clientId, "processedDescription": "Gulab jamun", "inputType": "voice", "rawInput": "gulab jamun"]
            #expect(try await client.api(.post, "/api/v1/journal/entries", session, json: body).status == .created)
            #expect(try await client.api(.post, "/api/v1/journal/entries", session, json: body).status == .created)  // the retry
            #expect(try await client.api(.post, "/api/v1/journal/entries", session, json: ["processedDescription": ""]).status == .unprocessableContent)
            _ = try await client.api(.put, "/api/v1/journal/entries/\(clientId)", session, json: ["processedDescription": "Two gulab jamuns"])
            #expect(try await client.api(.post, "/api/v1/journal/entries/\(clientId)/duplicate", session).status == .created)
            let journal = try await AnalyticsEventsTests.events(of: session.userId, in: t, atLeast: 2).filter { $0.name == .journalEntryAdded }
            try await Task.sleep(for: .milliseconds(100))  // anything more would have been recorded by now
            let settled = try await t.services.analytics.events(userId: session.userId).filter { $0.name == .journalEntryAdded }
            #expect(settled.count == journal.count)
            #expect(settled.map(\.properties).sorted { ($0["origin"] ?? "") > ($1["origin"] ?? "") } == [
                ["input_type": "voice", "category": "dessert", "origin": "new"],
                ["input_type": "voice", "category": "dessert", "origin": "duplicate"],
            ])
        }
    }

    @Test("another user's entry is 404 on every route and never listed", arguments: StoreBackend.allCases)
    func otherUser(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { _, client in
            let owner = try await client.signInWithProfile()
            let other = try await client.signInWithProfile()
            let id = try #require(try Self.entry(try await client.api(.post, "/api/v1/journal/entries", owner, json: ["processedDescription": "secret cake"]))["id"] as? String)
            #expect(try await client.api(.get, "/api/v1/journal/entries/\(id)", other).status == .notFound)
            #expect(try await client.api(.put, "/api/v1/journal/entries/\(id)", other, json: ["processedDescription": "mine"]).status == .notFound)
            #expect(try await client.api(.delete, "/api/v1/journal/entries/\(id)", other).status == .notFound)
            #expect(try await client.api(.post, "/api/v1/journal/entries/\(id)/restore", other).status == .notFound)
            #expect(try await client.api(.post, "/api/v1/journal/entries/\(id)/duplicate", other).status == .notFound)
            #expect(try Self.entries(try await client.api(.get, "/api/v1/journal/entries", other)).isEmpty)
            // Its id sent as the other user's new entry: whatever the store answers, the owner's entry is untouched.
            let taken = try await client.api(.post, "/api/v1/journal/entries", other, json: ["id": id, "processedDescription": "mine"])
            #expect(taken.status == .created || taken.status == .conflict, "\(taken.status)")
            #expect(try await client.api(.get, "/api/v1/journal/entries/\(id)", owner).object()["processedDescription"] as? String == "secret cake")
            #expect(try await client.api(.get, "/api/v1/journal/entries", nil).status == .unauthorized)
        }
    }
}
