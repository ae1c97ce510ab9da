import ArgumentParser
import Foundation
import WDietCore
import WDietPostgres
import WDietSQLite
import WDietStorage
import WDietStore

/// `wdiet-dev seed`: a database with many users and a year of history each, for the server's load benchmark
/// (`scripts/bench-server.sh`). Each user is a guest with a profile (time zones, sexes, goals and activity levels
/// spread over the users), 5 meals and 1 weight a day ending today in their own time zone, and one API session
/// whose token goes to `--tokens-out`.
struct SeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract: "Fill a new database with users and their history, for load benchmarks."
    )

    @Option(help: "How many users.") var users = 1_000
    @Option(help: "Days of history per user, ending today in the user's time zone.") var days = 365
    /// Never `$WDIET_DATABASE_URL`: a seed belongs in a database named for it, not in whatever a shell points at.
    @Option(help: "SQLite database file to create, or an empty PostgreSQL database (postgres://…; migrated first).")
    var database = "wdiet-seed.sqlite"
    @Option(name: .customLong("tokens-out"), help: "File for the users' API bearer tokens, one per line.")
    var tokensOut: String?
    @Flag(help: "Replace an existing non-empty database file.") var force = false
    @Option(name: .customLong("now"), help: "The instant the history ends at, like 2026-03-10T12:00:00Z (default: now); two seeds with the same one hold the same values.")
    var endInstant: String?

    static let zones = [
        "Europe/Berlin", "America/New_York", "Asia/Tokyo", "Australia/Sydney", "America/Los_Angeles",
        "Asia/Kolkata", "Pacific/Kiritimati", "Pacific/Pago_Pago", "UTC", "America/Sao_Paulo",
    ]
    /// Local hours of the day's five meals (the last one a little later for some users).
    static let mealHours = [7.5, 10.0, 12.5, 15.5, 18.5]
    static let mealNames = ["Oatmeal with berries", "Greek yogurt", "Chicken salad", "Apple and almonds", "Salmon with rice"]

    func validate() throws {
        guard users > 0 else { throw ValidationError("--users must be at least 1.") }
        guard days > 0 else { throw ValidationError("--days must be at least 1.") }
        if let endInstant, Self.instant(endInstant) == nil { throw ValidationError("--now must be an instant like 2026-03-10T12:00:00Z.") }
        _ = try StoreLocation(database)
    }

    static func instant(_ text: String) -> Date? {
        try? Date(text, strategy: .iso8601)
    }

    func run() async throws {
        let began = DispatchTime.now().uptimeNanoseconds
        func elapsed() -> String { String(format: "%.1f s", Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9) }

        let clock: @Sendable () -> Date
        if let instant = endInstant.flatMap(Self.instant) {
            clock = { instant }
        } else {
            clock = { Date() }
        }
        let location = try StoreLocation(database)
        let store = try await open(location)
        let stores = SeedStores(store, now: clock)
        let now = clock()
        var tokens: [String] = []
        tokens.reserveCapacity(users)
        print("Seeding \(users) users × \(days) days (5 meals and 1 weight a day) into \(location)")

        if location.isPostgres {
            // Users are independent and PostgreSQL's versions are per user, so several are written at once (the
            // database's work, mostly the logged-day triggers, then uses both cores). SQLite has one writer and one
            // database-wide version counter: its users go one after another, so a seed's versions are always the same.
            tokens = Array(repeating: "", count: users)
            var done = 0
            try await withThrowingTaskGroup(of: (Int, String).self) { group in
                var next = 0
                func startNext() {
                    guard next < users else { return }
                    let index = next
                    next += 1
                    group.addTask { (index, try await seedUser(index, stores: stores, now: now)) }
                }
                for _ in 0..<Self.postgresWriters { startNext() }
                while let (index, token) = try await group.next() {
                    tokens[index] = token
                    done += 1
                    if done % 100 == 0 || done == users { print("  \(done) users, \(elapsed())") }
                    startNext()
                }
            }
        } else {
            for index in 0..<users {
                tokens.append(try await seedUser(index, stores: stores, now: now))
                if (index + 1) % 100 == 0 || index + 1 == users {
                    print("  \(index + 1) users, \(elapsed())")
                }
            }
        }

        await store.close()
        if let tokensOut {
            try Data(tokens.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: tokensOut))
            print("Wrote \(tokens.count) API tokens to \(tokensOut)")
        }
        print("Seeded \(users) users in \(elapsed()); API sessions last 30 days.")
    }

    /// Users written at once on PostgreSQL.
    static let postgresWriters = 4

    /// The user with this index: the same profile, meals and weights on either backend and in any order, since
    /// every value comes from the index's own generator; returns their API token.
    func seedUser(_ index: Int, stores: SeedStores, now: Date) async throws -> String {
        var random = SeededRandom(seed: UInt64(index) &+ 0x5EED)
        let zone = TimeZone(identifier: Self.zones[index % Self.zones.count]) ?? .gmt
        let today = LocalDate(now, in: zone)
        let start = today.adding(days: -(days - 1))
        let sex: Sex = [.female, .male, .other][index % 3]
        let goal: Goal = [.lose, .lose, .maintain, .gain][index % 4]
        let startKg = 55 + Double(random.next() % 600) / 10
        let profile = Profile(
            dateOfBirth: LocalDate(year: 1960 + Int(random.next() % 45), month: 1 + Int(random.next() % 12), day: 1 + Int(random.next() % 28)) ?? start,
            sex: sex, heightCm: 150 + Double(random.next() % 45), weightKg: startKg,
            goal: goal, activity: ActivityLevel.allCases[index % ActivityLevel.allCases.count],
            mealsPerDay: 5, timeZoneIdentifier: zone.identifier, planStartDate: start
        )

        let user = try await stores.accounts.createGuest(id: UUID(), displayName: "")
        _ = try await stores.profiles.saveProfile(profile, userId: user.id, expectedVersion: nil)

        var meals: [Meal] = []
        meals.reserveCapacity(days * Self.mealHours.count)
        var weights: [WeightEntry] = []
        weights.reserveCapacity(days)
        let drift = goal == .lose ? -0.02 : goal == .gain ? 0.01 : 0
        for day in 0..<days {
            let midnight = start.adding(days: day).startInstant(in: zone)
            for (slot, hour) in Self.mealHours.enumerated() {
                let loggedAt = midnight.addingTimeInterval(hour * 3_600 + Double(random.next() % 1_800))
                guard loggedAt <= now else { continue }
                let kcal = 250 + Double(random.next() % 400)
                meals.append(Meal(
                    name: Self.mealNames[slot], kcal: kcal, protein: (kcal * 0.3 / 4).rounded(),
                    carbs: (kcal * 0.45 / 4).rounded(), fat: (kcal * 0.25 / 9).rounded(), fiber: Double(random.next() % 8),
                    loggedAt: loggedAt
                ))
            }
            let weighedAt = midnight.addingTimeInterval(7 * 3_600)
            if weighedAt <= now {
                let kg = startKg + Double(day) * drift + Double(Int(random.next() % 7) - 3) / 10
                weights.append(WeightEntry(kg: (kg * 10).rounded() / 10, loggedAt: weighedAt))
            }
        }
        // One transaction each: a client syncing its history in one go.
        _ = try await stores.meals.saveMeals(meals, userId: user.id, timeZone: zone)
        _ = try await stores.weights.saveWeights(weights, userId: user.id, timeZone: zone)
        return try await SeededSessions.startAPISession(for: user.id, accounts: stores.accounts, now: now)
    }

    /// The database, migrated; refused when it already holds something, unless `--force` (then emptied first).
    func open(_ location: StoreLocation) async throws -> OpenedStore {
        if case .sqlite(let path) = location {
            let manager = FileManager.default
            if let size = (try? manager.attributesOfItem(atPath: path))?[.size] as? Int, size > 0 {
                guard force else { throw CommandFailure("\(path) exists and is not empty; pass --force to replace it.") }
            }
            for suffix in ["", "-wal", "-shm"] where manager.fileExists(atPath: path + suffix) {
                try manager.removeItem(atPath: path + suffix)
            }
        }
        let store = try await location.open(.migrating, postgresConnections: Self.postgresWriters)
        guard case .postgres(let postgres) = store.backend else { return store }
        do {
            if try await postgres.userCount() > 0 {
                guard force else { throw CommandFailure("the PostgreSQL database has users; pass --force to remove them first.") }
                try await postgres.removeAllUsers()
            }
        } catch let refusal as CommandFailure {
            await store.close()
            throw refusal
        } catch {
            await store.close()
            throw StoreFailure.explaining(error, at: location)
        }
        return store
    }
}

/// The stores a seed writes through, on either backend: those the server's sign-up, profile, meal and weight paths
/// write through.
struct SeedStores: Sendable {
    let accounts: any AccountStore
    let profiles: any ProfileStore
    let meals: any MealStore
    let weights: any WeightStore

    init(_ store: OpenedStore, now: @escaping @Sendable () -> Date) {
        switch store.backend {
        case .sqlite(let database):
            accounts = SQLiteAccountStore(database: database, now: now)
            profiles = SQLiteProfileStore(database: database, now: now)
            meals = SQLiteMealStore(database: database, now: now)
            weights = SQLiteWeightStore(database: database, now: now)
        case .postgres(let database):
            accounts = PostgresAccountStore(client: database.client, now: now)
            profiles = PostgresProfileStore(client: database.client, now: now)
            meals = PostgresMealStore(client: database.client, now: now)
            weights = PostgresWeightStore(client: database.client, now: now)
        }
    }
}
