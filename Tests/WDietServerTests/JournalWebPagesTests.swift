import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietTestSupport

/// Issue 18: the Journal tab's day view and entry form as plain HTML forms (what works without script), on both
/// backends. TestApp's clock: Sunday 1 March 2026, 10:00 in the profile's Berlin.
@Suite("Journal web pages: the day and the entry form")
struct JournalWebPagesTests {
    static func location(_ response: TestResponse) -> String { response.headers[.location] ?? "" }

    /// The ids of the cards on a day's page, in order.
    static func entryIds(_ html: String) -> [String] {
        html.components(separatedBy: #"data-entry-id=""#).dropFirst().map { String($0.prefix(36)) }
    }

    @Test("an empty day, a text entry added by the form, its card and 002's toast; the tab is current", arguments: StoreBackend.allCases)
    func addText(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { _, client in
            let user = try await client.mealWebUser()
            let empty = try await client.mealPage("/journal", user)
            #expect(empty.status == .ok)
            #expect(empty.text.contains("Your page for today is empty"))
            #expect(empty.text.contains("Sunday, 1 March"))
            #expect(empty.text.contains("Good morning"))
            #expect(empty.text.contains(#"href="/journal" aria-current="page"><span class="tabbar__icon" aria-hidden="true">📔"#))
            #expect(empty.text.contains(#"href="/journal/calendar""#) && empty.text.contains(#"href="/journal/recap""#))

            let form = try await client.mealPage("/journal/new", user)
            #expect(form.text.contains(#"name="time" value="10:00""#))
            let saved = try await client.mealSubmit("/journal/new", user, ["processedDescription": "Poha with peanuts", "time": "08:30", "category": "auto", "rawInput": "", "mediaIds": ""])
            #expect(saved.status == .seeOther)
            let target = Self.location(saved)
            #expect(target.hasPrefix("/journal?added="))
            let day = try await client.mealPage(target, user)
            #expect(day.text.contains(#"data-flash="First entry today! 🎉""#))
            #expect(day.text.contains("Poha with peanuts"))
            #expect(day.text.contains("jcard--breakfast"))  // poha: a breakfast word
            #expect(day.text.contains("8:30 AM"))
            #expect(day.text.contains("1 entry"))
            // The card links to "Log as meals" (the entry's words matched against the food catalog), as the
            // calendar's, search's and Insights' lists do.
            let edit = try #require(day.text.firstMatch(of: /href="\/journal\/([0-9a-f-]{36})\/edit"/)).output.1
            #expect(day.text.contains(#"href="/journal/entries/\#(edit)/meals">Log as meals</a>"#))
            let meals = try await client.mealPage("/journal/entries/\(edit)/meals", user)
            #expect(meals.status == .ok)
            #expect(meals.text.contains("Poha with peanuts"))
            #expect(!day.text.contains("Your page for today is empty") || day.text.contains(#"id="journal-empty" hidden"#))

            let second = try await client.mealSubmit("/journal/new", user, ["processedDescription": "chai", "time": "16:00"])
            #expect(try await client.mealPage(Self.location(second), user).text.contains(#"data-flash="Meal #2 today!""#))

            let invalid = try await client.mealSubmit("/journal/new", user, ["processedDescription": "", "time": "16:00"])
            #expect(invalid.status == .unprocessableContent)
            #expect(invalid.text.contains("Describe what you ate in 1 to 2,000 characters."))
        }
    }

    @Test("edit, category from the card, duplicate, delete and undo as forms; a past day and the 400 pages", arguments: StoreBackend.allCases)
    func formsWithoutScript(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { _, client in
            let user = try await client.mealWebUser()
            let added = try await client.mealSubmit("/journal/new?date=2026-02-27", user, ["processedDescription": "Biryani", "time": "20:00"])
            #expect(Self.location(added).hasSuffix("&date=2026-02-27"))
            let page = try await client.mealPage("/journal?date=2026-02-27", user)
            #expect(page.text.contains("Biryani") && page.text.contains("I ate it today"))
            let id = try #require(Self.entryIds(page.text).first)

            let edited = try await client.mealSubmit("/journal/\(id)/edit", user, ["processedDescription": "Chicken biryani", "time": "20:15", "category": "lunch"])
            #expect(edited.status == .seeOther)
            let afterEdit = try await client.mealPage("/journal?date=2026-02-27", user).text
            #expect(afterEdit.contains("Chicken biryani") && afterEdit.contains("· edited") && afterEdit.contains("jcard--lunch"))
            #expect(afterEdit.contains("Original input"))  // "Biryani" as first typed

            _ = try await client.mealSubmit("/journal/\(id)/category", user, ["category": "none"])
            #expect(try await client.mealPage("/journal?date=2026-02-27", user).text.contains("jcard--none"))

            let copy = try await client.mealSubmit("/journal/\(id)/duplicate", user, [:])
            #expect(Self.location(copy).hasPrefix("/journal?added="))
            let today = try await client.mealPage(Self.location(copy).components(separatedBy: "#")[0], user).text
            #expect(today.contains("Chicken biryani") && today.contains("I ate again") && today.contains("First entry today! 🎉"))

            let deleted = try await client.mealSubmit("/journal/\(id)/delete", user, [:])
            #expect(Self.location(deleted) == "/journal?deleted=\(id)&date=2026-02-27")
            let afterDelete = try await client.mealPage(Self.location(deleted), user).text
            #expect(afterDelete.contains(#"data-deleted-id="\#(id)""#) && !afterDelete.contains("data-entry-id=\"\(id)\""))
            let restored = try await client.mealSubmit("/journal/\(id)/restore", user, [:])
            #expect(Self.location(restored).hasPrefix("/journal?date=2026-02-27"))
            #expect(try await client.mealPage("/journal?date=2026-02-27", user).text.contains("Chicken biryani"))

            #expect(try await client.mealPage("/journal?date=2026-03-02", user).status == .badRequest)
            #expect(try await client.mealPage("/journal?date=2025-02-28", user).status == .badRequest)
            #expect(try await client.mealPage("/journal?date=2025-03-01", user).status == .ok)
            #expect(try await client.mealPage("/journal/new?date=soon", user).status == .badRequest)
            #expect(try await client.mealSubmit("/journal/\(id)/delete", user, [:], csrf: false).status == .forbidden)

            let other = try await client.mealWebUser()
            #expect(try await client.mealPage("/journal/\(id)/edit", other).status == .notFound)
            #expect(try await client.mealSubmit("/journal/\(id)/delete", other, [:]).status == .notFound)
            #expect(try await client.mealSubmit("/journal/\(id)/duplicate", other, [:]).status == .notFound)
            #expect(!(try await client.mealPage("/journal?date=2026-02-27", other).text.contains("biryani")))
        }
    }
}
