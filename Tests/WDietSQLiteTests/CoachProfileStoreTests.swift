import Foundation
import Testing
import WDietCore
import WDietStore
import WDietTestSupport

@Suite struct CoachProfileStoreTests {
    let stores: CoachTestStores

    init() throws {
        stores = try CoachTestStores()
    }

    /// Every field away from its default, so a column that is not stored or read back shows.
    static let fullProfile = Profile(
        dateOfBirth: Fixtures.date("1990-02-28"), sex: .female, heightCm: 168.5, weightKg: 72.3,
        targetWeightKg: 65, targetDate: Fixtures.date("2026-09-30"), goal: .lose, activity: .light,
        dietaryPreferences: ["Vegetarian", "Low lactose"], allergies: ["Peanuts"], mealsPerDay: 4,
        timeZoneIdentifier: "Pacific/Kiritimati", eatingWindow: EatingWindow(startMinute: 13 * 60 + 30) ?? .default,
        planStartDate: Fixtures.date("2026-03-02"), deficit: .studyProtocol, weightUnit: .lb, heightUnit: .ftIn
    )

    @Test func savesEveryFieldAndReadsItBack() async throws {
        let user = try await stores.makeUser()
        #expect(try await stores.profiles.profile(userId: user) == nil)

        let saved = try await stores.profiles.saveProfile(Self.fullProfile, userId: user, expectedVersion: nil)

        #expect(saved.profile == Self.fullProfile)
        #expect(saved.userId == user)
        #expect(saved.version == 2)
        #expect(try await stores.profiles.profile(userId: user) == saved)
    }

    @Test func aSaveFromAStaleVersionIsAConflict() async throws {
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
    }

    @Test func expectingAVersionOfAProfileThatDoesNotExistIsAConflict() async throws {
        let user = try await stores.makeUser()
        await #expect(throws: StoreError.conflict("Your profile was changed on another device")) {
            try await stores.profiles.saveProfile(Fixtures.profile(), userId: user, expectedVersion: 5)
        }
    }

    @Test func anIdenticalSaveKeepsTheVersion() async throws {
        let user = try await stores.makeUser()
        let first = try await stores.profiles.saveProfile(Fixtures.profile(), userId: user, expectedVersion: nil)
        stores.clock.advance(seconds: 30)
        #expect(try await stores.profiles.saveProfile(Fixtures.profile(), userId: user, expectedVersion: first.version) == first)
    }

    @Test(arguments: [
        (Fixtures.profile(timeZone: "Mars/Olympus_Mons"), "Please select a valid time zone"),
        (Fixtures.profile(heightCm: 49), "Height must be at least 50 cm (1'8\")"),
        (Fixtures.profile(weightKg: 501), "Weight must be less than 500 kg (1102 lbs)"),
        (Fixtures.profile(heightCm: .nan), "Please enter a valid number"),
    ])
    func refusesProfilesTheFormWouldRefuse(profile: Profile, message: String) async throws {
        let user = try await stores.makeUser()
        await #expect(throws: StoreError.invalid(message)) {
            try await stores.profiles.saveProfile(profile, userId: user, expectedVersion: nil)
        }
        #expect(try await stores.profiles.profile(userId: user) == nil)
    }

    /// A profile is stored after its target date has passed: "today" rules belong to the form.
    @Test func keepsAProfileWhoseTargetDateHasPassed() async throws {
        let user = try await stores.makeUser()
        var profile = Fixtures.profile(planStart: "2026-03-01")
        profile.targetDate = Fixtures.date("2026-02-01")
        #expect(try await stores.profiles.saveProfile(profile, userId: user, expectedVersion: nil).profile.targetDate == profile.targetDate)
    }

    @Test func aProfileForAnUnknownUserIsNotFound() async throws {
        await #expect(throws: StoreError.notFound("User not found")) {
            try await stores.profiles.saveProfile(Fixtures.profile(), userId: UUID(), expectedVersion: nil)
        }
    }
}

@Suite struct CoachUserStoreTests {
    @Test func createsAndFindsUsersByIdAndByEmailIgnoringCase() async throws {
        let stores = try CoachTestStores()
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

    @Test func refusesATakenEmailOrId() async throws {
        let stores = try CoachTestStores()
        let id = UUID()
        _ = try await stores.users.createUser(id: id, email: "ada@example.org", displayName: "Ada")

        await #expect(throws: StoreError.conflict("An account with this email already exists")) {
            try await stores.users.createUser(id: UUID(), email: "ADA@example.org", displayName: "Other")
        }
        await #expect(throws: StoreError.conflict("This account already exists")) {
            try await stores.users.createUser(id: id, email: nil, displayName: "Again")
        }
    }

    @Test func guestsNeedNoEmail() async throws {
        let stores = try CoachTestStores()
        let first = try await stores.users.createUser(id: UUID(), email: nil, displayName: "")
        let second = try await stores.users.createUser(id: UUID(), email: nil, displayName: "")
        #expect(first.id != second.id)
        #expect(second.version == first.version + 1)
    }
}
