import Foundation
import Logging
import PostgresNIO
import WDietCore
import WDietStore

/// `ProfileStore` on PostgreSQL. "Changes apply tomorrow" is WDietCore's `PlanChange.afterSaving`, with the
/// store's clock, exactly as the SQLite store applies it.
public struct PostgresProfileStore: ProfileStore {
    let client: PostgresClient
    let now: @Sendable () -> Date
    let logger: Logger
    /// Profiles this process has read, tagged with their versions. Every meal and weight save, the dashboard's API
    /// and the plan read the profile first; when the session lookup (one statement, already paid for) saw the same
    /// version, the copy is the row the read would return, whichever process wrote it: a profile's every change
    /// takes a new version (`PostgresUserVersions`).
    private let cache: UserGenerationCache<StoredProfile>?

    /// `now` stamps `createdAt` and `updatedAt` and says which local day a profile change was made on (so when it
    /// applies); tests pass a fixed clock. `cachesProfiles: false` reads the database every time.
    public init(
        client: PostgresClient, now: @escaping @Sendable () -> Date = Date.init, cachesProfiles: Bool = true,
        logger: Logger = Logger(label: "wdiet.postgres.profiles")
    ) {
        self.client = client
        self.now = now
        self.logger = logger
        cache = cachesProfiles ? UserGenerationCache(capacity: 50_000) : nil
    }

    static let columns = """
        id, user_id, date_of_birth, sex, gender_description, height_cm, weight_kg, target_weight_kg, target_date, goal,
        activity, dietary_preferences::text AS dietary_preferences, allergies::text AS allergies, meals_per_day, time_zone,
        eating_window_start_minute, plan_start_date, deficit, weight_unit, height_unit,
        plan_previous_inputs::text AS plan_previous_inputs, plan_changed_on,
        plan_earlier_changes::text AS plan_earlier_changes, created_at, updated_at, version, deleted_at
        """

    public func profile(userId: UUID) async throws -> StoredProfile? {
        try await PostgresStoreErrors.guarded(logger) {
            try await Self.liveProfile(userId: userId, client: client, logger: logger)
        }
    }

    public func profile(userId: UUID, seen: ProfileSeen?) async throws -> StoredProfile? {
        guard let cache, let seen else { return try await profile(userId: userId) }
        guard case .version(let version) = seen else { return nil }
        let key = userId.uuidString
        if let kept = cache.value(forUser: key, generation: UInt64(bitPattern: version)) { return kept }
        guard let read = try await profile(userId: userId) else { return nil }
        // Kept under the version it carries: if a change committed after the lookup, the next request's lookup sees it.
        cache.store(read, forUser: key, generation: UInt64(bitPattern: read.version))
        return read
    }

    /// The user's live profile through `ProfileRead`.
    static func liveProfile(userId: UUID, client: PostgresClient, logger: Logger) async throws -> StoredProfile? {
        for try await profile in try await client.execute(ProfileRead(userId: userId), logger: logger) { return profile }
        return nil
    }

    /// Every meal save, weight save and dashboard reads the profile first (its time zone decides the day), so it is a
    /// prepared statement: planned once per connection rather than once per request.
    struct ProfileRead: PostgresPreparedStatement {
        static let name = "wdiet_profile_read_v2"
        static let sql = "SELECT " + PostgresProfileStore.columns + " FROM profiles WHERE user_id = $1 AND deleted_at IS NULL"

        let userId: UUID

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(userId)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> StoredProfile { try PostgresProfileStore.decode(row.makeRandomAccess()) }
    }

    static func profileQuery(userId: UUID) -> PostgresQuery {
        "SELECT \(unescaped: columns) FROM profiles WHERE user_id = \(userId) AND deleted_at IS NULL"
    }

    public func saveProfile(_ profile: Profile, userId: UUID, expectedVersion: Int64?) async throws -> StoredProfile {
        try StoreValidation.validate(profile)
        let instant = now()
        let now = PostgresInstant(instant).date
        return try await PostgresStoreErrors.guarded(logger) {
            try await client.withTransaction(logger: logger) { connection in
                guard try await PostgresUserVersions.lock(userId, on: connection, logger: logger) else {
                    throw StoreError.notFound("User not found")
                }
                // Deleted or not: a user has one profile row, and saving over a deleted one restores it.
                let existing = try await Self.profiles(connection.query(
                    "SELECT \(unescaped: Self.columns) FROM profiles WHERE user_id = \(userId)", logger: logger)).first
                if let expectedVersion, expectedVersion != existing?.profile.version {
                    throw StoreError.conflict("Your profile was changed on another device")
                }
                // A restored profile is a first profile again: there is no plan in force to keep until midnight.
                let live = existing.flatMap { $0.deleted ? nil : $0.profile }
                let history = PlanHistory.afterSaving(profile, over: live?.profile, history: live?.planHistory ?? PlanHistory(), at: instant)
                var saved = StoredProfile(
                    profile: profile, planChange: history.latest, earlierPlanChanges: history.earlier, userId: userId, version: 0,
                    createdAt: now, updatedAt: now)
                if let existing {
                    saved.createdAt = existing.profile.createdAt
                    saved.updatedAt = existing.profile.updatedAt
                    saved.version = existing.profile.version
                    // An identical save (a retried upload) keeps the stored row and its version.
                    if let live, saved == live { return live }
                    saved.updatedAt = now
                }
                saved.version = try await PostgresUserVersions.next(1, for: userId, on: connection, logger: logger)
                try await Self.write(saved, id: existing?.id, on: connection, logger: logger)
                return saved
            }
        }
    }

    /// Inserts the user's profile row, or overwrites the one with `id` (clearing a tombstone).
    static func write(_ saved: StoredProfile, id: UUID?, on connection: PostgresConnection, logger: Logger) async throws {
        let profile = saved.profile
        let dietaryPreferences = try jsonText(profile.dietaryPreferences), allergies = try jsonText(profile.allergies)
        let previousInputs = try saved.planChange.map { try jsonText($0.previous) }
        let changedOn = saved.planChange.map { PostgresLocalDate($0.changedOn) }
        let earlierChanges = try jsonText(saved.earlierPlanChanges)
        let query: PostgresQuery = """
            INSERT INTO profiles (
                id, user_id, date_of_birth, sex, gender_description, height_cm, weight_kg, target_weight_kg, target_date,
                goal, activity, dietary_preferences, allergies, meals_per_day, time_zone, eating_window_start_minute, plan_start_date,
                deficit, weight_unit, height_unit, plan_previous_inputs, plan_changed_on, plan_earlier_changes, created_at,
                updated_at, version, deleted_at
            ) VALUES (
                \(id ?? UUID()), \(saved.userId), \(PostgresLocalDate(profile.dateOfBirth)), \(profile.sex.rawValue),
                \(profile.genderDescription), \(profile.heightCm), \(profile.weightKg), \(profile.targetWeightKg),
                \(profile.targetDate.map(PostgresLocalDate.init)),
                \(profile.goal.rawValue), \(profile.activity.rawValue), \(dietaryPreferences)::jsonb, \(allergies)::jsonb,
                \(profile.mealsPerDay), \(profile.timeZoneIdentifier), \(profile.eatingWindow.startMinute),
                \(PostgresLocalDate(profile.planStartDate)), \(profile.deficit.rawValue), \(profile.weightUnit.rawValue),
                \(profile.heightUnit.rawValue), \(previousInputs)::jsonb, \(changedOn), \(earlierChanges)::jsonb,
                \(PostgresInstant(saved.createdAt)),
                \(PostgresInstant(saved.updatedAt)), \(saved.version), NULL
            )
            ON CONFLICT (user_id) DO UPDATE SET
                date_of_birth = EXCLUDED.date_of_birth, sex = EXCLUDED.sex,
                gender_description = EXCLUDED.gender_description, height_cm = EXCLUDED.height_cm,
                weight_kg = EXCLUDED.weight_kg, target_weight_kg = EXCLUDED.target_weight_kg,
                target_date = EXCLUDED.target_date, goal = EXCLUDED.goal, activity = EXCLUDED.activity,
                dietary_preferences = EXCLUDED.dietary_preferences, allergies = EXCLUDED.allergies,
                meals_per_day = EXCLUDED.meals_per_day, time_zone = EXCLUDED.time_zone,
                eating_window_start_minute = EXCLUDED.eating_window_start_minute,
                plan_start_date = EXCLUDED.plan_start_date, deficit = EXCLUDED.deficit,
                weight_unit = EXCLUDED.weight_unit, height_unit = EXCLUDED.height_unit,
                plan_previous_inputs = EXCLUDED.plan_previous_inputs, plan_changed_on = EXCLUDED.plan_changed_on,
                plan_earlier_changes = EXCLUDED.plan_earlier_changes, updated_at = EXCLUDED.updated_at, version = EXCLUDED.version, deleted_at = NULL
            """
        try await connection.query(query, logger: logger)
    }

    /// The rows with their id and whether they are tombstones, which `StoredProfile` does not carry.
    static func profiles(_ rows: PostgresRowSequence) async throws -> [(profile: StoredProfile, id: UUID, deleted: Bool)] {
        var profiles: [(profile: StoredProfile, id: UUID, deleted: Bool)] = []
        for try await row in rows {
            let row = row.makeRandomAccess()
            profiles.append((try decode(row), try row.value("id"), try row.optionalInstant("deleted_at") != nil))
        }
        return profiles
    }

    static func decode(_ row: PostgresRandomAccessRow) throws -> StoredProfile {
        guard let sex = Sex(rawValue: try row.value("sex")), let goal = Goal(rawValue: try row.value("goal")),
              let activity = ActivityLevel(rawValue: try row.value("activity")),
              let eatingWindow = EatingWindow(startMinute: try row.value("eating_window_start_minute")),
              let deficit = DeficitSetting(rawValue: try row.value("deficit")),
              let weightUnit = WeightUnit(rawValue: try row.value("weight_unit")),
              let heightUnit = HeightUnit(rawValue: try row.value("height_unit"))
        else { throw PostgresStoreErrors.unreadable }
        let profile = Profile(
            dateOfBirth: try row.localDate("date_of_birth"), sex: sex, heightCm: try row.value("height_cm"),
            weightKg: try row.value("weight_kg"), targetWeightKg: try row.value("target_weight_kg"),
            targetDate: try row.optionalLocalDate("target_date"), goal: goal, activity: activity,
            dietaryPreferences: try decodeJSON([String].self, try row.value("dietary_preferences")),
            allergies: try decodeJSON([String].self, try row.value("allergies")),
            mealsPerDay: try row.value("meals_per_day"), timeZoneIdentifier: try row.value("time_zone"),
            eatingWindow: eatingWindow, planStartDate: try row.localDate("plan_start_date"), deficit: deficit,
            weightUnit: weightUnit, heightUnit: heightUnit, genderDescription: try row.value("gender_description")
        )
        var planChange: PlanChange?
        if let previous: String = try row.value("plan_previous_inputs"), let changedOn = try row.optionalLocalDate("plan_changed_on") {
            planChange = PlanChange(previous: try decodeJSON(Profile.TargetInputs.self, previous), changedOn: changedOn)
        }
        let earlierText: String = try row.value("plan_earlier_changes")
        let earlier = earlierText == "[]" ? [] : try decodeJSON([PlanChange].self, earlierText)
        return StoredProfile(
            profile: profile, planChange: planChange, earlierPlanChanges: earlier, userId: try row.value("user_id"), version: try row.value("version"),
            createdAt: try row.instant("created_at"), updatedAt: try row.instant("updated_at")
        )
    }

    static func jsonText(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func decodeJSON<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(text.utf8))
        } catch {
            throw PostgresStoreErrors.unreadable
        }
    }
}
