import Foundation
import GRDB
import Testing
import WDietCore
@testable import WDietSQLite
import WDietStore
import WDietTestSupport

/// "Changes apply tomorrow" through the SQLite profile store: the store's clock says which local day a save is on.
@Suite struct CoachProfileChangeTests {
    let stores: CoachTestStores

    /// 15:00 in Berlin on 2026-01-20: day 20 of the Fixtures man's plan, a diet day (2,259 kcal losing, 2,759 maintaining).
    init() throws {
        stores = try CoachTestStores(clockStart: Fixtures.utc("2026-01-20T14:00:00Z"))
    }

    static func calories(_ stored: StoredProfile, on date: String) -> Int {
        let day = Fixtures.date(date)
        return Targets.compute(profile: stored.profile(forTargetsOn: day), latestWeightKg: nil, on: day).calories
    }

    @Test func aFirstProfileAppliesAtOnce() async throws {
        let user = try await stores.makeUser()
        let saved = try await stores.profiles.saveProfile(Fixtures.profile(), userId: user, expectedVersion: nil)
        #expect(saved.planChange == nil)
        #expect(Self.calories(saved, on: "2026-01-20") == 2_259)
    }

    @Test func aGoalChangeIsKeptForTomorrowAndReadBack() async throws {
        let user = try await stores.makeUser()
        let first = try await stores.profiles.saveProfile(Fixtures.profile(), userId: user, expectedVersion: nil)
        stores.clock.advance(seconds: 60)
        let saved = try await stores.profiles.saveProfile(Fixtures.profile(goal: .maintain), userId: user, expectedVersion: first.version)

        // The profile page shows what was saved; the targets wait for Berlin's midnight.
        #expect(saved.profile.goal == .maintain)
        #expect(saved.planChange == PlanChange(previous: Fixtures.profile().targetInputs, changedOn: Fixtures.date("2026-01-20")))
        #expect(saved.pendingChange(on: Fixtures.date("2026-01-20"))?.notice(today: Fixtures.date("2026-01-20"))
            == "Your plan will be updated tomorrow at midnight (Wed 21 Jan)")
        #expect(saved.pendingChange(on: Fixtures.date("2026-01-21")) == nil)
        #expect(Self.calories(saved, on: "2026-01-20") == 2_259)
        #expect(Self.calories(saved, on: "2026-01-21") == 2_759)
        #expect(saved.version == first.version + 1)
        #expect(try await stores.profiles.profile(userId: user) == saved)
    }

    @Test func twoEditsInOneDayKeepTheStartOfDayInputs() async throws {
        let user = try await stores.makeUser()
        _ = try await stores.profiles.saveProfile(Fixtures.profile(), userId: user, expectedVersion: nil)
        stores.clock.advance(seconds: 60)
        _ = try await stores.profiles.saveProfile(Fixtures.profile(goal: .maintain), userId: user, expectedVersion: nil)
        stores.clock.advance(seconds: 3 * 3_600) // 18:01 in Berlin
        let saved = try await stores.profiles.saveProfile(Fixtures.profile(goal: .maintain, activity: .very), userId: user, expectedVersion: nil)

        #expect(saved.planChange?.previous == Fixtures.profile().targetInputs)
        #expect(saved.planChange?.changedOn == Fixtures.date("2026-01-20"))
        #expect(Self.calories(saved, on: "2026-01-20") == 2_259)
        #expect(Self.calories(saved, on: "2026-01-21") == 3_071) // 1,780 × 1.725

        // Undoing the day's changes leaves nothing waiting.
        stores.clock.advance(seconds: 3_600)
        let undone = try await stores.profiles.saveProfile(Fixtures.profile(), userId: user, expectedVersion: nil)
        #expect(undone.planChange == nil)
        #expect(try await stores.profiles.profile(userId: user)?.planChange == nil)
    }

    @Test func anEditTheNextDayStartsFromTheChangeThatApplied() async throws {
        let user = try await stores.makeUser()
        _ = try await stores.profiles.saveProfile(Fixtures.profile(), userId: user, expectedVersion: nil)
        _ = try await stores.profiles.saveProfile(Fixtures.profile(goal: .maintain), userId: user, expectedVersion: nil)
        stores.clock.advance(seconds: 86_400)
        let saved = try await stores.profiles.saveProfile(Fixtures.profile(goal: .gain), userId: user, expectedVersion: nil)
        #expect(saved.planChange == PlanChange(previous: Fixtures.profile(goal: .maintain).targetInputs, changedOn: Fixtures.date("2026-01-21")))
        #expect(Self.calories(saved, on: "2026-01-21") == 2_759)
        #expect(Self.calories(saved, on: "2026-01-22") == 3_009)
    }

    /// Kiritimati is UTC+14: its days are not UTC's, and the change waits for its midnight.
    @Test(arguments: [
        // 23:30 on the 20th there: the new plan starts half an hour later, at 10:00 UTC.
        ("2026-01-20T09:30:00Z", "2026-01-20", "2026-01-20T10:00:00Z"),
        // 00:30 on the 21st there, while UTC is on the 20th: a full day's wait.
        ("2026-01-20T10:30:00Z", "2026-01-21", "2026-01-21T10:00:00Z"),
    ])
    func theDayIsTheSavedProfilesLocalDay(savedAt: String, changedOn: String, effectiveAt: String) async throws {
        let user = try await stores.makeUser()
        stores.clock.set(Fixtures.utc("2026-01-19T12:00:00Z"))
        _ = try await stores.profiles.saveProfile(Fixtures.profile(timeZone: "Pacific/Kiritimati"), userId: user, expectedVersion: nil)
        stores.clock.set(Fixtures.utc(savedAt))
        let saved = try await stores.profiles.saveProfile(Fixtures.profile(goal: .maintain, timeZone: "Pacific/Kiritimati"), userId: user, expectedVersion: nil)
        let change = try #require(saved.planChange)
        #expect(change.changedOn == Fixtures.date(changedOn))
        #expect(change.effectiveInstant(in: saved.profile.timeZone) == Fixtures.utc(effectiveAt))
    }

    @Test func aTimeZoneChangeAppliesAtOnce() async throws {
        let user = try await stores.makeUser()
        _ = try await stores.profiles.saveProfile(Fixtures.profile(), userId: user, expectedVersion: nil)
        let saved = try await stores.profiles.saveProfile(Fixtures.profile(timeZone: "America/New_York"), userId: user, expectedVersion: nil)
        #expect(saved.planChange == nil)
        #expect(saved.profile.timeZoneIdentifier == "America/New_York")
    }

    @Test func anIdenticalSaveKeepsTheVersionAndTheWaitingChange() async throws {
        let user = try await stores.makeUser()
        _ = try await stores.profiles.saveProfile(Fixtures.profile(), userId: user, expectedVersion: nil)
        let changed = try await stores.profiles.saveProfile(Fixtures.profile(goal: .maintain), userId: user, expectedVersion: nil)
        stores.clock.advance(seconds: 30)
        #expect(try await stores.profiles.saveProfile(Fixtures.profile(goal: .maintain), userId: user, expectedVersion: changed.version) == changed)
        // A retry the next day is no change either, though the change has applied meanwhile.
        stores.clock.advance(seconds: 86_400)
        #expect(try await stores.profiles.saveProfile(Fixtures.profile(goal: .maintain), userId: user, expectedVersion: changed.version) == changed)
    }

    /// Every target input away from the Fixtures defaults, with fractions, so a field not stored or read back shows.
    @Test func theWaitingInputsRoundTripExactly() async throws {
        let user = try await stores.makeUser()
        let full = CoachProfileStoreTests.fullProfile
        _ = try await stores.profiles.saveProfile(full, userId: user, expectedVersion: nil)
        var edited = full
        edited.heightCm = 170.2
        edited.weightKg = 71.9
        let saved = try await stores.profiles.saveProfile(edited, userId: user, expectedVersion: nil)
        let read = try #require(try await stores.profiles.profile(userId: user))
        #expect(read.planChange?.previous == full.targetInputs)
        #expect(read == saved)
    }

    /// The keys are history: the stored text is what a later version of the app must still read.
    @Test func theWaitingInputsAreStoredAsAJSONObjectAndALocalDate() async throws {
        let user = try await stores.makeUser()
        _ = try await stores.profiles.saveProfile(Fixtures.profile(), userId: user, expectedVersion: nil)
        _ = try await stores.profiles.saveProfile(Fixtures.profile(goal: .maintain), userId: user, expectedVersion: nil)
        let row = try await stores.database.writer.read { db in
            try Row.fetchOne(db, sql: "SELECT planPreviousInputs, planChangedOn FROM profiles")
        }
        #expect(row?["planPreviousInputs"] as String? == """
            {"activity":"moderate","dateOfBirth":"1995-06-15","deficit":"minus500","goal":"lose","heightCm":180,\
            "planStartDate":"2026-01-01","sex":"male","weightKg":80}
            """)
        #expect(row?["planChangedOn"] as String? == "2026-01-20")
    }

    @Test func aProfileSavedOverADeletedOneAppliesAtOnce() async throws {
        let user = try await stores.makeUser()
        let first = try await stores.profiles.saveProfile(Fixtures.profile(), userId: user, expectedVersion: nil)
        try await stores.database.writer.write { db in
            _ = try ProfileRecord.tombstone(userId: WireFormat.idText(user), id: try #require(try ProfileRecord.fetchOne(db)?.id), in: db, now: "2026-01-20T14:00:00.000Z")
        }
        #expect(try await stores.profiles.profile(userId: user) == nil)
        let restored = try await stores.profiles.saveProfile(Fixtures.profile(goal: .maintain), userId: user, expectedVersion: nil)
        #expect(restored.planChange == nil)
        #expect(restored.version > first.version)
        #expect(Self.calories(restored, on: "2026-01-20") == 2_759)
    }
}

@Suite struct MigrationProfilePendingChangesTests {
    static let userId = "6f0c2a4e-0000-4000-8000-000000000001"

    /// A database as v1-coach left it, with one user and their profile.
    static func v1DatabaseWithAProfile() throws -> DatabaseQueue {
        var config = Configuration()
        config.foreignKeysEnabled = true
        let queue = try DatabaseQueue(configuration: config)
        try AppDatabase.migrator.migrate(queue, upTo: "v1-coach")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO users (id, displayName, createdAt, updatedAt, version)
                VALUES ('\(userId)', 'Kept', '2026-01-01T09:00:00.000Z', '2026-01-01T09:00:00.000Z', 1);
                INSERT INTO profiles (id, userId, dateOfBirth, sex, heightCm, weightKg, goal, activity, dietaryPreferences,
                    allergies, mealsPerDay, timeZone, eatingWindowStartMinute, planStartDate, deficit, weightUnit, heightUnit,
                    createdAt, updatedAt, version)
                VALUES ('p1', '\(userId)', '1995-06-15', 'male', 180, 80, 'lose', 'moderate', '[]', '[]', 3, 'Europe/Berlin',
                    720, '2026-01-01', 'minus500', 'kg', 'cm', '2026-01-01T09:00:00.000Z', '2026-01-01T09:00:00.000Z', 2);
                UPDATE syncVersion SET value = 2;
                """)
        }
        return queue
    }

    @Test func addsTheTwoColumnsToProfiles() throws {
        let database = try AppDatabase.inMemory()
        let (columns, applied) = try database.writer.read { db in
            (
                // genderDescription and planEarlierChanges came later (v7-profile-gender-description, v13-profile-plan-history).
                try db.columns(in: "profiles").map(\.name).filter { $0 != "genderDescription" && $0 != "planEarlierChanges" }.suffix(2),
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations WHERE identifier = 'v2-profile-pending-changes'")
            )
        }
        #expect(Array(columns) == ["planPreviousInputs", "planChangedOn"])
        #expect(applied == ["v2-profile-pending-changes"])
    }

    @Test func aProfileFromBeforeTheMigrationHasNothingWaitingAndCanChange() async throws {
        let queue = try Self.v1DatabaseWithAProfile()
        let database = try AppDatabase(queue)
        let store = SQLiteProfileStore(database: database, now: { Fixtures.utc("2026-01-20T14:00:00Z") })
        let user = try #require(UUID(uuidString: Self.userId))

        let before = try #require(try await store.profile(userId: user))
        #expect(before.profile == Fixtures.profile())
        #expect(before.planChange == nil)
        #expect(before.version == 2)

        let after = try await store.saveProfile(Fixtures.profile(goal: .maintain), userId: user, expectedVersion: 2)
        #expect(after.planChange == PlanChange(previous: Fixtures.profile().targetInputs, changedOn: Fixtures.date("2026-01-20")))
        #expect(after.version == 3)
    }

    @Test(arguments: [
        // A day without the inputs it kept.
        "UPDATE profiles SET planChangedOn = '2026-01-20'",
        // Inputs without their day.
        #"UPDATE profiles SET planPreviousInputs = '{"goal":"lose"}'"#,
        // Inputs that are not a JSON object.
        "UPDATE profiles SET planPreviousInputs = '[1]', planChangedOn = '2026-01-20'",
        // A day that is not YYYY-MM-DD.
        #"UPDATE profiles SET planPreviousInputs = '{"goal":"lose"}', planChangedOn = '20.1.2026'"#,
    ])
    func checkConstraintsRefuseNonsense(update: String) throws {
        let queue = try Self.v1DatabaseWithAProfile()
        _ = try AppDatabase(queue)
        let error = #expect(throws: DatabaseError.self) {
            try queue.write { db in try db.execute(sql: update) }
        }
        #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_CHECK)
    }
}
