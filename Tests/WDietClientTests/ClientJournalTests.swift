import Foundation
import Testing
import WDietClient
import WDietCore
import WDietStore
import WDietTestSupport

/// The Journal in the client library (issue 18): entries written, edited, deleted and listed offline, then synced to
/// the server's journal and to a second device, on SQLite and on PostgreSQL.
@Suite struct ClientJournalTests {
    let today = Fixtures.date("2026-03-02")
    let now = Fixtures.utc("2026-03-02T09:00:00Z")

    @Test func entriesWorkOfflineWithTheServersRules() throws {
        let store = try ClientStore(path: nil)
        // "idli" is a breakfast word whatever the hour (002's keywords before the time bucket).
        let idli = try store.addJournalEntry("Two idlis and sambar", date: today, time: JournalTime("20:00")!, now: now, today: today)
        #expect(idli.category == .breakfast)
        let tea = try store.addJournalEntry("Leftovers", date: today, time: JournalTime("15:30")!, now: now, today: today)
        #expect(tea.category == .snack)
        let chosen = try store.addJournalEntry("Leftovers", date: today, time: JournalTime("07:00")!, category: .dinner, now: now, today: today)
        #expect(chosen.category == .dinner)
        try store.addJournalEntry("Coffee", date: today.adding(days: -1), time: JournalTime("08:00")!, now: now, today: today)
        #expect(try store.journalEntries(on: today).map(\.processedDescription) == ["Leftovers", "Leftovers", "Two idlis and sambar"])
        #expect(try store.journalEntries(on: today).map(\.time.description) == ["07:00", "15:30", "20:00"])

        let edited = try store.editJournalEntry(id: idli.id, now: now.addingTimeInterval(60), today: today) {
            $0.processedDescription = "Three idlis and sambar"
        }
        #expect(edited.isEdited)
        #expect(try store.journalEntry(id: idli.id)?.processedDescription == "Three idlis and sambar")
        try store.deleteJournalEntry(id: tea.id)
        #expect(try store.journalEntries(on: today).count == 2)
        #expect(try store.journalEntry(id: tea.id) == nil)
        // Checked before it is queued: nothing invalid waits in the outbox.
        #expect(throws: ClientError.self) {
            try store.addJournalEntry("  ", date: today, time: JournalTime("09:00")!, now: now, today: today)
        }
        #expect(throws: ClientError.self) {
            try store.addJournalEntry("Toast", date: today.adding(days: 2), time: JournalTime("09:00")!, now: now, today: today)
        }
        // Three live entries and a deleted one that was never pushed (it vanishes from the outbox).
        #expect(try store.status().pending == 3)
    }

    @Test(arguments: StoreBackend.allCases)
    func entriesSyncToTheServersJournalAndAnotherDevice(_ backend: StoreBackend) async throws {
        try await LiveServer.with(backend) { server in
            let account = try await server.guest()
            let log = PushLog()
            let phone = try Device("phone", server: server, account: account, log: log)
            let tablet = try Device("tablet", server: server, account: account, log: log)
            defer { phone.remove(); tablet.remove() }

            let photo = try await server.uploadedMedia(userId: account.userId, count: 1)[0]
            let lunch = JournalEntry(
                date: today, time: JournalTime("13:00")!, inputType: .photo, rawInput: "", processedDescription: "Chicken biryani",
                category: .lunch, mediaIds: [photo], createdAt: now)
            try phone.store.saveJournalEntry(lunch, today: today)
            let dosa = try phone.store.addJournalEntry("Masala dosa", date: today, time: JournalTime("08:00")!, now: now, today: today)
            #expect(await phone.sync().isUpToDate)
            #expect(try await server.services.journal.entries(userId: account.userId, from: today, through: today).map(\.entry) == [dosa, lunch])
            #expect(try await server.services.journal.search(userId: account.userId, query: "biryani", limit: 5).map(\.entry) == [lunch])

            #expect(await tablet.sync().isUpToDate)
            #expect(try tablet.store.journalEntries(on: today) == [dosa, lunch])
            try tablet.store.deleteJournalEntry(id: dosa.id)
            #expect(await tablet.sync().isUpToDate)
            #expect(await phone.sync().isUpToDate)
            #expect(try phone.store.journalEntries(on: today) == [lunch])
            #expect(try await server.services.journal.allEntries(userId: account.userId) == [lunch])
        }
    }
}
