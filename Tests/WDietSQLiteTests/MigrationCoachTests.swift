import Foundation
import GRDB
import Testing
import WDietSQLite

@Suite struct MigrationCoachTests {
    @Test func createsTheCoachTablesWithTheirColumns() throws {
        let database = try AppDatabase.inMemory()
        let expected: [String: [String]] = [
            "syncVersion": ["id", "value"],
            "users": ["id", "email", "displayName", "createdAt", "updatedAt", "version", "deletedAt", "language",
                      "appearance"],
            "profiles": [
                "id", "userId", "dateOfBirth", "sex", "heightCm", "weightKg", "targetWeightKg", "targetDate", "goal",
                "activity", "dietaryPreferences", "allergies", "mealsPerDay", "timeZone", "eatingWindowStartMinute",
                "planStartDate", "deficit", "weightUnit", "heightUnit", "createdAt", "updatedAt", "version", "deletedAt",
                // Added by v2-profile-pending-changes (MigrationProfilePendingChangesTests).
                "planPreviousInputs", "planChangedOn",
                // Added by v7-profile-gender-description (MigrationProfileGenderDescriptionTests).
                "genderDescription",
                // Added by v13-profile-plan-history (issue 17).
                "planEarlierChanges",
            ],
            "meals": [
                "id", "userId", "name", "foodId", "grams", "kcal", "protein", "carbs", "fat", "fiber", "source",
                "loggedAt", "localDate", "createdAt", "updatedAt", "version", "deletedAt",
                // Added by v11-meal-slot (issue 17).
                "slot",
                // Added by v47-deleted-rows-scrub (issue 21 item 8).
                "scrubbedAt",
            ],
            "weights": ["id", "userId", "kg", "loggedAt", "localDate", "createdAt", "updatedAt", "version", "deletedAt",
                        "scrubbedAt"],
            "analytics_events": [
                "id", "userId", "name", "properties", "occurredAt", "createdAt", "updatedAt", "version", "deletedAt",
            ],
        ]
        let actual = try database.writer.read { db in
            try expected.keys.reduce(into: [String: [String]]()) { $0[$1] = try db.columns(in: $1).map(\.name) }
        }
        #expect(actual == expected)
    }

    @Test func indexesTheDayAndVersionLookups() throws {
        let database = try AppDatabase.inMemory()
        let expected: [String: [[String]]] = [
            // v47-deleted-rows-scrub: the tombstones still to scrub, by deletedAt (partial).
            "meals": [["userId", "localDate"], ["userId", "version"], ["deletedAt"]],
            // v3-logged-days widened the day index so "the day's latest entry" is read in index order.
            "weights": [["userId", "localDate", "loggedAt", "version"], ["userId", "version"], ["userId", "loggedAt"], ["deletedAt"]],
            "analytics_events": [["userId", "occurredAt"], ["userId", "version"]],
        ]
        let (plain, unique) = try database.writer.read { db in
            let plain = try expected.keys.reduce(into: [String: Set<[String]>]()) {
                $0[$1] = Set(try db.indexes(on: $1).filter { !$0.isUnique }.map(\.columns))
            }
            let unique = try ["profiles", "users"].reduce(into: [String: Set<[String]>]()) {
                $0[$1] = Set(try db.indexes(on: $1).filter(\.isUnique).map(\.columns))
            }
            return (plain, unique)
        }
        #expect(plain == expected.mapValues(Set.init))
        // One profile per user, one account per email (besides the primary keys' own indexes).
        #expect(unique["profiles"]?.contains(["userId"]) == true)
        #expect(unique["users"]?.contains(["email"]) == true)
    }

    @Test func startsTheChangeCounterAtZero() throws {
        let database = try AppDatabase.inMemory()
        let value = try database.writer.read { db in try Int64.fetchOne(db, sql: "SELECT value FROM syncVersion") }
        #expect(value == 0)
    }

    @Test func migratingTwiceIsANoOp() throws {
        let queue = try DatabaseQueue()
        _ = try AppDatabase(queue)
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO users (id, email, displayName, createdAt, updatedAt, version)
                VALUES ('6f0c2a4e-0000-4000-8000-000000000001', NULL, 'Kept', '2026-03-01T09:00:00.000Z', '2026-03-01T09:00:00.000Z', 1)
                """)
        }
        let schemaBefore = try queue.read { db in try String?.fetchAll(db, sql: "SELECT sql FROM sqlite_master ORDER BY name") }

        _ = try AppDatabase(queue)

        let (schemaAfter, names, applied) = try queue.read { db in
            (
                try String?.fetchAll(db, sql: "SELECT sql FROM sqlite_master ORDER BY name"),
                try String.fetchAll(db, sql: "SELECT displayName FROM users"),
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations WHERE identifier = 'v1-coach'")
            )
        }
        #expect(schemaAfter == schemaBefore)
        #expect(names == ["Kept"])
        #expect(applied == ["v1-coach"])
    }

    @Test(arguments: [
        // A source outside the three the product knows.
        "INSERT INTO meals (id, userId, name, kcal, source, loggedAt, localDate, createdAt, updatedAt, version) VALUES ('m1', 'u1', 'x', 100, 'ocr', 't', '2026-03-01', 't', 't', 2)",
        // Negative calories.
        "INSERT INTO meals (id, userId, name, kcal, source, loggedAt, localDate, createdAt, updatedAt, version) VALUES ('m1', 'u1', 'x', -1, 'manual', 't', '2026-03-01', 't', 't', 2)",
        // A catalog meal without its amount.
        "INSERT INTO meals (id, userId, name, foodId, kcal, source, loggedAt, localDate, createdAt, updatedAt, version) VALUES ('m1', 'u1', 'x', '01001', 100, 'database', 't', '2026-03-01', 't', 't', 2)",
        // A local date that is not YYYY-MM-DD.
        "INSERT INTO weights (id, userId, kg, loggedAt, localDate, createdAt, updatedAt, version) VALUES ('w1', 'u1', 80, 't', '1.3.2026', 't', 't', 2)",
        // Zero kilograms.
        "INSERT INTO weights (id, userId, kg, loggedAt, localDate, createdAt, updatedAt, version) VALUES ('w1', 'u1', 0, 't', '2026-03-01', 't', 't', 2)",
        // Properties that are not a JSON object.
        "INSERT INTO analytics_events (id, userId, name, properties, occurredAt, createdAt, updatedAt, version) VALUES ('e1', 'u1', 'session_start', '[1]', 't', 't', 't', 2)",
    ])
    func checkConstraintsRefuseNonsense(insert: String) throws {
        let database = try AppDatabase.inMemory()
        try database.writer.write { db in
            try db.execute(sql: """
                INSERT INTO users (id, displayName, createdAt, updatedAt, version) VALUES ('u1', 'A', 't', 't', 1)
                """)
        }
        let error = #expect(throws: DatabaseError.self) {
            try database.writer.write { db in try db.execute(sql: insert) }
        }
        #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_CHECK)
    }
}
