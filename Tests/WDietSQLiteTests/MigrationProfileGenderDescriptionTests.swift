import Foundation
import GRDB
import Testing
import WDietCore
@testable import WDietSQLite
import WDietStore
import WDietTestSupport

/// v7-profile-gender-description on a database made before it: profiles keep their rows and read back with no
/// description, and the column's CHECK keeps a description beside "other" only.
@Suite struct MigrationProfileGenderDescriptionTests {
    static let userId = "6f0c2a4e-0000-4000-8000-000000000007"

    /// A database as the migrations before v7 left it, with one user whose profile says "other".
    static func databaseBeforeV7() throws -> DatabaseQueue {
        var config = Configuration()
        config.foreignKeysEnabled = true
        let queue = try DatabaseQueue(configuration: config)
        try AppDatabase.migrator.migrate(queue, upTo: "v6-sign-in-throttle-and-identities")
        try queue.write { db in
            #expect(try !db.columns(in: "profiles").map(\.name).contains("genderDescription"))
            try db.execute(sql: """
                INSERT INTO users (id, displayName, createdAt, updatedAt, version)
                VALUES ('\(userId)', 'Kept', '2026-01-01T09:00:00.000Z', '2026-01-01T09:00:00.000Z', 1);
                INSERT INTO profiles (id, userId, dateOfBirth, sex, heightCm, weightKg, goal, activity, dietaryPreferences,
                    allergies, mealsPerDay, timeZone, eatingWindowStartMinute, planStartDate, deficit, weightUnit, heightUnit,
                    createdAt, updatedAt, version)
                VALUES ('p1', '\(userId)', '1995-06-15', 'other', 180, 80, 'lose', 'moderate', '[]', '[]', 3, 'Europe/Berlin',
                    720, '2026-01-01', 'minus500', 'kg', 'cm', '2026-01-01T09:00:00.000Z', '2026-01-01T09:00:00.000Z', 2);
                UPDATE syncVersion SET value = 2;
                """)
        }
        return queue
    }

    @Test func aProfileFromBeforeTheMigrationHasNoDescriptionAndCanGetOne() async throws {
        let queue = try Self.databaseBeforeV7()
        let database = try AppDatabase(queue)
        let store = SQLiteProfileStore(database: database, now: { Fixtures.utc("2026-01-20T14:00:00Z") })
        let user = try #require(UUID(uuidString: Self.userId))

        let before = try #require(try await store.profile(userId: user))
        #expect(before.profile == Fixtures.profile(sex: .other))
        #expect(before.profile.genderDescription == nil)

        var described = Fixtures.profile(sex: .other)
        described.genderDescription = "Demigirl"
        let after = try await store.saveProfile(described, userId: user, expectedVersion: 2)
        #expect(after.version == 3)
        #expect(try await store.profile(userId: user)?.profile.genderDescription == "Demigirl")
    }

    @Test(arguments: [
        // A description beside another option.
        "UPDATE profiles SET sex = 'male', genderDescription = 'Demigirl'",
        // An empty description (none is NULL).
        "UPDATE profiles SET genderDescription = ''",
    ])
    func checkConstraintsRefuseNonsense(update: String) throws {
        let queue = try Self.databaseBeforeV7()
        _ = try AppDatabase(queue)
        let error = #expect(throws: DatabaseError.self) {
            try queue.write { db in try db.execute(sql: update) }
        }
        #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_CHECK)
    }

    @Test func choosingAnotherOptionWithTheDescriptionLeftIsRefusedByTheDatabaseToo() throws {
        let queue = try Self.databaseBeforeV7()
        _ = try AppDatabase(queue)
        try queue.write { db in try db.execute(sql: "UPDATE profiles SET genderDescription = 'Demigirl'") }
        #expect(throws: DatabaseError.self) {
            try queue.write { db in try db.execute(sql: "UPDATE profiles SET sex = 'female'") }
        }
    }
}
