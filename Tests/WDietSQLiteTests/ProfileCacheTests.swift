import Foundation
import GRDB
import Testing
import WDietCore
import WDietSQLite
import WDietStore
import WDietTestSupport

/// The kept profiles (`SQLiteProfileStore.profile(userId:)`) must never outlive a write to the profile, whichever
/// code commits it, and must outlive the meal saves that read them.
@Suite("Profile cache and the profile generations behind it")
struct ProfileCacheTests {
    static let noon = Fixtures.utc("2026-03-01T11:00:00Z")

    static func userWithProfile(_ stores: CoachTestStores, zone: String = "Europe/Berlin") async throws -> UUID {
        let user = try await stores.makeUser()
        _ = try await stores.profiles.saveProfile(Fixtures.profile(timeZone: zone), userId: user, expectedVersion: nil)
        return user
    }

    /// Writes around the stores, as a migration or another tool would.
    static func executeRaw(_ stores: CoachTestStores, _ sql: String, _ arguments: StatementArguments) async throws {
        try await stores.database.writer.write { db in try db.execute(sql: sql, arguments: arguments) }
    }

    @Test("a meal save moves the user's data generation and leaves the profile's; a profile save moves both")
    func mealSavesKeepTheProfileGeneration() async throws {
        let stores = try CoachTestStores()
        let user = try await Self.userWithProfile(stores)
        let changes = stores.database.userDataChanges
        let key = user.uuidString.lowercased()
        let (data, profile) = (changes.generation(ofUser: key), changes.profileGeneration(ofUser: key))

        _ = try await stores.meals.saveMeal(Meal(name: "Lunch", kcal: 700, loggedAt: Self.noon), userId: user, timeZone: .gmt)
        #expect(changes.generation(ofUser: key) == data + 1)
        #expect(changes.profileGeneration(ofUser: key) == profile)

        _ = try await stores.profiles.saveProfile(
            Fixtures.profile(timeZone: "America/New_York"), userId: user, expectedVersion: nil)
        #expect(changes.generation(ofUser: key) == data + 2)
        #expect(changes.profileGeneration(ofUser: key) == profile + 1)
    }

    @Test("SQL that bypasses the store is seen at the next read: Berlin, then Tokyo; deleted, then none")
    func rawWritesAreSeen() async throws {
        let stores = try CoachTestStores()
        let user = try await Self.userWithProfile(stores)
        let other = try await Self.userWithProfile(stores, zone: "America/New_York")
        let key = user.uuidString.lowercased()
        #expect(try await stores.profiles.profile(userId: user)?.profile.timeZoneIdentifier == "Europe/Berlin")
        #expect(try await stores.profiles.profile(userId: other)?.profile.timeZoneIdentifier == "America/New_York")

        try await Self.executeRaw(stores, "UPDATE profiles SET timeZone = 'Asia/Tokyo' WHERE userId = ?", [key])
        #expect(try await stores.profiles.profile(userId: user)?.profile.timeZoneIdentifier == "Asia/Tokyo")
        // Only that user's entry went stale.
        #expect(try await stores.profiles.profile(userId: other)?.profile.timeZoneIdentifier == "America/New_York")

        try await Self.executeRaw(stores, "UPDATE profiles SET deletedAt = '2026-03-01T12:00:00.000Z' WHERE userId = ?", [key])
        #expect(try await stores.profiles.profile(userId: user) == nil)
    }

    @Test("a rolled-back profile write keeps the kept profile, which still says what the database says")
    func rollbacksKeepTheEntry() async throws {
        let stores = try CoachTestStores()
        let user = try await Self.userWithProfile(stores)
        let key = user.uuidString.lowercased()
        let before = stores.database.userDataChanges.profileGeneration(ofUser: key)
        let kept = try #require(try await stores.profiles.profile(userId: user)?.profile.mealsPerDay)

        struct Abandon: Error {}
        await #expect(throws: Abandon.self) {
            try await stores.database.writer.write { db in
                try db.execute(sql: "UPDATE profiles SET mealsPerDay = ? WHERE userId = ?", arguments: [kept + 1, key])
                throw Abandon()
            }
        }
        #expect(stores.database.userDataChanges.profileGeneration(ofUser: key) == before)
        #expect(try await stores.profiles.profile(userId: user)?.profile.mealsPerDay == kept)
    }

    @Test("deleting the user (its profile goes by cascade) leaves no profile behind")
    func cascadeDelete() async throws {
        let stores = try CoachTestStores()
        let user = try await Self.userWithProfile(stores)
        let key = user.uuidString.lowercased()
        #expect(try await stores.profiles.profile(userId: user) != nil)
        try await Self.executeRaw(stores, "DELETE FROM users WHERE id = ?", [key])
        #expect(try await stores.profiles.profile(userId: user) == nil)
    }

    @Test("a user without a profile gets one as soon as it is saved")
    // A missing profile is not kept; that cannot be seen from outside (any profile write moves the generation), so
    // this pins what a user sees: the miss does not hide the profile saved after it.
    func aMissDoesNotHideALaterSave() async throws {
        let stores = try CoachTestStores()
        let user = try await stores.makeUser()
        #expect(try await stores.profiles.profile(userId: user) == nil)
        _ = try await stores.profiles.saveProfile(Fixtures.profile(timeZone: "Europe/Berlin"), userId: user, expectedVersion: nil)
        #expect(try await stores.profiles.profile(userId: user)?.profile.timeZoneIdentifier == "Europe/Berlin")
    }
}
