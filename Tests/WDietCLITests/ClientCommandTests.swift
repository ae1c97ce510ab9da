import Foundation
import Hummingbird
import Logging
import NIOCore
import Testing
import WDietCore
import WDietServer
import WDietSQLite
import WDietStore
import WDietTestSupport

/// `wdiet client …` as a user runs it: offline first, then against a real server (in this process, real HTTP).
@Suite struct ClientCommandTests {
    /// Runs the binary off the cooperative pool (`CLI.run`), so the in-process server keeps its threads.
    static func client(_ arguments: [String], store: URL) async throws -> CLI.Output {
        try await CLI.run(["client"] + arguments + ["--store", store.path])
    }

    static let profileArguments = [
        "profile", "--sex", "male", "--born", "1995-06-15", "--height-cm", "180", "--weight-kg", "80",
        "--activity", "moderate", "--goal", "lose", "--time-zone", "Europe/Berlin", "--start", "2026-01-01",
    ]

    @Test func everythingWorksOfflineAndWaitsForTheServer() async throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("phone.sqlite")

        let noProfile = try await Self.client(["log-meal", "--name", "Porridge", "--calories", "320"], store: store)
        #expect(noProfile.status != 0)
        #expect(noProfile.stderr == "wdiet: Set up your profile before logging meals and weights\n")

        #expect(try await Self.client(Self.profileArguments, store: store).status == 0)
        let meal = try await Self.client(
            ["log-meal", "--name", "Porridge", "--calories", "320", "--protein", "11", "--carbs", "54", "--fat", "6", "--at", "2026-03-01T07:30:00Z"],
            store: store)
        #expect(meal.status == 0)
        #expect(meal.stdout.hasPrefix("Logged Porridge, 320 kcal"))
        #expect(meal.stdout.hasSuffix("2 changes wait for the next sync.\n"))
        let weight = try await Self.client(["log-weight", "--lb", "176.4", "--at", "2026-03-01T06:00:00Z"], store: store)
        #expect(weight.stdout.hasPrefix("Logged 80 kg.")) // 176.4 lb = 80.01 kg, to one decimal

        // The targets are WDietCore's for this profile and the logged 80 kg.
        let profile = Profile(
            dateOfBirth: Fixtures.date("1995-06-15"), sex: .male, heightCm: 180, weightKg: 80, goal: .lose, activity: .moderate,
            timeZoneIdentifier: "Europe/Berlin", planStartDate: Fixtures.date("2026-01-01"))
        let targets = Targets.compute(profile: profile, latestWeightKg: 80, on: Fixtures.date("2026-03-01"))
        let today = try await Self.client(["today", "--date", "2026-03-01"], store: store)
        #expect(today.status == 0)
        #expect(today.stdout == """
            2026-03-01 (Europe/Berlin): 1 meal
              08:30  Porridge — 320 kcal (P 11 g, C 54 g, F 6 g)
            Calories: 320 of \(targets.calories) kcal (\(targets.calories - 320) left)
            Protein 11/\(targets.proteinGrams) g · Carbs 54/\(targets.carbsGrams) g · Fat 6/\(targets.fatGrams) g

            """)

        let status = try await Self.client(["status"], store: store)
        #expect(status.stdout.contains("Not signed in"))
        #expect(status.stdout.contains("Pending changes: 3\n"))
        #expect(status.stdout.contains("Last sync: never\n"))
        #expect(status.stdout.contains("Conflicts: none\n"))

        let sync = try await Self.client(["sync"], store: store)
        #expect(sync.status == 1)
        #expect(sync.stderr == "wdiet: not signed in: run `wdiet client login --server URL …` first\n")
    }

    @Test func badInputGetsOneClearLineAndANonZeroExit() async throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("phone.sqlite")
        #expect(try await Self.client(Self.profileArguments, store: store).status == 0)

        let cases: [([String], String)] = [
            (["log-meal", "--name", "Soup", "--calories", "0"], "Calories must be between 1-9999"),
            (["log-meal", "--name", "Soup", "--calories", "200", "--at", "yesterday"], "--at must be an instant such as 2026-03-01T07:30:00Z, not 'yesterday'"),
            (["log-weight", "--kg", "80", "--lb", "176"], "Give the weight with exactly one of --kg or --lb"),
            (["log-weight", "--kg", "5"], ProfileValidator.Message.weightTooLow),
            (["today", "--date", "2026-02-30"], "--date must be a date as YYYY-MM-DD, not '2026-02-30'"),
            (["login", "--server", "ftp://example.com", "--guest"], "--server must be an http:// or https:// address, not 'ftp://example.com'"),
            (["resolve", "--keep-local"], "There is no profile conflict to resolve"),
        ]
        for (arguments, message) in cases {
            let output = try await Self.client(arguments, store: store)
            #expect(output.status != 0, "\(arguments)")
            #expect(output.stderr.contains(message), "\(arguments): \(output.stderr)")
            #expect(output.stderr.split(separator: "\n").count <= 2, "\(arguments): \(output.stderr)")
        }
        #expect(try await Self.client(["status"], store: store).stdout.contains("Pending changes: 1\n"))
    }

    @Test func journalEntriesAreAddedAndListedOfflineAndSync() async throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let phone = folder.appendingPathComponent("phone.sqlite")

        // "idli" is breakfast whatever the hour; "leftovers" at 15:30 falls in the snack hours; a category given wins.
        let idli = try await Self.client(["journal", "add", "Two idlis and sambar", "--date", "2026-03-01", "--time", "20:00"], store: phone)
        #expect(idli.status == 0, "\(idli.stderr)")
        #expect(idli.stdout == "Added to 2026-03-01 at 20:00 (breakfast). 1 change waits for the next sync.\n")
        _ = try await Self.client(["journal", "add", "Leftovers", "--date", "2026-03-01", "--time", "15:30"], store: phone)
        _ = try await Self.client(["journal", "add", "Masala chai", "--date", "2026-03-01", "--time", "07:05", "--category", "dinner"], store: phone)
        let list = try await Self.client(["journal", "list", "--date", "2026-03-01"], store: phone)
        #expect(list.stdout == """
            2026-03-01: 3 entries
              07:05  [dinner] Masala chai
              15:30  [snack] Leftovers
              20:00  [breakfast] Two idlis and sambar

            """)
        let bad = try await Self.client(["journal", "add", "Toast", "--date", "2026-03-01", "--category", "brunch"], store: phone)
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("--category must be one of breakfast, lunch, snack, dinner, dessert, beverage"))

        let server = try await InProcessServer.start()
        let url = server.url.absoluteString
        #expect(try await Self.client(["login", "--server", url, "--guest"], store: phone).status == 0)
        #expect(try await Self.client(["sync"], store: phone).stdout == "Synced.\n")
        let status = try await Self.client(["status"], store: phone)
        #expect(status.stdout.contains("Pending changes: 0\n"))
        await server.stop()
    }

    @Test func twoStoresSyncThroughTheServerAndOfflineLosesNothing() async throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let phone = folder.appendingPathComponent("phone.sqlite")
        let laptop = folder.appendingPathComponent("laptop.sqlite")
        let server = try await InProcessServer.start()
        let url = server.url.absoluteString

        let register = try await Self.client(
            ["login", "--server", url, "--register", "--email", "cli@example.com", "--password", "correct horse 42"], store: phone)
        #expect(register.status == 0, "\(register.stderr)")
        #expect(register.stdout.contains("Signed in as cli@example.com on \(url)"))
        #expect(try await Self.client(Self.profileArguments, store: phone).status == 0)
        _ = try await Self.client(["log-meal", "--name", "Porridge", "--calories", "320", "--at", "2026-03-01T07:30:00Z"], store: phone)
        let sync = try await Self.client(["sync"], store: phone)
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(sync.stdout == "Synced.\n")
        let status = try await Self.client(["status"], store: phone)
        #expect(status.stdout.contains("Pending changes: 0\n"))
        #expect(!status.stdout.contains("Last sync: never"))

        let login = try await Self.client(["login", "--server", url, "--email", "cli@example.com", "--password", "correct horse 42"], store: laptop)
        #expect(login.status == 0, "\(login.stderr)")
        let today = try await Self.client(["today", "--date", "2026-03-01"], store: laptop)
        #expect(today.stdout.contains("08:30  Porridge — 320 kcal"))

        // The server goes away: logging still works, and sync says that nothing is lost.
        await server.stop()
        _ = try await Self.client(["log-weight", "--kg", "79.5"], store: laptop)
        let offline = try await Self.client(["sync"], store: laptop)
        #expect(offline.status == 1)
        #expect(offline.stderr.hasPrefix("wdiet: offline: The server cannot be reached"))
        #expect(offline.stderr.hasSuffix("Nothing is lost: 1 change waits on this device for the next sync.\n"))
        #expect(try await Self.client(["status"], store: laptop).stdout.contains("Pending changes: 1\n"))
    }

    /// A profile changed on two devices: the second to sync is asked "Keep Local / Use Server", and its choice wins.
    @Test func aProfileChangedOnTwoDevicesAsksKeepLocalOrUseServer() async throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let phone = folder.appendingPathComponent("phone.sqlite")
        let laptop = folder.appendingPathComponent("laptop.sqlite")
        let server = try await InProcessServer.start()
        let url = server.url.absoluteString
        let credentials = ["--email", "lost@example.com", "--password", "correct horse 42"]
        #expect(try await Self.client(["login", "--server", url, "--register"] + credentials, store: phone).status == 0)
        #expect(try await Self.client(Self.profileArguments, store: phone).status == 0)
        #expect(try await Self.client(["log-weight", "--kg", "80", "--at", "2026-03-01T06:00:00Z"], store: phone).status == 0)
        #expect(try await Self.client(["sync"], store: phone).status == 0)
        #expect(try await Self.client(["login", "--server", url] + credentials, store: laptop).status == 0)
        // Both change the profile; the phone syncs first, so the laptop gets "Keep Local / Use Server".
        let heavier = Self.profileArguments.map { $0 == "80" ? "81" : $0 }
        let lighter = Self.profileArguments.map { $0 == "80" ? "79" : $0 }
        #expect(try await Self.client(heavier, store: phone).status == 0)
        #expect(try await Self.client(["sync"], store: phone).status == 0)
        #expect(try await Self.client(lighter, store: laptop).status == 0)
        let sync = try await Self.client(["sync"], store: laptop)
        #expect(sync.stdout.contains("! Your profile was changed on another device: choose with `wdiet client resolve --keep-local` or `--use-server`."))
        let status = try await Self.client(["status"], store: laptop)
        #expect(status.stdout.contains("Profile conflict: this device has 79.0 kg, 180.0 cm, moderate, goal lose; the server has 81.0 kg, 180.0 cm, moderate, goal lose."))
        #expect(try await Self.client(["resolve", "--keep-local"], store: laptop).status == 0)
        #expect(try await Self.client(["sync"], store: laptop).stdout == "Synced.\n")
        #expect(try await Self.client(["sync"], store: phone).status == 0)
        #expect(try await Self.client(["status"], store: phone).stdout.contains("Conflicts: none"))
        #expect(try await Self.client(["notices"], store: phone).stdout == "No notices.\n")
        await server.stop()
    }

    /// The id a command printed in "(… <id>)" or "(id <id>)".
    static func printedID(_ line: String, after marker: String) throws -> String {
        let range = try #require(line.range(of: marker))
        return String(line[range.upperBound...].prefix(36))
    }

    @Test func copyRecentsFavouritesAndSavedMealsWorkOfflineAndSync() async throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("phone.sqlite")
        #expect(try await Self.client(Self.profileArguments, store: store).status == 0)
        // Recents look back 60 days from now, so the days are the last three in Berlin: D1, D2 and D3 (today).
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        let d3 = LocalDate(Date(), in: berlin), d2 = d3.adding(days: -1), d1 = d3.adding(days: -2)
        func at(_ day: LocalDate, _ hour: Int, _ minute: Int) -> String {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = berlin
            let date = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: hour, minute: minute))!
            return WireFormat.instantText(date)
        }
        // Breakfast on D1 at 08:30 and 08:40 Berlin time, and a dinner.
        let porridge = try await Self.client(
            ["log-meal", "--name", "Porridge", "--calories", "320", "--protein", "11", "--at", at(d1, 8, 30)], store: store)
        _ = try await Self.client(["log-meal", "--name", "Coffee", "--calories", "40", "--at", at(d1, 8, 40)], store: store)
        _ = try await Self.client(["log-meal", "--name", "Pasta", "--calories", "650", "--at", at(d1, 18, 30)], store: store)

        // Same as yesterday, breakfast only: 320 + 40 kcal, at the same local times on 2 March.
        let copy = try await Self.client(["copy", "--from", d1.iso, "--slot", "breakfast", "--to", d2.iso], store: store)
        #expect(copy.status == 0)
        #expect(copy.stdout == "Copied 2 meals of \(d1.iso) (breakfast) to \(d2.iso), 360 kcal. 6 changes wait for the next sync.\n")
        let second = try await Self.client(["today", "--date", d2.iso], store: store)
        #expect(second.stdout.contains("  08:30  Porridge — 320 kcal (P 11 g)\n  08:40  Coffee — 40 kcal\n"))
        #expect(!second.stdout.contains("Pasta"))
        let nothing = try await Self.client(["copy", "--from", d3.adding(days: -30).iso], store: store)
        #expect(nothing.status != 0)
        #expect(nothing.stderr == "wdiet: There is nothing to copy on that day\n")

        // Recents: each food once, with how often it was logged.
        let recents = try await Self.client(["recents"], store: store).stdout
        #expect(recents.split(separator: "\n").count == 3)
        #expect(recents.contains("Porridge — 320 kcal (logged 2×;"))
        #expect(recents.contains("Pasta — 650 kcal (logged 1×;"))

        // A favourite from a logged meal; listed; removed.
        let mealID = try Self.printedID(porridge.stdout, after: "(id ")
        let starred = try await Self.client(["favourites", "--add-meal", mealID], store: store)
        #expect(starred.stdout.hasPrefix("Starred Porridge (favourite "))
        let favouriteID = try Self.printedID(starred.stdout, after: "(favourite ")
        #expect(try await Self.client(["favourites"], store: store).stdout == "Porridge, 320 kcal (\(favouriteID))\n")
        #expect(try await Self.client(["favourites", "--remove", favouriteID], store: store).status == 0)
        #expect(try await Self.client(["favourites"], store: store).stdout.hasPrefix("No favourites yet"))

        // A saved meal from 1 March's breakfast, for two servings: 180 kcal a serving; logging 1 serving logs each
        // food halved (160 + 20 kcal).
        let saved = try await Self.client(
            ["saved-meals", "--save", "Usual breakfast", "--date", d1.iso, "--slot", "breakfast", "--servings", "2"], store: store)
        #expect(saved.stdout.hasPrefix("Saved Usual breakfast: 2 foods, 180 kcal a serving ("))
        let savedID = try Self.printedID(saved.stdout, after: "a serving (")
        #expect(try await Self.client(["saved-meals"], store: store).stdout
            == "Usual breakfast — 180 kcal a serving, 2 servings: Porridge, Coffee (\(savedID))\n")
        let logged = try await Self.client(["saved-meals", "--log", savedID, "--at", at(d3, 8, 0)], store: store)
        #expect(logged.stdout.hasPrefix("Logged 2 meals, 180 kcal."))
        let third = try await Self.client(["today", "--date", d3.iso], store: store).stdout
        #expect(third.contains("  08:00  Porridge — 160 kcal (P 5.5 g)\n"))
        #expect(third.contains("  08:00  Coffee — 20 kcal\n"))
        #expect(third.contains("Calories: 180 of "))

        // Bad input: one line, non-zero.
        let cases: [([String], String)] = [
            (["copy", "--from", "yesterday"], "--from must be a date as YYYY-MM-DD, not 'yesterday'"),
            (["favourites", "--add-meal", "nope"], "--add-meal must be an id such as 0190c5a2-…, not 'nope'"),
            (["favourites", "--add-meal", UUID().uuidString], "no meal"),
            (["saved-meals", "--save", "Lunch"], "--save needs --date: the day whose meals make the saved meal"),
            (["saved-meals", "--save", "Lunch", "--date", "2026-02-01"], "no meals on 2026-02-01 to save"),
            (["saved-meals", "--log", savedID, "--servings", "0"], LoggingInput.Message.servings),
            (["recents", "--limit", "0"], "--limit must be between 1 and 50, not 0"),
        ]
        for (arguments, message) in cases {
            let result = try await Self.client(arguments, store: store)
            #expect(result.status != 0, "\(arguments)")
            #expect(result.stderr.hasPrefix("wdiet: ") && result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }

        // Everything reaches the server with the next sync, and another device of the account gets the saved meal.
        let server = try await InProcessServer.start()
        let url = server.url.absoluteString
        let register = try await Self.client(
            ["login", "--server", url, "--register", "--email", "quick@example.com", "--password", "correct horse 42"], store: store)
        #expect(register.status == 0, "\(register.stderr)")
        #expect(try await Self.client(["sync"], store: store).status == 0)
        #expect(try await Self.client(["status"], store: store).stdout.contains("Pending changes: 0\n"))
        let laptop = folder.appendingPathComponent("laptop.sqlite")
        #expect(try await Self.client(
            ["login", "--server", url, "--email", "quick@example.com", "--password", "correct horse 42"], store: laptop).status == 0)
        #expect(try await Self.client(["sync"], store: laptop).status == 0)
        #expect(try await Self.client(["saved-meals"], store: laptop).stdout
            == "Usual breakfast — 180 kcal a serving, 2 servings: Porridge, Coffee (\(savedID))\n")
        #expect(try await Self.client(["today", "--date", d3.iso], store: laptop).stdout.contains("Porridge — 160 kcal"))
        await server.stop()
    }
}

/// The server `wdiet serve` runs, on SQLite in memory, in this process on a free port.
final class InProcessServer: Sendable {
    let url: URL
    private let running: Task<Void, any Error>

    private init(url: URL, running: Task<Void, any Error>) {
        self.url = url
        self.running = running
    }

    static func start() async throws -> InProcessServer {
        var logger = Logger(label: "wdiet-cli-test-server")
        logger.logLevel = .error
        let router = buildRouter(
            services: AppServices(database: try AppDatabase.inMemory()), configuration: ServerConfiguration(port: 0, bcryptCost: 4))
        let port = BoundPort()
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in port.set(channel.localAddress?.port) }, logger: logger)
        let running = Task { try await app.runService(gracefulShutdownSignals: []) }
        for _ in 0..<500 {
            if let bound = port.value { return InProcessServer(url: URL(string: "http://127.0.0.1:\(bound)")!, running: running) }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        running.cancel()
        throw CancellationError()
    }

    func stop() async {
        running.cancel()
        _ = try? await running.value
    }
}

final class BoundPort: @unchecked Sendable {
    private let lock = NSLock()
    private var port: Int?

    var value: Int? { lock.withLock { port } }

    func set(_ port: Int?) {
        lock.withLock { self.port = port }
    }
}
