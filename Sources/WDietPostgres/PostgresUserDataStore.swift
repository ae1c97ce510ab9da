import Foundation
import Logging
import PostgresNIO
import WDietCore
import WDietStore

/// `UserDataStore` on PostgreSQL, the twin of `SQLiteUserDataStore` (same rows, same order, same messages): the
/// export is one REPEATABLE READ read-only transaction, the import and the deletion one transaction each. Rows are
/// read and written with the meal, weight, profile and analytics stores' own queries and encoders.
public struct PostgresUserDataStore: UserDataStore {
    let access: PostgresStoreAccess
    let now: @Sendable () -> Date

    /// `now` stamps the `created_at` of imported analytics events (their `occurred_at` is kept); tests pass a fixed
    /// clock.
    public init(client: PostgresClient, now: @escaping @Sendable () -> Date = Date.init) {
        access = PostgresStoreAccess(client: client, label: "wdiet.postgres.user-data")
        self.now = now
    }

    /// Every table that holds rows of a user by a `user_id` column, children before `users`; `logged_days` first,
    /// so the meal and weight triggers find no count to lower. The conformance test that lists
    /// `information_schema.columns` fails for a table with a `user_id` column that is missing here.
    static let userTables = [
        "logged_days", "sessions", "credentials", "identities", "rate_limit_events", "dismissed_tips", "analytics_events",
        "sync_rows", "sync_results", "journal_entries", "media", "meals", "weights", "profiles",
    ]

    /// The first key of an import's advisory lock on an account ("wdim" in ASCII); nothing else uses it.
    static let importLockClass: Int32 = 0x7764_696d

    static let accountHasData = StoreError.conflict(
        "This account already has data. Import into a new account, before onboarding."
    )

    public func exportUserData(userId: UUID) async throws -> UserDataExport {
        let logger = access.logger
        return try await access.transaction { connection in
            try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
            let users = try await connection.query("""
                SELECT email, display_name, created_at, language, appearance FROM users WHERE id = \(userId) AND deleted_at IS NULL
                """, logger: logger)
            var account: UserDataExport.Account?
            for try await (email, displayName, createdAt, language, appearance)
                in users.decode((String?, String, PostgresInstant, String?, String?).self)
            {
                account = UserDataExport.Account(
                    id: userId, email: email, displayName: displayName, createdAt: createdAt.date, identities: [],
                    language: language.flatMap(Language.init(tag:)), appearance: appearance.flatMap(Appearance.init(rawValue:)))
            }
            guard var account else { throw PostgresStoreAccess.userNotFound }
            // Issuer, address and when: never the subject, which is what signs in.
            let identities = try await connection.query("""
                SELECT issuer, email, linked_at FROM identities WHERE user_id = \(userId)
                ORDER BY linked_at, issuer COLLATE "C"
                """, logger: logger)
            for try await (issuer, email, linkedAt) in identities.decode((String, String?, PostgresInstant).self) {
                account.identities.append(UserDataExport.Identity(issuer: issuer, email: email, linkedAt: linkedAt.date))
            }
            let profile = try await PostgresProfileStore.profiles(
                connection.query(PostgresProfileStore.profileQuery(userId: userId), logger: logger)).first?.profile
            // Oldest first, ties as SQLite breaks them (a uuid sorts as its lowercase text does).
            let meals = try await StoredMeal.decode(connection.query("""
                SELECT \(unescaped: StoredMeal.columns) FROM meals WHERE user_id = \(userId) AND deleted_at IS NULL
                ORDER BY logged_at, created_at, id
                """, logger: logger))
            let weights = try await StoredWeight.decode(connection.query("""
                SELECT \(unescaped: StoredWeight.columns) FROM weights WHERE user_id = \(userId) AND deleted_at IS NULL
                ORDER BY logged_at, created_at, id
                """, logger: logger))
            let events = try await PostgresAnalyticsStore.events(
                connection.query(PostgresAnalyticsStore.eventsQuery(userId: userId), logger: logger))
            // Every stored tip id, known to this version or not, so an import elsewhere carries it unchanged.
            let tipRows = try await connection.query("""
                SELECT tip_id, dismissed_at, version FROM dismissed_tips WHERE user_id = \(userId)
                ORDER BY dismissed_at, tip_id COLLATE "C"
                """, logger: logger)
            var tips: [UserDataExport.DismissedTip] = []
            for try await (tipId, dismissedAt, version) in tipRows.decode((String, PostgresInstant, Int64).self) {
                tips.append(UserDataExport.DismissedTip(tipId: tipId, dismissedAt: dismissedAt.date, version: version))
            }
            // By creation, ties as SQLite breaks them (collation "C" and a uuid sort as SQLite's text does).
            let rowRows = try await connection.query("""
                SELECT collection, id, data, version, created_at, updated_at FROM sync_rows
                WHERE user_id = \(userId) AND deleted_at IS NULL ORDER BY created_at, collection COLLATE "C", id
                """, logger: logger)
            var rows: [UserDataExport.Row] = []
            for try await (collection, id, data, version, createdAt, updatedAt)
                in rowRows.decode((String, UUID, String, Int64, PostgresInstant, PostgresInstant).self) {
                rows.append(UserDataExport.Row(
                    collection: collection, id: id, data: try SyncJSON.parse(data), version: version,
                    createdAt: createdAt.date, updatedAt: updatedAt.date))
            }
            return UserDataExport(
                account: account, profile: profile, meals: meals, weights: weights, analyticsEvents: events,
                dismissedTips: tips, rows: rows)
        }
    }

    public func importUserData(_ data: UserDataExport, into userId: UUID) async throws -> UserDataImportSummary {
        // Checked before the write, as every store checks what it is given.
        if let profile = data.profile { try StoreValidation.validate(profile.profile) }
        for meal in data.meals { try StoreValidation.validate(meal.meal) }
        for weight in data.weights { try StoreValidation.validate(weight.entry) }
        if data.dismissedTips.contains(where: { $0.tipId.isEmpty }) { throw StoreError.invalid("A dismissed tip has no id") }
        let rowTexts = try data.rows.map { try SyncRules.validatedRowText(collection: $0.collection, data: $0.data) }
        let now = PostgresInstant(now())
        let logger = access.logger
        return try await access.transaction { connection in
            // A second import into the same account while one runs (another request, another process) is refused
            // at once, as on SQLite, rather than waiting for the first to end: the import's lock on the account,
            // taken without waiting. (Two 32-bit keys, a space of their own: `importLockClass` and the id's hash; two
            // accounts whose hashes collide only refuse each other while both import at the same moment.)
            let taken = try await connection.query(
                "SELECT pg_try_advisory_xact_lock(\(Self.importLockClass), hashtext(\(userId.uuidString.lowercased())))", logger: logger)
            for try await free in taken.decode(Bool.self) where !free { throw Self.accountHasData }
            // The user's row lock, as every writer of theirs takes it: the emptiness check below then holds until
            // this transaction ends.
            let users = try await connection.query(
                "SELECT deleted_at IS NULL FROM users WHERE id = \(userId) FOR NO KEY UPDATE", logger: logger)
            var live = false
            for try await isLive in users.decode(Bool.self) { live = isLive }
            guard live else { throw PostgresStoreAccess.userNotFound }
            let used = try await connection.query("""
                SELECT EXISTS (SELECT 1 FROM profiles WHERE user_id = \(userId))
                    OR EXISTS (SELECT 1 FROM meals WHERE user_id = \(userId))
                    OR EXISTS (SELECT 1 FROM weights WHERE user_id = \(userId))
                    OR EXISTS (SELECT 1 FROM dismissed_tips WHERE user_id = \(userId))
                    OR EXISTS (SELECT 1 FROM sync_rows WHERE user_id = \(userId))
                """, logger: logger)
            for try await hasData in used.decode(Bool.self) where hasData { throw Self.accountHasData }

            var summary = UserDataImportSummary()
            // Ids already in each table (anyone's, tombstones included); an id used twice in the export is taken
            // by its first row.
            var takenMeals = Set(try await StoredMeal.fetch(ids: data.meals.map(\.id), on: connection, logger: logger).keys)
            var takenWeights = Set(try await StoredWeight.fetch(ids: data.weights.map(\.id), on: connection, logger: logger).keys)
            let eventOwners = try await Self.eventOwners(data.analyticsEvents.map(\.id), on: connection, logger: logger)
            func freeId(_ id: UUID, in taken: inout Set<UUID>) -> UUID {
                let free = taken.insert(id).inserted ? id : UUID()
                if free != id {
                    summary.newIds += 1
                    taken.insert(free)
                }
                return free
            }
            // The user's own copy of an event (a retried import) is recorded once.
            var seenEvents = Set(eventOwners.filter { $0.value == userId }.keys)
            var takenEvents = Set(eventOwners.keys)
            let events = data.analyticsEvents.filter { seenEvents.insert($0.id).inserted }
            var seenTips = Set<String>()
            let tips = data.dismissedTips.filter { seenTips.insert($0.tipId).inserted }
            // A row named twice in the export is taken by its first copy, as SQLite's ON CONFLICT DO NOTHING does.
            var seenRows = Set<String>()
            let rows = zip(data.rows, rowTexts).filter { seenRows.insert("\($0.0.collection)/\($0.0.id)").inserted }

            // One draw from the user's counter for every row written, stamped in the order SQLite draws them.
            let count = (data.profile == nil ? 0 : 1) + data.meals.count + data.weights.count + events.count + tips.count + rows.count
            guard count > 0 else { return summary }
            var version = try await PostgresUserVersions.next(count, for: userId, on: connection, logger: logger) - Int64(count)
            func nextVersion() -> Int64 {
                version += 1
                return version
            }

            if var profile = data.profile {
                profile.userId = userId
                profile.version = nextVersion()
                // A fresh row id: the profile's id is not part of the export.
                try await PostgresProfileStore.write(profile, id: UUID(), on: connection, logger: logger)
                summary.profiles = 1
            }
            let meals = data.meals.map { stored in
                var meal = stored.meal
                meal.id = freeId(meal.id, in: &takenMeals)
                return StoredMeal(
                    meal: meal, userId: userId, localDate: stored.localDate, version: nextVersion(),
                    createdAt: stored.createdAt, updatedAt: stored.updatedAt)
            }
            try await StoredMeal.insert(meals, on: connection, logger: logger)
            summary.meals = meals.count
            let weights = data.weights.map { stored in
                var entry = stored.entry
                entry.id = freeId(entry.id, in: &takenWeights)
                return StoredWeight(
                    entry: entry, userId: userId, localDate: stored.localDate, version: nextVersion(),
                    createdAt: stored.createdAt, updatedAt: stored.updatedAt)
            }
            try await StoredWeight.insert(weights, on: connection, logger: logger)
            summary.weights = weights.count
            for event in events {
                let properties = try PostgresAnalyticsStore.propertiesJSON(event)
                try await connection.query("""
                    INSERT INTO analytics_events (id, user_id, name, properties, occurred_at, created_at, updated_at, version)
                    VALUES (\(freeId(event.id, in: &takenEvents)), \(userId), \(event.name.rawValue), \(properties)::jsonb,
                        \(PostgresInstant(event.occurredAt)), \(now), \(now), \(nextVersion()))
                    """, logger: logger)
                summary.analyticsEvents += 1
            }
            for tip in tips {
                let inserted = try await connection.query("""
                    INSERT INTO dismissed_tips (user_id, tip_id, dismissed_at, version)
                    VALUES (\(userId), \(tip.tipId), \(PostgresInstant(tip.dismissedAt)), \(nextVersion()))
                    ON CONFLICT DO NOTHING RETURNING 1
                    """, logger: logger)
                for try await _ in inserted.decode(Int.self) { summary.dismissedTips += 1 }
            }
            if !rows.isEmpty {
                // Keyed by (user, collection, id): another account's rows never collide, so ids are kept.
                let versions = rows.map { _ in nextVersion() }
                try await connection.query("""
                    INSERT INTO sync_rows (user_id, collection, id, data, created_at, updated_at, version, deleted_at)
                    SELECT \(userId), v.collection, v.id, v.data, \(unescaped: PostgresSyncBatchWrites.instant("created_ms")),
                        \(unescaped: PostgresSyncBatchWrites.instant("updated_ms")), v.version, NULL
                    FROM unnest(\(rows.map(\.0.collection))::text[], \(rows.map(\.0.id))::uuid[], \(rows.map(\.1))::text[],
                        \(rows.map { PostgresInstant($0.0.createdAt).milliseconds })::bigint[],
                        \(rows.map { PostgresInstant($0.0.updatedAt).milliseconds })::bigint[], \(versions)::bigint[])
                        AS v(collection, id, data, created_ms, updated_ms, version)
                    """, logger: logger)
                summary.rows = rows.count
            }
            return summary
        }
    }

    /// Who holds each of these event ids, whoever they are.
    static func eventOwners(_ ids: [UUID], on connection: PostgresConnection, logger: Logger) async throws -> [UUID: UUID] {
        guard !ids.isEmpty else { return [:] }
        let rows = try await connection.query(
            "SELECT id, user_id FROM analytics_events WHERE id = ANY(\(ids))", logger: logger)
        var owners: [UUID: UUID] = [:]
        for try await (id, owner) in rows.decode((UUID, UUID).self) { owners[id] = owner }
        return owners
    }

    public func deleteAccount(userId: UUID, loginThrottleKeys: [String]) async throws -> Bool {
        let logger = access.logger
        return try await access.transaction { connection in
            // Tombstoned or not, the row goes. FOR UPDATE: the user's other writers wait, then find no user.
            let users = try await connection.query("SELECT 1 FROM users WHERE id = \(userId) FOR UPDATE", logger: logger)
            var exists = false
            for try await _ in users.decode(Int.self) { exists = true }
            guard exists else { return false }
            // Explicit deletes rather than the foreign keys' cascades, so that the set of tables is written down,
            // as the SQLite store does.
            for table in Self.userTables {
                try await connection.query(
                    "DELETE FROM \(unescaped: table) WHERE user_id = \(userId)", logger: logger)
            }
            if !loginThrottleKeys.isEmpty {
                try await connection.query(
                    "DELETE FROM login_failures WHERE throttle_key = ANY(\(loginThrottleKeys))", logger: logger)
            }
            try await connection.query("DELETE FROM users WHERE id = \(userId)", logger: logger)
            return true
        }
    }
}
