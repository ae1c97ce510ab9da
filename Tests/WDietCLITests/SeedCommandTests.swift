import Foundation
import Testing
import WDietCore
import WDietPostgres
@testable import WDietServer
import WDietSQLite
import WDietStore
import WDietTestSupport

@Suite("wdiet-dev seed")
struct SeedCommandTests {
    /// 12 users: every time zone of the seed and some on both sides of the date line, so "today" differs by user.
    static let users = 12
    static let days = 40
    static let now = Fixtures.utc("2026-03-10T12:00:00Z")

    @Test("the same population on SQLite and on PostgreSQL (batched writes): the same dashboards, histories and streaks")
    func sameOnBothBackends() async throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("seed.sqlite").path
        let arguments = ["seed", "--users", "\(Self.users)", "--days", "\(Self.days)", "--now", "2026-03-10T12:00:00Z"]
        let sqliteRun = try await CLI.run(
            arguments + ["--database", path, "--tokens-out", folder.appendingPathComponent("sqlite.tokens").path], binary: CLI.developerTool)
        #expect(sqliteRun.status == 0, "\(sqliteRun.stderr)")

        let scratch = try await PostgresScratchDatabase.create()
        let postgres = try PostgresDatabase(url: scratch.url, maximumConnections: 2)
        do {
            let postgresRun = try await CLI.run(
                arguments + ["--database", scratch.url, "--tokens-out", folder.appendingPathComponent("postgres.tokens").path],
                binary: CLI.developerTool)
            #expect(postgresRun.status == 0, "\(postgresRun.stderr)")
            #expect(postgresRun.stdout.contains("Seeded \(Self.users) users"))
            try await compare(
                sqlite: AppServices(database: try AppDatabase.open(path: path)), postgres: AppServices(postgres: postgres),
                folder: folder)
        } catch {
            await postgres.close()
            await scratch.drop()
            throw error
        }
        await postgres.close()
        await scratch.drop()
    }

    @Test("a file that holds something is kept unless --force")
    func refusesAFileInUse() async throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("in-use.sqlite").path
        try Data("not empty".utf8).write(to: URL(fileURLWithPath: path))
        let output = try await CLI.run(["seed", "--users", "1", "--days", "1", "--database", path], binary: CLI.developerTool)
        #expect(output.status == 1)
        #expect(output.stderrLines == ["wdiet-dev: \(path) exists and is not empty; pass --force to replace it."])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "not empty")
    }

    func compare(sqlite: AppServices, postgres: AppServices, folder: URL) async throws {
        func userIds(_ services: AppServices, _ file: String) async throws -> [UUID] {
            let tokens = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8).split(separator: "\n")
            var ids: [UUID] = []
            for token in tokens {
                // Hashed as the server hashes a bearer token, and as long-lived as a session it starts.
                let session = try #require(try await services.accounts.session(tokenHash: SessionToken.hash(String(token))))
                #expect(session.kind == .api)
                #expect(session.expiresAt.timeIntervalSince(session.createdAt) == AccountService.sessionLifetime)
                ids.append(session.userId)
            }
            return ids
        }
        let sqliteUsers = try await userIds(sqlite, "sqlite.tokens")
        let postgresUsers = try await userIds(postgres, "postgres.tokens")
        #expect(sqliteUsers.count == Self.users)
        #expect(postgresUsers.count == Self.users)

        var streaks: Set<Int> = []
        for (index, (a, b)) in zip(sqliteUsers, postgresUsers).enumerated() {
            let profileA = try #require(try await sqlite.profiles.profile(userId: a))
            let profileB = try #require(try await postgres.profiles.profile(userId: b))
            #expect(profileA.profile == profileB.profile, "user \(index)")

            let dashboardA = try await sqlite.dashboards.dashboard(userId: a, now: Self.now)
            let dashboardB = try await postgres.dashboards.dashboard(userId: b, now: Self.now)
            #expect(dashboardA == dashboardB, "user \(index)")
            streaks.insert(dashboardA.streak.days)

            // Every day of meals (ids aside: each seed draws its own) and every weight.
            let zone = profileA.profile.timeZone
            let today = LocalDate(Self.now, in: zone)
            var mealCount = 0
            for day in 0..<Self.days {
                let date = today.adding(days: -day)
                let mealsA = try await sqlite.meals.meals(userId: a, on: date).map(\.contents)
                let mealsB = try await postgres.meals.meals(userId: b, on: date).map(\.contents)
                #expect(mealsA == mealsB, "user \(index) on \(date)")
                mealCount += mealsA.count
            }
            // 5 a day; today only those before 12:00 UTC (none yet in Los Angeles at 04:00, all in Tokyo at 21:00).
            #expect(mealCount >= (Self.days - 1) * 5 && mealCount <= Self.days * 5, "user \(index)")
            let weightsA = try await sqlite.weights.weightHistory(userId: a).map { [$0.entry.kg, $0.entry.loggedAt.timeIntervalSince1970] }
            let weightsB = try await postgres.weights.weightHistory(userId: b).map { [$0.entry.kg, $0.entry.loggedAt.timeIntervalSince1970] }
            #expect(weightsA == weightsB, "user \(index)")
            #expect(weightsA.count >= Self.days - 1 && weightsA.count <= Self.days, "user \(index)")

            // Each user's versions on PostgreSQL: their row is 1, the profile 2, then one for each meal and weight.
            let versions = try await postgres.userData.exportUserData(userId: b)
            let mealVersions = versions.meals.map(\.version).sorted()
            #expect(mealVersions == Array(3...Int64(2 + mealCount)), "user \(index)")
            #expect(versions.weights.map(\.version).sorted().first == Int64(3 + mealCount), "user \(index)")
        }
        // Every day logged from the plan's start through today: the streak is the whole history.
        #expect(streaks.allSatisfy { $0 >= Self.days - 1 && $0 <= Self.days })
    }
}

extension StoredMeal {
    /// What the user logged, without the id each seed draws anew.
    var contents: [String] {
        [meal.name, "\(meal.kcal)", "\(meal.protein ?? -1)", "\(meal.carbs ?? -1)", "\(meal.fat ?? -1)", "\(meal.fiber ?? -1)",
         "\(meal.loggedAt.timeIntervalSince1970)", "\(localDate)"]
    }
}
