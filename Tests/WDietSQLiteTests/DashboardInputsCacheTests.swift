import Foundation
import GRDB
import Testing
import WDietCore
import WDietSQLite
import WDietStore
import WDietTestSupport

/// The dashboard's kept inputs must never outlive a write: whichever code commits it, and only for its user.
@Suite("Dashboard inputs cache and the user data generations behind it")
struct DashboardInputsCacheTests {
    static let zone = Fixtures.zone("Europe/Berlin")
    /// 2026-03-01 12:00 in Berlin.
    static let noon = Fixtures.utc("2026-03-01T11:00:00Z")

    static func userWithProfile(_ stores: CoachTestStores) async throws -> UUID {
        let user = try await stores.makeUser()
        _ = try await stores.profiles.saveProfile(Fixtures.profile(timeZone: "Europe/Berlin"), userId: user, expectedVersion: nil)
        return user
    }

    @Test("a meal saved after a dashboard read is in the next read: 500 kcal, then 500 + 700")
    func mealSaveInvalidates() async throws {
        let stores = try CoachTestStores()
        let user = try await Self.userWithProfile(stores)
        let dashboards = SQLiteDashboardStore(database: stores.database)
        _ = try await stores.meals.saveMeal(Meal(name: "Breakfast", kcal: 500, loggedAt: Self.noon), userId: user, timeZone: Self.zone)
        let first = try #require(try await dashboards.dashboardInputs(userId: user, now: Self.noon))
        #expect(first.todaysMeals.map(\.kcal) == [500])
        _ = try await stores.meals.saveMeal(Meal(name: "Lunch", kcal: 700, loggedAt: Self.noon.addingTimeInterval(60)), userId: user, timeZone: Self.zone)
        let second = try #require(try await dashboards.dashboardInputs(userId: user, now: Self.noon))
        #expect(second.todaysMeals.map(\.kcal).reduce(0, +) == 1_200)
        #expect(second.latestRun == [Fixtures.date("2026-03-01")])
    }

    @Test("SQL that bypasses the stores still moves the user's generation; a rollback does not")
    func rawWritesAndRollbacks() async throws {
        let stores = try CoachTestStores()
        let user = try await Self.userWithProfile(stores)
        let other = try await Self.userWithProfile(stores)
        let changes = stores.database.userDataChanges
        let userText = user.uuidString.lowercased(), otherText = other.uuidString.lowercased()
        let before = changes.generation(ofUser: userText)
        let otherBefore = changes.generation(ofUser: otherText)

        try await stores.database.writer.write { db in
            try db.execute(sql: "UPDATE profiles SET mealsPerDay = 4 WHERE userId = ?", arguments: [userText])
        }
        #expect(changes.generation(ofUser: userText) == before + 1)
        #expect(changes.generation(ofUser: otherText) == otherBefore)

        struct Abandon: Error {}
        await #expect(throws: Abandon.self) {
            try await stores.database.writer.write { db in
                try db.execute(sql: "UPDATE profiles SET mealsPerDay = 5 WHERE userId = ?", arguments: [userText])
                throw Abandon()
            }
        }
        #expect(changes.generation(ofUser: userText) == before + 1)
    }

    @Test("a weight logged for another user leaves this user's entry in place; this user's weight replaces it")
    func perUser() async throws {
        let stores = try CoachTestStores()
        let user = try await Self.userWithProfile(stores)
        let other = try await Self.userWithProfile(stores)
        let dashboards = SQLiteDashboardStore(database: stores.database)
        let userText = user.uuidString.lowercased()
        _ = try await dashboards.dashboardInputs(userId: user, now: Self.noon)
        let generation = stores.database.userDataChanges.generation(ofUser: userText)
        _ = try await stores.weights.saveWeight(WeightEntry(kg: 70, loggedAt: Self.noon), userId: other, timeZone: Self.zone)
        #expect(stores.database.userDataChanges.generation(ofUser: userText) == generation)
        _ = try await stores.weights.saveWeight(WeightEntry(kg: 79.5, loggedAt: Self.noon), userId: user, timeZone: Self.zone)
        let inputs = try #require(try await dashboards.dashboardInputs(userId: user, now: Self.noon))
        #expect(inputs.recentWeights.map(\.kg) == [79.5])
    }

    @Test("after Berlin's midnight the inputs are read for the new day: yesterday's meal is no longer today's")
    func newDay() async throws {
        let stores = try CoachTestStores()
        let user = try await Self.userWithProfile(stores)
        let dashboards = SQLiteDashboardStore(database: stores.database)
        _ = try await stores.meals.saveMeal(Meal(name: "Dinner", kcal: 800, loggedAt: Self.noon), userId: user, timeZone: Self.zone)
        let today = try #require(try await dashboards.dashboardInputs(userId: user, now: Self.noon))
        #expect(today.todaysMeals.count == 1)
        // 2026-03-02 00:30 in Berlin.
        let tomorrow = try #require(try await dashboards.dashboardInputs(userId: user, now: Fixtures.utc("2026-03-01T23:30:00Z")))
        #expect(tomorrow.today == Fixtures.date("2026-03-02"))
        #expect(tomorrow.todaysMeals.isEmpty)
        #expect(tomorrow.latestRun == [Fixtures.date("2026-03-01")])
    }

    @Test("a hit does not read the file: a write from another process is seen only without the cache (why SQLite has one server process)")
    func hitsSkipTheRead() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("db.sqlite").path
        let database = try AppDatabase.open(path: path)
        let users = SQLiteUserStore(database: database)
        let user = try await users.createUser(id: UUID(), email: nil, displayName: "Cache").id
        _ = try await SQLiteProfileStore(database: database).saveProfile(Fixtures.profile(timeZone: "Europe/Berlin"), userId: user, expectedVersion: nil)
        let cached = SQLiteDashboardStore(database: database)
        let uncached = SQLiteDashboardStore(database: database, cachesInputs: false)
        #expect(try await cached.dashboardInputs(userId: user, now: Self.noon)?.profile.profile.mealsPerDay == 3)

        // Another connection, as another process would have: not seen by this process's triggers.
        let outsider = try DatabaseQueue(path: path)
        try await outsider.write { db in
            try db.execute(sql: "UPDATE profiles SET mealsPerDay = 6 WHERE userId = ?", arguments: [user.uuidString.lowercased()])
        }
        #expect(try await uncached.dashboardInputs(userId: user, now: Self.noon)?.profile.profile.mealsPerDay == 6)
        #expect(try await cached.dashboardInputs(userId: user, now: Self.noon)?.profile.profile.mealsPerDay == 3)
    }
}
