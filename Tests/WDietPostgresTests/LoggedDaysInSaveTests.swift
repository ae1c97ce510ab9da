import Foundation
import Logging
import PostgresNIO
import Testing
import WDietCore
import WDietPostgres
import WDietStore
import WDietTestSupport

/// Migration 50 (`logged-days-in-save`) dropped the statement trigger that counted inserted meals and weights in
/// `logged_days`; the inserting statements count them themselves (`PostgresOwnedRow.countLoggedDaysSQL`). The
/// table must hold what the trigger kept: for each (user, day), the number of live meals and weights, after every
/// write path a row can come in by — the save with its event (the everyday meal save), a batch, an edit to another
/// day, a delete and a restore, a sync push, an import — and across the migration itself.
@Suite struct LoggedDaysInSaveTests {
    static let berlin = Fixtures.zone("Europe/Berlin")

    static func at(_ date: String, hour: Double = 9) -> Date {
        Fixtures.date(date).startInstant(in: berlin).addingTimeInterval(hour * 3_600)
    }

    /// `logged_days` for one user, "day=entries", by day.
    static func counted(_ client: PostgresClient, _ user: UUID) async throws -> [String] {
        let rows = try await client.query(
            "SELECT local_date::text, entries::bigint FROM logged_days WHERE user_id = \(user) ORDER BY local_date")
        var result: [String] = []
        for try await (day, entries) in rows.decode((String, Int64).self) { result.append("\(day)=\(entries)") }
        return result
    }

    /// What the trigger kept, counted from the rows themselves: live meals and weights per day.
    static func recounted(_ client: PostgresClient, _ user: UUID) async throws -> [String] {
        let rows = try await client.query("""
            SELECT local_date::text, count(*)::bigint FROM (
                SELECT local_date FROM meals WHERE user_id = \(user) AND deleted_at IS NULL
                UNION ALL SELECT local_date FROM weights WHERE user_id = \(user) AND deleted_at IS NULL
            ) AS live GROUP BY local_date ORDER BY local_date
            """)
        var result: [String] = []
        for try await (day, entries) in rows.decode((String, Int64).self) { result.append("\(day)=\(entries)") }
        return result
    }

    static func event(_ name: AnalyticsEventName, _ at: Date) -> AnalyticsEvent {
        AnalyticsEvent(name: name, properties: ["source": "manual"], occurredAt: at)
    }

    @Test func everyWritePathCountsItsDays() async throws {
        try await StoreBackend.postgres.withCoachStores { stores in
            guard case .postgres(let client) = stores.database else { Issue.record("not PostgreSQL"); return }
            let user = try await stores.makeUser()
            let other = try await stores.makeUser()
            func expect(_ days: [String], _ comment: Comment) async throws {
                let counted = try await Self.counted(client, user)
                #expect(counted == days, comment)
                #expect(counted == (try await Self.recounted(client, user)), comment)
            }

            // The everyday save (one statement with its event): two meals and a weight on the 10th, one on the 11th.
            let lunch = Meal(name: "Lunch", kcal: 600, loggedAt: Self.at("2026-03-10", hour: 12))
            _ = try await stores.meals.saveMeal(lunch, userId: user, timeZone: Self.berlin, recording: Self.event(.mealLogged, lunch.loggedAt))
            let dinner = Meal(name: "Dinner", kcal: 700, loggedAt: Self.at("2026-03-10", hour: 19))
            _ = try await stores.meals.saveMeal(dinner, userId: user, timeZone: Self.berlin, recording: Self.event(.mealLogged, dinner.loggedAt))
            let weight = WeightEntry(kg: 80, loggedAt: Self.at("2026-03-10", hour: 7))
            _ = try await stores.weights.saveWeight(weight, userId: user, timeZone: Self.berlin, recording: Self.event(.weightLogged, weight.loggedAt))
            let breakfast = Meal(name: "Breakfast", kcal: 300, loggedAt: Self.at("2026-03-11", hour: 8))
            _ = try await stores.meals.saveMeal(breakfast, userId: user, timeZone: Self.berlin, recording: Self.event(.mealLogged, breakfast.loggedAt))
            // Another user's meal on the same day is theirs alone.
            _ = try await stores.meals.saveMeal(
                Meal(name: "Theirs", kcal: 100, loggedAt: Self.at("2026-03-10")), userId: other, timeZone: Self.berlin,
                recording: Self.event(.mealLogged, Self.at("2026-03-10")))
            try await expect(["2026-03-10=3", "2026-03-11=1"], "after four saves with their events")
            #expect(try await Self.counted(client, other) == ["2026-03-10=1"])

            // The same save retried (same meal, same event) is not a second entry.
            _ = try await stores.meals.saveMeal(lunch, userId: user, timeZone: Self.berlin, recording: Self.event(.mealLogged, lunch.loggedAt))
            try await expect(["2026-03-10=3", "2026-03-11=1"], "after a retried save")

            // An edit to another day: the 10th loses one, the 9th gains one.
            var moved = dinner
            moved.loggedAt = Self.at("2026-03-09", hour: 19)
            _ = try await stores.meals.saveMeal(moved, userId: user, timeZone: Self.berlin, recording: Self.event(.mealLogged, moved.loggedAt))
            try await expect(["2026-03-09=1", "2026-03-10=2", "2026-03-11=1"], "after an edit to the 9th")

            // A delete; the day goes when its last entry goes; a restore brings it back.
            try await stores.meals.deleteMeal(userId: user, id: breakfast.id)
            try await expect(["2026-03-09=1", "2026-03-10=2"], "after deleting the 11th's only meal")
            _ = try await stores.meals.restoreMeal(userId: user, id: breakfast.id)
            try await expect(["2026-03-09=1", "2026-03-10=2", "2026-03-11=1"], "after restoring it")

            // A batch (the transaction path): three meals on two days, one of them a day already counted.
            _ = try await stores.meals.saveMeals([
                Meal(name: "B1", kcal: 100, loggedAt: Self.at("2026-03-12")),
                Meal(name: "B2", kcal: 100, loggedAt: Self.at("2026-03-12", hour: 13)),
                Meal(name: "B3", kcal: 100, loggedAt: Self.at("2026-03-11", hour: 13)),
            ], userId: user, timeZone: Self.berlin)
            try await expect(["2026-03-09=1", "2026-03-10=2", "2026-03-11=2", "2026-03-12=2"], "after a batch of three")

            // A sync push: two new meals on the 13th and a weight on the 12th in one push, then the weight deleted.
            _ = try await stores.sync.push(
                [SyncChange(idempotencyKey: "profile", entity: .profile, op: .upsert, profile: Fixtures.profile())], userId: user)
            let pushedWeight = WeightEntry(kg: 79.5, loggedAt: Fixtures.utc("2026-03-12T06:00:00Z"))
            let pushed = try await stores.sync.push([
                .upsert(Meal(name: "P1", kcal: 200, loggedAt: Fixtures.utc("2026-03-13T11:00:00Z")), key: "p1"),
                .upsert(Meal(name: "P2", kcal: 200, loggedAt: Fixtures.utc("2026-03-13T12:00:00Z")), key: "p2"),
                .upsert(pushedWeight, key: "w"),
            ], userId: user)
            #expect(pushed.allSatisfy { $0.status == .applied })
            try await expect(["2026-03-09=1", "2026-03-10=2", "2026-03-11=2", "2026-03-12=3", "2026-03-13=2"], "after a sync push")
            let deleted = try await stores.sync.push(
                [.delete(.weight, id: pushedWeight.id, baseVersion: pushed[2].version, key: "w-gone")], userId: user)
            #expect(deleted.map(\.status) == [.applied])
            try await expect(["2026-03-09=1", "2026-03-10=2", "2026-03-11=2", "2026-03-12=2", "2026-03-13=2"], "after a pushed delete")

            // An import into a new account counts the imported rows' days (`PostgresOwnedRow.insert`).
            let copy = try await stores.makeUser()
            let export = try await stores.userData.exportUserData(userId: user)
            try await stores.userData.importUserData(export, into: copy)
            #expect(try await Self.counted(client, copy) == (try await Self.counted(client, user)))
            #expect(try await Self.counted(client, copy) == (try await Self.recounted(client, copy)))

            // The streak reads the same table: the 9th to the 13th, five days.
            let run = try await stores.loggedDays.latestRun(userId: user, through: Fixtures.date("2026-03-13"))
            #expect(Streak(loggedDays: run, today: Fixtures.date("2026-03-13")).days == 5)
        }
    }

    /// Rows counted by the old trigger stay counted across the migration, and the saves after it add to them.
    @Test func theMigrationKeepsWhatTheTriggerCounted() async throws {
        let before = PostgresDatabase.migrations.filter { $0.version < 50 }
        let scratch = try await PostgresScratchDatabase.create(migrations: before)
        defer { Task { await scratch.drop() } }
        let client = scratch.client
        let user = UUID()
        _ = try await PostgresUserStore(client: client).createUser(id: user, email: nil, displayName: "Before")
        // Before migration 50 a plain insert was counted by the trigger (today's stores would count it twice there).
        for (day, hour) in [("2026-03-01", "08"), ("2026-03-01", "12"), ("2026-03-02", "12")] {
            try await client.query(PostgresQuery(unsafeSQL: """
                INSERT INTO meals (id, user_id, name, kcal, source, logged_at, local_date, created_at, updated_at, version)
                VALUES (gen_random_uuid(), '\(user)', 'Old', 100, 'manual', '\(day)T\(hour):00:00Z', DATE '\(day)', now(), now(), 1)
                """))
        }
        #expect(try await Self.counted(client, user) == ["2026-03-01=2", "2026-03-02=1"])

        try await PostgresDatabase.migrate(client: client, migrations: PostgresDatabase.migrations, logger: Logger(label: "test"))
        #expect(try await Self.counted(client, user) == ["2026-03-01=2", "2026-03-02=1"])
        let meals = PostgresMealStore(client: client)
        let meal = Meal(name: "New", kcal: 300, loggedAt: Fixtures.utc("2026-03-02T18:00:00Z"))
        _ = try await meals.saveMeal(meal, userId: user, timeZone: TimeZone(identifier: "UTC")!, recording: Self.event(.mealLogged, meal.loggedAt))
        #expect(try await Self.counted(client, user) == ["2026-03-01=2", "2026-03-02=2"])
        #expect(try await Self.counted(client, user) == (try await Self.recounted(client, user)))
    }
}
