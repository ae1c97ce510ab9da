import Foundation
import Testing
import WDietCore

/// `wdiet client challenge start|log|checkin|status` (issue 20): the Challenge on a device, offline first, then synced.
/// Dates are relative to the machine's today (the client's day without a profile), so the test holds on any day.
@Suite struct ClientChallengeCommandTests {
    static func client(_ arguments: [String], store: URL) async throws -> CLI.Output {
        try await CLI.run(["client", "challenge"] + arguments + ["--store", store.path])
    }

    @Test func aChallengeIsStartedLoggedCheckedInAndSynced() async throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("phone.sqlite")
        let today = LocalDate(Date(), in: TimeZone.current)
        // Two Mondays before this week's: today is in week 3.
        let start = Challenge.monday(onOrBefore: today).adding(days: -14)

        #expect(try await Self.client(["status"], store: store).stderr.contains("no challenge on this device"))
        let tuesday = try await Self.client(["start", "--goal-kg", "80", "--start", start.adding(days: 1).iso], store: store)
        #expect(tuesday.status != 0 && tuesday.stderr.contains("A challenge starts on a Monday."))
        let started = try await Self.client(["start", "--goal-kg", "80", "--start-kg", "90", "--start", start.iso], store: store)
        #expect(started.status == 0, "\(started.stderr)")
        #expect(started.stdout == "Challenge started: 17 weeks from \(start.iso) to \(start.adding(days: 118).iso), goal 80.0 kg. 1 change waits for the next sync.\n")

        // Yesterday and the day before: typed nutrition, a Push workout from its template, all three habits.
        for offset in [2, 1] {
            let day = today.adding(days: -offset).iso
            let logged = try await Self.client(["log", "--date", day, "--kcal", "1800", "--protein", "140", "--workout", "push", "--water", "--steps", "--sleep"],
                                               store: store)
            #expect(logged.stdout.hasPrefix("Logged \(day): nutrition 1800 kcal, workout push 45 min, habits 3/3."), "\(logged.stdout)\(logged.stderr)")
        }
        // Tomorrow is allowed (a day in another time zone), the day after is not.
        let ahead = try await Self.client(["log", "--date", today.adding(days: 2).iso, "--kcal", "1800"], store: store)
        #expect(ahead.status != 0 && ahead.stderr.contains("You can log up to today."))
        let nothing = try await Self.client(["log"], store: store)
        #expect(nothing.status != 0 && nothing.stderr.contains("nothing to log"))

        // One weigh-in a week: the second edits the first.
        let first = try await Self.client(["checkin", "--kg", "88.4", "--waist", "90"], store: store)
        #expect(first.stdout.hasPrefix("Weigh-in for week 3: 88.4 kg"), "\(first.stdout)\(first.stderr)")
        let second = try await Self.client(["checkin", "--kg", "88.2"], store: store)
        #expect(second.stdout.hasPrefix("Already logged this week: week 3's weigh-in edited: 88.2 kg"), "\(second.stdout)")
        let future = try await Self.client(["checkin", "--week", "5", "--kg", "88"], store: store)
        #expect(future.status != 0 && future.stderr.contains("This week has not begun yet."))

        // Status: week 3; yesterday done so today's streaks still run (2 days each); today not logged yet.
        let status = try await Self.client(["status", "--json"], store: store)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        #expect(json["week"] as? Int == 3)
        #expect(json["status"] as? String == "running")
        #expect(json["nutrition"] as? String == "pending")
        #expect(json["streaks"] as? [String: Int] == ["nutrition": 2, "workout": 2, "habits": 2])
        // The pace: 88.2 kg today against a straight line from 90 to 80 kg over 119 days (no profile, so no MATADOR).
        let days = Double(start.days(until: today))
        let pace = try #require(json["pace"] as? [String: Double])
        #expect(pace["currentKg"] == 88.2)
        #expect(abs((pace["expectedKg"] ?? 0) - (90 - 10 * days / 119)) < 0.006)
        let text = try await Self.client(["status"], store: store)
        #expect(text.stdout.hasPrefix("Week 3 of 17 (\(start.iso) to \(start.adding(days: 118).iso)), goal 80.0 kg\n"), "\(text.stdout)")

        // Synced: nothing left waiting, and the server holds the challenge's rows.
        let server = try await InProcessServer.start()
        #expect(try await CLI.run(["client", "login", "--server", server.url.absoluteString, "--guest", "--store", store.path]).status == 0)
        let sync = try await CLI.run(["client", "sync", "--store", store.path])
        #expect(sync.stdout == "Synced.\n", "\(sync.stdout)\(sync.stderr)")
        #expect(try await CLI.run(["client", "status", "--store", store.path]).stdout.contains("Pending changes: 0\n"))
        await server.stop()
    }
}
