import Foundation
import GRDB
import Testing
import WDietCore
@testable import WDietSQLite
import WDietStore
import WDietTestSupport

/// v11-meal-slot on a database made before it: a meal keeps its row with no slot and reads as the slot of its local
/// time (002's buckets in the profile's zone); a slot can then be chosen, and the column's CHECK refuses any other word.
@Suite struct MigrationMealSlotTests {
    static let userId = "6f0c2a4e-0000-4000-8000-000000000011"
    static let mealId = "6f0c2a4e-0000-4000-8000-0000000000a1"

    static func databaseBeforeV11() throws -> DatabaseQueue {
        var config = Configuration()
        config.foreignKeysEnabled = true
        let queue = try DatabaseQueue(configuration: config)
        try AppDatabase.migrator.migrate(queue, upTo: "v10-user-language")
        try queue.write { db in
            #expect(try !db.columns(in: "meals").map(\.name).contains("slot"))
            // Soup at 19:30 UTC: 20:30 in Berlin, a dinner by the clock.
            try db.execute(sql: """
                INSERT INTO users (id, displayName, createdAt, updatedAt, version)
                VALUES ('\(userId)', 'Kept', '2026-01-01T09:00:00.000Z', '2026-01-01T09:00:00.000Z', 1);
                INSERT INTO meals (id, userId, name, kcal, source, loggedAt, localDate, createdAt, updatedAt, version)
                VALUES ('\(mealId)', '\(userId)', 'Soup', 300, 'manual', '2026-03-01T19:30:00.000Z', '2026-03-01',
                    '2026-03-01T19:30:00.000Z', '2026-03-01T19:30:00.000Z', 2);
                UPDATE syncVersion SET value = 2;
                """)
        }
        return queue
    }

    @Test func aMealFromBeforeTheMigrationReadsAsItsLocalTimesSlotAndCanGetOne() async throws {
        let queue = try Self.databaseBeforeV11()
        let database = try AppDatabase(queue)
        let store = SQLiteMealStore(database: database, now: { Fixtures.utc("2026-03-02T08:00:00Z") })
        let user = try #require(UUID(uuidString: Self.userId))
        let id = try #require(UUID(uuidString: Self.mealId))

        let before = try #require(try await store.meal(userId: user, id: id))
        #expect(before.meal.slot == nil)
        #expect(before.meal.slot(in: Fixtures.zone("Europe/Berlin")) == .dinner)
        #expect(before.meal.slot(in: Fixtures.zone("America/New_York")) == .lunch)  // 14:30 there

        var chosen = before.meal
        chosen.slot = .snack
        let after = try await store.saveMeal(chosen, userId: user, timeZone: Fixtures.zone("Europe/Berlin"))
        #expect(after.meal.slot == .snack)
        #expect(after.version == 3)

        #expect(throws: (any Error).self) {
            try queue.write { db in try db.execute(sql: "UPDATE meals SET slot = 'brunch' WHERE id = ?", arguments: [Self.mealId]) }
        }
    }
}
