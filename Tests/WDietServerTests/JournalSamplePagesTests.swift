import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietCore
import WDietStore
import WDietTestSupport
@testable import WDietServer

/// 002's sample data in the web app (issue 18 item 3; docs/journal.md "Sample data"): the Journal's settings page
/// offers "Add sample entries" and, once there are some, "Remove sample entries"; the person's own entries are never
/// touched, and sample entries celebrate no milestone. TestApp's clock: Sunday 1 March 2026, 09:00 UTC.
@Suite("Journal sample data in the web app")
struct JournalSamplePagesTests {
    static func location(_ response: TestResponse) -> String { response.headers[.location] ?? "" }

    @Test("add and remove sample entries from the settings page; own entries stay; no milestone for samples", arguments: StoreBackend.allCases)
    func addAndRemove(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let user = try await client.mealWebUser()
            let userId = try #require(try await t.services.accounts.session(tokenHash: SessionToken.hash(user.sessionToken))?.userId)
            #expect(try await client.mealSubmit("/journal/new", user, ["processedDescription": "My own poha", "time": "08:30"]).status == .seeOther)
            #expect(!(try await client.mealPage("/journal/calendar", user)).text.contains(#"id="journal-milestone""#))  // the first check (the calendar checks): 1 entry

            // w-diet's Settings leads to the Journal's settings (reminders and sample entries), as Insights does.
            #expect(try await client.mealPage("/settings", user).text.contains(
                #"<a class="card card-link" id="journal-settings-entry" href="/journal/reminders">Journal: reminders and sample entries <span aria-hidden="true">›</span></a>"#))
            let page = try await client.mealPage("/journal/reminders", user)
            #expect(page.text.contains(#"<form method="post" action="/journal/sample-data">"#))
            #expect(page.text.contains("Try the Journal with 120 days of sample entries"))
            #expect(!page.text.contains(#"id="sample-remove""#))

            let added = try await client.mealSubmit("/journal/sample-data", user, [:])
            #expect(added.status == .seeOther)
            let samples = try await t.services.journal.allEntries(userId: userId).filter(\.isSample)
            #expect(samples.count > 100)
            #expect(Self.location(added) == "/journal/reminders?sample=added&count=\(samples.count)#sample")
            // The 120 days before today (1 March 2026): 1 November 2025 through 28 February 2026.
            let first = try #require(LocalDate(year: 2025, month: 11, day: 1)), last = try #require(LocalDate(year: 2026, month: 2, day: 28))
            #expect(samples.allSatisfy { $0.date >= first && $0.date <= last })
            #expect(try await t.services.journal.count(userId: userId) == samples.count + 1)
            let after = try await client.mealPage(Self.location(added), user)
            #expect(after.text.contains(#"<p class="jv-saved" role="status" id="sample-notice">\#(samples.count) sample entries added.</p>"#))
            #expect(after.text.contains(#"<form method="post" action="/journal/sample-data/remove">"#))
            #expect(!after.text.contains(#"id="sample-add""#))
            // Sample entries are nobody's milestone: crossing 10, 25, 50 and 100 at once shows no overlay.
            #expect(!(try await client.mealPage("/journal/calendar", user)).text.contains(#"id="journal-milestone""#))
            // Adding again adds nothing (the samples' ids are fixed).
            #expect(Self.location(try await client.mealSubmit("/journal/sample-data", user, [:])) == "/journal/reminders?sample=added&count=0#sample")

            let removed = try await client.mealSubmit("/journal/sample-data/remove", user, [:])
            #expect(Self.location(removed) == "/journal/reminders?sample=removed&count=\(samples.count)#sample")
            #expect(try await t.services.journal.allEntries(userId: userId).map(\.processedDescription) == ["My own poha"])
            let german = try await client.execute(uri: "/journal/reminders?sample=removed&count=1", method: .get,
                                                  headers: [.cookie: user.cookie, .acceptLanguage: "de"])
            #expect(german.text.contains("1 Beispieleintrag entfernt."))
            #expect(german.text.contains(#"id="sample-add">Beispieleinträge hinzufügen</button>"#))

            // The person's own tenth entry is still celebrated.
            for index in 2...10 {
                #expect(try await client.mealSubmit("/journal/new", user, ["processedDescription": "Entry \(index)", "time": "12:00"]).status == .seeOther)
            }
            #expect(try await client.mealPage("/journal/calendar", user).text.contains(#"data-milestone="10""#))
        }
    }

    @Test("the Journal's views in German, filled with the sample entries: German words, German dates, no English copy left",
          arguments: StoreBackend.allCases)
    func viewsInGerman(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { _, client in
            let user = try await client.mealWebUser()
            #expect(try await client.mealSubmit("/journal/sample-data", user, [:]).status == .seeOther)
            let pages: [(path: String, german: [String], english: [String])] = [
                ("/journal?date=2026-02-27", ["Tagebuch", "Bereiche des Tagebuchs"], ["Your food journal", "Add entry"]),
                ("/journal/calendar?month=2026-02", ["Kalender", "Februar"], ["Calendar", "February"]),
                ("/journal/search?q=idli", ["Dein Tagebuch durchsuchen"], ["Search your journal"]),
                ("/journal/insights?period=year", ["Einblicke", "Top-Lebensmittel", "Oft zusammen gegessen", "Essenszeiten"],
                 ["Top foods", "Often eaten together", "Meal timing"]),
                ("/journal/recap?week=2026-02-23", ["Wochenrückblick"], ["Weekly recap"]),
                ("/journal/items/idli", ["Wochentag"], ["Day of the week"]),
                ("/journal/reminders", ["Beispieleinträge entfernen"], ["Remove sample entries", "Journal reminders"]),
            ]
            for (path, german, english) in pages {
                let page = try await client.execute(uri: path, method: .get, headers: [.cookie: user.cookie, .acceptLanguage: "de-DE,de;q=0.9"])
                #expect(page.status == .ok, "\(path)")
                #expect(page.text.contains(#"<html lang="de""#), "\(path)")
                for word in german { #expect(page.text.contains(word), "\(path): \(word)") }
                for word in english { #expect(!page.text.contains(word), "\(path): \(word)") }
            }
        }
    }

    @Test("a form without its CSRF token changes nothing", arguments: StoreBackend.allCases)
    func needsTheFormToken(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let user = try await client.mealWebUser()
            let userId = try #require(try await t.services.accounts.session(tokenHash: SessionToken.hash(user.sessionToken))?.userId)
            let refused = try await client.mealSubmit("/journal/sample-data", user, [:], csrf: false)
            #expect(refused.status == .forbidden)
            #expect(try await t.services.journal.count(userId: userId) == 0)
        }
    }
}
