import Foundation
import GRDB
import Testing
import WDietCore
@testable import WDietSQLite
import WDietStore
import WDietTestSupport

@Suite("Logged days (trigger-maintained) and recent daily weights")
struct CoachDashboardReadsTests {
    static let zone = Fixtures.zone("Europe/Berlin")

    static func at(_ date: String, hour: Double = 9) -> Date {
        Fixtures.date(date).startInstant(in: zone).addingTimeInterval(hour * 3_600)
    }

    static func rows(_ stores: CoachTestStores) throws -> [String: Int] {
        try stores.database.writer.read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT localDate, entries FROM loggedDays").map {
                ($0["localDate"] as String, $0["entries"] as Int)
            })
        }
    }

    @Test("inserts, moves to another day, tombstones: the per-day count follows every write")
    func triggersFollowWrites() async throws {
        let stores = try CoachTestStores()
        let user = try await stores.makeUser()
        let lunch = Meal(name: "Lunch", kcal: 600, loggedAt: Self.at("2026-03-10", hour: 12))
        _ = try await stores.meals.saveMeal(lunch, userId: user, timeZone: Self.zone)
        _ = try await stores.weights.saveWeight(WeightEntry(kg: 80, loggedAt: Self.at("2026-03-10")), userId: user, timeZone: Self.zone)
        #expect(try Self.rows(stores) == ["2026-03-10": 2])

        var moved = lunch
        moved.loggedAt = Self.at("2026-03-09", hour: 12)
        _ = try await stores.meals.saveMeal(moved, userId: user, timeZone: Self.zone)
        #expect(try Self.rows(stores) == ["2026-03-09": 1, "2026-03-10": 1])

        try await stores.meals.deleteMeal(userId: user, id: lunch.id)
        #expect(try Self.rows(stores) == ["2026-03-10": 1])
        #expect(try await stores.loggedDays.loggedDays(userId: user, in: Fixtures.date("2026-03-01")...Fixtures.date("2026-03-31")) == [Fixtures.date("2026-03-10")])
    }

    @Test("the latest run stops at the first gap and ignores days after `through`")
    func latestRun() async throws {
        let stores = try CoachTestStores()
        let user = try await stores.makeUser()
        let other = try await stores.makeUser()
        for day in ["2026-03-01", "2026-03-02", "2026-03-04", "2026-03-05", "2026-03-06", "2026-03-08"] {
            _ = try await stores.meals.saveMeal(Meal(name: "M", kcal: 100, loggedAt: Self.at(day)), userId: user, timeZone: Self.zone)
        }
        _ = try await stores.meals.saveMeal(Meal(name: "M", kcal: 100, loggedAt: Self.at("2026-03-03")), userId: other, timeZone: Self.zone)
        let run = try await stores.loggedDays.latestRun(userId: user, through: Fixtures.date("2026-03-07"))
        #expect(run == ["2026-03-06", "2026-03-05", "2026-03-04"].map(Fixtures.date))
        #expect(Streak(loggedDays: run, today: Fixtures.date("2026-03-07")).days == 3)
        #expect(try await stores.loggedDays.latestRun(userId: user, through: Fixtures.date("2026-02-28")).isEmpty)
        #expect(try await stores.loggedDays.latestRun(userId: other, through: Fixtures.date("2026-03-07")) == [Fixtures.date("2026-03-03")])
    }

    @Test("recent daily weights: the last n days' current values, oldest first")
    func recentDailyWeights() async throws {
        let stores = try CoachTestStores()
        let user = try await stores.makeUser()
        for (index, kg) in [80.0, 79.8, 79.6, 79.4].enumerated() {
            _ = try await stores.weights.saveWeight(WeightEntry(kg: kg, loggedAt: Self.at("2026-03-0\(index + 1)", hour: 7)), userId: user, timeZone: Self.zone)
        }
        // A correction in the evening of the 3rd, and an entry after `through`.
        _ = try await stores.weights.saveWeight(WeightEntry(kg: 79.5, loggedAt: Self.at("2026-03-03", hour: 20)), userId: user, timeZone: Self.zone)
        _ = try await stores.weights.saveWeight(WeightEntry(kg: 70, loggedAt: Self.at("2026-03-09", hour: 7)), userId: user, timeZone: Self.zone)
        let recent = try await stores.weights.recentDailyWeights(userId: user, through: Fixtures.date("2026-03-04"), days: 3)
        #expect(recent.map(\.localDate) == ["2026-03-02", "2026-03-03", "2026-03-04"].map(Fixtures.date))
        #expect(recent.map(\.entry.kg) == [79.8, 79.5, 79.4])
        // It agrees with the full daily history.
        let all = try await stores.weights.dailyWeights(userId: user).filter { $0.localDate <= Fixtures.date("2026-03-04") }
        #expect(Array(all.suffix(3)) == recent)
    }

    @Test("v3-logged-days counts the rows that existed before it")
    func migrationBackfills() throws {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "v2-profile-pending-changes")
        try queue.write { db in
            try db.execute(sql: "INSERT INTO users (id, displayName, createdAt, updatedAt, version) VALUES ('u', 'U', 'x', 'x', 1)")
            for (id, day, deleted) in [("a", "2026-03-01", false), ("b", "2026-03-01", false), ("c", "2026-03-02", true)] {
                try db.execute(sql: """
                    INSERT INTO meals (id, userId, name, kcal, source, loggedAt, localDate, createdAt, updatedAt, version, deletedAt)
                    VALUES (?, 'u', 'M', 100, 'manual', 'x', ?, 'x', 'x', 1, ?)
                    """, arguments: [id, day, deleted ? "x" : nil])
            }
        }
        try AppDatabase.migrator.migrate(queue)
        let rows = try queue.read { db in try Row.fetchAll(db, sql: "SELECT localDate, entries FROM loggedDays") }
        #expect(rows.map { $0["localDate"] as String } == ["2026-03-01"])
        #expect(rows.map { $0["entries"] as Int } == [2])
    }
}
