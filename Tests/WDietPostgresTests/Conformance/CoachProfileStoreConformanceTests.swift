import Foundation
import GRDB
import PostgresNIO
import Testing
import WDietCore
import WDietSQLite
import WDietStore
import WDietTestSupport

/// `ProfileStore` on every backend, including "changes apply tomorrow" with the store's clock.
@Suite struct CoachProfileStoreConformanceTests {
    /// Every field away from its default, so a column that is not stored or read back shows.
    static let fullProfile = Profile(
        dateOfBirth: Fixtures.date("1990-02-28"), sex: .female, heightCm: 168.5, weightKg: 72.3,
        targetWeightKg: 65, targetDate: Fixtures.date("2026-09-30"), goal: .lose, activity: .light,
        dietaryPreferences: ["Vegetarian", "Low lactose"], allergies: ["Peanuts"], mealsPerDay: 4,
        timeZoneIdentifier: "Pacific/Kiritimati", eatingWindow: EatingWindow(startMinute: 13 * 60 + 30) ?? .default,
        planStartDate: Fixtures.date("2026-03-02"), deficit: .studyProtocol, weightUnit: .lb, heightUnit: .ftIn
    )

    /// 15:00 in Berlin on 2026-01-20: day 20 of the Fixtures man's plan, a diet day (2,259 kcal losing, 2,759 maintaining).
    static let changeDay = Fixtures.utc("2026-01-20T14:00:00Z")

    static func calories(_ stored: StoredProfile, on date: String) -> Int {
        let day = Fixtures.date(date)
        return Targets.compute(profile: stored.profile(forTargetsOn: day), latestWeightKg: nil, on: day).calories
    }

    @Test(arguments: StoreBackend.allCases)
    func savesEveryFieldAndReadsItBack(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            #expect(try await stores.profiles.profile(userId: user) == nil)

            let saved = try await stores.profiles.saveProfile(Self.fullProfile, userId: user, expectedVersion: nil)

            #expect(saved.profile == Self.fullProfile)
            #expect(saved.planChange == nil)
            #expect(saved.userId == user)
            #expect(saved.version == 2)
            #expect(saved.createdAt == Fixtures.utc("2026-03-01T09:00:00Z"))
            #expect(try await stores.profiles.profile(userId: user) == saved)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aSaveFromAStaleVersionIsAConflict(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let first = try await stores.profiles.saveProfile(Fixtures.profile(), userId: user, expectedVersion: nil)
            stores.clock.advance(seconds: 30)
            let phone = try await stores.profiles.saveProfile(Fixtures.profile(weightKg: 79), userId: user, expectedVersion: first.version)
            #expect(phone.version == 3)
            #expect(phone.createdAt == first.createdAt)
            #expect(phone.updatedAt == Fixtures.utc("2026-03-01T09:00:30Z"))

            // The laptop still holds the first version.
            await #expect(throws: StoreError.conflict("Your profile was changed on another device")) {
                try await stores.profiles.saveProfile(Fixtures.profile(weightKg: 81), userId: user, expectedVersion: first.version)
            }
            #expect(try await stores.profiles.profile(userId: user)?.profile.weightKg == 79)

            // "Keep mine" writes unconditionally.
            let kept = try await stores.profiles.saveProfile(Fixtures.profile(weightKg: 81), userId: user, expectedVersion: nil)
            #expect(kept.version == 4)
            #expect(kept.profile.weightKg == 81)
            await #expect(throws: StoreError.conflict("Your profile was changed on another device")) {
                try await stores.profiles.saveProfile(Fixtures.profile(), userId: try await stores.makeUser(), expectedVersion: 5)
            }
        }
    }

    @Test(arguments: StoreBackend.allCases, [
        (Fixtures.profile(timeZone: "Mars/Olympus_Mons"), "Please select a valid time zone"),
        (Fixtures.profile(heightCm: 49), "Height must be at least 50 cm (1'8\")"),
        (Fixtures.profile(weightKg: 501), "Weight must be less than 500 kg (1102 lbs)"),
        (Fixtures.profile(heightCm: .nan), "Please enter a valid number"),
        (described("Non-binary", sex: .male), "A gender description can only be added for Other"),
        (described(String(repeating: "x", count: 21)), "Gender description must be 20 characters or fewer"),
        (described(" Agender"), "Please check the gender description"),
        (described(""), "Please check the gender description"),
    ])
    func refusesProfilesTheFormWouldRefuse(backend: StoreBackend, refused: (Profile, String)) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            await #expect(throws: StoreError.invalid(refused.1)) {
                try await stores.profiles.saveProfile(refused.0, userId: user, expectedVersion: nil)
            }
            #expect(try await stores.profiles.profile(userId: user) == nil)
        }
    }

    static func described(_ description: String, sex: Sex = .other) -> Profile {
        var profile = Fixtures.profile(sex: sex)
        profile.genderDescription = description
        return profile
    }

    /// 001 §3 "Custom entry allowed for 'Other' (max 20 chars)": stored, read back, cleared with another option,
    /// and never part of the targets (so it never waits for midnight and never moves a number).
    @Test(arguments: StoreBackend.allCases)
    func aGenderDescriptionRoundTripsAndNeverTouchesTheTargets(backend: StoreBackend) async throws {
        try await backend.withCoachStores(clockStart: Self.changeDay) { stores in
            let user = try await stores.makeUser()
            let other = try await stores.profiles.saveProfile(Fixtures.profile(sex: .other), userId: user, expectedVersion: nil)
            // Twenty characters as a person sees them: the trans flag is one, though it is five code points.
            let twenty = String(repeating: "a", count: 18) + " 🏳️‍⚧️"
            #expect(twenty.count == 20 && twenty.unicodeScalars.count == 24)

            stores.clock.advance(seconds: 60)
            let described = try await stores.profiles.saveProfile(
                Self.described(twenty), userId: user, expectedVersion: other.version)
            #expect(described.profile.genderDescription == twenty)
            #expect(described.version == other.version + 1)
            #expect(described.planChange == nil, "only words changed: nothing waits for midnight")
            #expect(Self.calories(described, on: "2026-01-21") == Self.calories(other, on: "2026-01-21"))
            #expect(try await stores.profiles.profile(userId: user)?.profile.genderDescription == twenty)

            // Choosing another option clears it (the form and the API send none with it).
            var female = Fixtures.profile(sex: .female)
            female.genderDescription = nil
            let changed = try await stores.profiles.saveProfile(female, userId: user, expectedVersion: described.version)
            #expect(try await stores.profiles.profile(userId: user)?.profile.genderDescription == nil)
            #expect(changed.planChange != nil, "the sex itself is a target input")
        }
    }

    /// Below the store's checks, each schema's CHECK keeps a description non-empty and beside "other" only, so no
    /// write path (an import, a future sync) can leave words behind a change to Male or Female.
    @Test(arguments: StoreBackend.allCases, [
        ("sex", "male"),          // the words stay, the option changes
        ("description", ""),      // none is NULL, never ""
    ])
    func theSchemaRefusesADescriptionBesideAnotherOption(backend: StoreBackend, change: (String, String)) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            _ = try await stores.profiles.saveProfile(Self.described("Agender"), userId: user, expectedVersion: nil)
            let refused: Bool
            switch stores.database {
            case .sqlite(let database):
                let sql = change.0 == "sex" ? "UPDATE profiles SET sex = ?" : "UPDATE profiles SET genderDescription = ?"
                do {
                    try await database.writer.write { db in try db.execute(sql: sql, arguments: [change.1]) }
                    refused = false
                } catch let error as DatabaseError {
                    refused = error.extendedResultCode == .SQLITE_CONSTRAINT_CHECK
                }
            case .postgres(let client):
                do {
                    if change.0 == "sex" {
                        try await client.query("UPDATE profiles SET sex = \(change.1)")
                    } else {
                        try await client.query("UPDATE profiles SET gender_description = \(change.1)")
                    }
                    refused = false
                } catch let error as PSQLError {
                    refused = error.serverInfo?[.sqlState] == "23514"   // check_violation
                }
            }
            #expect(refused)
            #expect(try await stores.profiles.profile(userId: user)?.profile.genderDescription == "Agender")
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aProfileForAnUnknownUserIsNotFound(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            await #expect(throws: StoreError.notFound("User not found")) {
                try await stores.profiles.saveProfile(Fixtures.profile(), userId: UUID(), expectedVersion: nil)
            }
        }
    }

    // MARK: Changes apply tomorrow

    @Test(arguments: StoreBackend.allCases)
    func aGoalChangeIsKeptForTomorrowAndReadBack(backend: StoreBackend) async throws {
        try await backend.withCoachStores(clockStart: Self.changeDay) { stores in
            let user = try await stores.makeUser()
            let first = try await stores.profiles.saveProfile(Fixtures.profile(), userId: user, expectedVersion: nil)
            #expect(first.planChange == nil)
            #expect(Self.calories(first, on: "2026-01-20") == 2_259)
            stores.clock.advance(seconds: 60)
            let saved = try await stores.profiles.saveProfile(Fixtures.profile(goal: .maintain), userId: user, expectedVersion: first.version)

            #expect(saved.profile.goal == .maintain)
            #expect(saved.planChange == PlanChange(previous: Fixtures.profile().targetInputs, changedOn: Fixtures.date("2026-01-20")))
            #expect(saved.pendingChange(on: Fixtures.date("2026-01-20"))?.notice(today: Fixtures.date("2026-01-20"))
                == "Your plan will be updated tomorrow at midnight (Wed 21 Jan)")
            #expect(Self.calories(saved, on: "2026-01-20") == 2_259)
            #expect(Self.calories(saved, on: "2026-01-21") == 2_759)
            #expect(saved.version == first.version + 1)
            #expect(try await stores.profiles.profile(userId: user) == saved)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func twoEditsInOneDayKeepTheStartOfDayInputsAndUndoingCancels(backend: StoreBackend) async throws {
        try await backend.withCoachStores(clockStart: Self.changeDay) { stores in
            let user = try await stores.makeUser()
            _ = try await stores.profiles.saveProfile(Fixtures.profile(), userId: user, expectedVersion: nil)
            stores.clock.advance(seconds: 60)
            _ = try await stores.profiles.saveProfile(Fixtures.profile(goal: .maintain), userId: user, expectedVersion: nil)
            stores.clock.advance(seconds: 3 * 3_600)  // 18:01 in Berlin
            let saved = try await stores.profiles.saveProfile(
                Fixtures.profile(goal: .maintain, activity: .very), userId: user, expectedVersion: nil)

            #expect(saved.planChange == PlanChange(previous: Fixtures.profile().targetInputs, changedOn: Fixtures.date("2026-01-20")))
            #expect(Self.calories(saved, on: "2026-01-20") == 2_259)
            #expect(Self.calories(saved, on: "2026-01-21") == 3_071)  // 1,780 × 1.725

            stores.clock.advance(seconds: 3_600)
            let undone = try await stores.profiles.saveProfile(Fixtures.profile(), userId: user, expectedVersion: nil)
            #expect(undone.planChange == nil)
            #expect(try await stores.profiles.profile(userId: user)?.planChange == nil)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func anEditTheNextDayStartsFromTheChangeThatApplied(backend: StoreBackend) async throws {
        try await backend.withCoachStores(clockStart: Self.changeDay) { stores in
            let user = try await stores.makeUser()
            _ = try await stores.profiles.saveProfile(Fixtures.profile(), userId: user, expectedVersion: nil)
            _ = try await stores.profiles.saveProfile(Fixtures.profile(goal: .maintain), userId: user, expectedVersion: nil)
            stores.clock.advance(seconds: 86_400)
            let saved = try await stores.profiles.saveProfile(Fixtures.profile(goal: .gain), userId: user, expectedVersion: nil)
            #expect(saved.planChange == PlanChange(previous: Fixtures.profile(goal: .maintain).targetInputs, changedOn: Fixtures.date("2026-01-21")))
            #expect(Self.calories(saved, on: "2026-01-21") == 2_759)
            #expect(Self.calories(saved, on: "2026-01-22") == 3_009)
        }
    }

    /// Kiritimati is UTC+14: its days are not UTC's, and the change waits for its midnight.
    @Test(arguments: StoreBackend.allCases, [
        // 23:30 on the 20th there: the new plan starts half an hour later, at 10:00 UTC.
        ("2026-01-20T09:30:00Z", "2026-01-20", "2026-01-20T10:00:00Z"),
        // 00:30 on the 21st there, while UTC is on the 20th: a full day's wait.
        ("2026-01-20T10:30:00Z", "2026-01-21", "2026-01-21T10:00:00Z"),
    ])
    func theDayIsTheSavedProfilesLocalDay(backend: StoreBackend, times: (String, String, String)) async throws {
        let (savedAt, changedOn, effectiveAt) = times
        try await backend.withCoachStores(clockStart: Fixtures.utc("2026-01-19T12:00:00Z")) { stores in
            let user = try await stores.makeUser()
            _ = try await stores.profiles.saveProfile(Fixtures.profile(timeZone: "Pacific/Kiritimati"), userId: user, expectedVersion: nil)
            stores.clock.set(Fixtures.utc(savedAt))
            let saved = try await stores.profiles.saveProfile(
                Fixtures.profile(goal: .maintain, timeZone: "Pacific/Kiritimati"), userId: user, expectedVersion: nil)
            let change = try #require(saved.planChange)
            #expect(change.changedOn == Fixtures.date(changedOn))
            #expect(change.effectiveInstant(in: saved.profile.timeZone) == Fixtures.utc(effectiveAt))
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aTimeZoneChangeAppliesAtOnce(backend: StoreBackend) async throws {
        try await backend.withCoachStores(clockStart: Self.changeDay) { stores in
            let user = try await stores.makeUser()
            _ = try await stores.profiles.saveProfile(Fixtures.profile(), userId: user, expectedVersion: nil)
            let saved = try await stores.profiles.saveProfile(Fixtures.profile(timeZone: "America/New_York"), userId: user, expectedVersion: nil)
            #expect(saved.planChange == nil)
            #expect(saved.profile.timeZoneIdentifier == "America/New_York")
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func anIdenticalSaveKeepsTheVersionAndTheWaitingChange(backend: StoreBackend) async throws {
        try await backend.withCoachStores(clockStart: Self.changeDay) { stores in
            let user = try await stores.makeUser()
            _ = try await stores.profiles.saveProfile(Fixtures.profile(), userId: user, expectedVersion: nil)
            let changed = try await stores.profiles.saveProfile(Fixtures.profile(goal: .maintain), userId: user, expectedVersion: nil)
            stores.clock.advance(seconds: 30)
            #expect(try await stores.profiles.saveProfile(Fixtures.profile(goal: .maintain), userId: user, expectedVersion: changed.version) == changed)
            // A retry the next day is no change either, though the change has applied meanwhile.
            stores.clock.advance(seconds: 86_400)
            #expect(try await stores.profiles.saveProfile(Fixtures.profile(goal: .maintain), userId: user, expectedVersion: changed.version) == changed)
        }
    }

    /// Every target input away from the Fixtures defaults, with fractions, so a field not stored or read back shows.
    @Test(arguments: StoreBackend.allCases)
    func theWaitingInputsRoundTripExactly(backend: StoreBackend) async throws {
        try await backend.withCoachStores(clockStart: Self.changeDay) { stores in
            let user = try await stores.makeUser()
            _ = try await stores.profiles.saveProfile(Self.fullProfile, userId: user, expectedVersion: nil)
            var edited = Self.fullProfile
            edited.heightCm = 170.2
            edited.weightKg = 71.9
            let saved = try await stores.profiles.saveProfile(edited, userId: user, expectedVersion: nil)
            let read = try #require(try await stores.profiles.profile(userId: user))
            #expect(read.planChange?.previous == Self.fullProfile.targetInputs)
            #expect(read == saved)
        }
    }
}

/// `UserStore` on every backend.
@Suite struct CoachUserStoreConformanceTests {
    @Test(arguments: StoreBackend.allCases)
    func createsAndFindsUsersByIdAndByEmailIgnoringCase(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let id = UUID()
            let created = try await stores.users.createUser(id: id, email: "Ada@Example.org", displayName: "Ada")

            #expect(created == User(
                id: id, email: "Ada@Example.org", displayName: "Ada",
                createdAt: Fixtures.utc("2026-03-01T09:00:00Z"), updatedAt: Fixtures.utc("2026-03-01T09:00:00Z"), version: 1
            ))
            #expect(try await stores.users.user(id: id) == created)
            #expect(try await stores.users.user(email: "ada@example.ORG") == created)
            #expect(try await stores.users.user(email: "bob@example.org") == nil)
            #expect(try await stores.users.user(id: UUID()) == nil)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func refusesATakenEmailOrIdAndGuestsNeedNoEmail(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let id = UUID()
            _ = try await stores.users.createUser(id: id, email: "ada@example.org", displayName: "Ada")

            await #expect(throws: StoreError.conflict("An account with this email already exists")) {
                try await stores.users.createUser(id: UUID(), email: "ADA@example.org", displayName: "Other")
            }
            await #expect(throws: StoreError.conflict("This account already exists")) {
                try await stores.users.createUser(id: id, email: nil, displayName: "Again")
            }
            let first = try await stores.users.createUser(id: UUID(), email: nil, displayName: "")
            let second = try await stores.users.createUser(id: UUID(), email: nil, displayName: "")
            #expect(first.id != second.id)
            #expect(try await stores.users.user(id: second.id) == second)
        }
    }
}
