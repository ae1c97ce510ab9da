import Foundation
import GRDB
import WDietCore
import WDietStore

/// `UserDataStore` on the SQLite gatekeeper: the user's data exported in one read snapshot, imported in one write
/// (a savepoint of the group commit, so all of it or none), and the account erased in one write.
public struct SQLiteUserDataStore: UserDataStore {
    let database: AppDatabase
    let now: @Sendable () -> Date

    /// `now` stamps the `createdAt` of imported analytics events (their `occurredAt` is kept); tests pass a fixed clock.
    public init(database: AppDatabase, now: @escaping @Sendable () -> Date = Date.init) {
        self.database = database
        self.now = now
    }

    /// Every table that holds rows of a user by a `userId` column, children before `users`. The store test that
    /// lists `sqlite_master` fails for a table with a `userId` column that is missing here.
    static let userTables = [
        "sessions", "credentials", "identities", "rateLimitEvents", "dismissedTips", "analytics_events",
        "syncRows", "syncResults", "journalEntries", "loggedDays", "meals", "weights", "profiles",
    ]

    static let accountHasData = StoreError.conflict(
        "This account already has data. Import into a new account, before onboarding."
    )

    public func exportUserData(userId: UUID) async throws -> UserDataExport {
        let user = AppDatabase.idText(userId)
        return try await database.storeRead { db in
            guard let record = try UserRecord.filter(key: user).filter(UserRecord.Columns.deletedAt == nil).fetchOne(db) else {
                throw StoreError.notFound("User not found")
            }
            let identities = try Row.fetchAll(
                db, sql: "SELECT issuer, email, linkedAt FROM identities WHERE userId = ? ORDER BY linkedAt, issuer",
                arguments: [user]
            ).map { row in
                UserDataExport.Identity(
                    issuer: row["issuer"], email: row["email"], linkedAt: try AppDatabase.instant(fromStoredText: row["linkedAt"])
                )
            }
            let settings = try Row.fetchOne(db, sql: "SELECT language, appearance FROM users WHERE id = ?", arguments: [user])
            let account = UserDataExport.Account(
                id: userId, email: record.email, displayName: record.displayName,
                createdAt: try AppDatabase.instant(fromStoredText: record.createdAt), identities: identities,
                language: (settings?["language"] as String?).flatMap(Language.init(tag:)),
                appearance: (settings?["appearance"] as String?).flatMap(Appearance.init(rawValue:))
            )
            let meals = try MealRecord.fetchAll(
                db, sql: "SELECT * FROM meals WHERE userId = ? AND deletedAt IS NULL ORDER BY loggedAt, createdAt, id",
                arguments: [user]
            ).map { try $0.stored() }
            let weights = try WeightRecord.fetchAll(
                db, sql: "SELECT * FROM weights WHERE userId = ? AND deletedAt IS NULL ORDER BY loggedAt, createdAt, id",
                arguments: [user]
            ).map { try $0.stored() }
            // Names a newer version added are left to that version to export, as `events(userId:)` does.
            let events = try AnalyticsEventRecord
                .filter(AnalyticsEventRecord.Columns.userId == user)
                .filter(AnalyticsEventName.allCases.map(\.rawValue).contains(AnalyticsEventRecord.Columns.name))
                .filter(AnalyticsEventRecord.Columns.deletedAt == nil)
                .order(AnalyticsEventRecord.Columns.occurredAt, AnalyticsEventRecord.Columns.version)
                .fetchAll(db)
                .map { try $0.event() }
            let tips = try Row.fetchAll(
                db, sql: "SELECT tipId, dismissedAt, version FROM dismissedTips WHERE userId = ? ORDER BY dismissedAt, tipId",
                arguments: [user]
            ).map { row in
                UserDataExport.DismissedTip(
                    tipId: row["tipId"], dismissedAt: try AppDatabase.instant(fromStoredText: row["dismissedAt"]), version: row["version"]
                )
            }
            let rows = try Row.fetchAll(db, sql: """
                SELECT collection, id, data, version, createdAt, updatedAt FROM syncRows
                WHERE userId = ? AND deletedAt IS NULL ORDER BY createdAt, collection, id
                """, arguments: [user]
            ).map { row in
                UserDataExport.Row(
                    collection: row["collection"], id: try AppDatabase.id(fromText: row["id"]), data: try SyncJSON.parse(row["data"]),
                    version: row["version"], createdAt: try AppDatabase.instant(fromStoredText: row["createdAt"]),
                    updatedAt: try AppDatabase.instant(fromStoredText: row["updatedAt"]))
            }
            return UserDataExport(
                account: account, profile: try SQLiteProfileStore.profile(userId: userId, in: db),
                meals: meals, weights: weights, analyticsEvents: events, dismissedTips: tips, rows: rows
            )
        }
    }

    public func importUserData(_ data: UserDataExport, into userId: UUID) async throws -> UserDataImportSummary {
        // Checked before the write, as every store checks what it is given.
        if let profile = data.profile { try StoreValidation.validate(profile.profile) }
        for meal in data.meals { try StoreValidation.validate(meal.meal) }
        for weight in data.weights { try StoreValidation.validate(weight.entry) }
        if data.dismissedTips.contains(where: { $0.tipId.isEmpty }) { throw StoreError.invalid("A dismissed tip has no id") }
        let rowTexts = try data.rows.map { try SyncRules.validatedRowText(collection: $0.collection, data: $0.data) }
        let user = AppDatabase.idText(userId)
        let now = AppDatabase.instantText(now())
        return try await database.storeWrite { db in
            guard try UserRecord.filter(key: user).filter(UserRecord.Columns.deletedAt == nil).fetchCount(db) == 1 else {
                throw StoreError.notFound("User not found")
            }
            let hasData = try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM profiles WHERE userId = ?1)
                    OR EXISTS (SELECT 1 FROM meals WHERE userId = ?1)
                    OR EXISTS (SELECT 1 FROM weights WHERE userId = ?1)
                    OR EXISTS (SELECT 1 FROM dismissedTips WHERE userId = ?1)
                    OR EXISTS (SELECT 1 FROM syncRows WHERE userId = ?1)
                """, arguments: [user]) ?? false
            if hasData { throw Self.accountHasData }
            var summary = UserDataImportSummary()
            /// The exported id when no row of the table has it, a fresh one otherwise.
            func freeId(_ id: UUID, in table: String) throws -> String {
                let text = AppDatabase.idText(id)
                let statement = try db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE id = ?)")
                guard try Bool.fetchOne(statement, arguments: [text]) ?? false else { return text }
                summary.newIds += 1
                return AppDatabase.idText(UUID())
            }
            if let stored = data.profile {
                var record = try ProfileRecord(
                    stored.profile, planHistory: stored.planHistory, id: AppDatabase.idText(UUID()), userId: userId
                )
                record.createdAt = AppDatabase.instantText(stored.createdAt)
                record.updatedAt = AppDatabase.instantText(stored.updatedAt)
                record.version = try AppDatabase.nextVersion(db)
                try record.insert(db)
                summary.profiles = 1
            }
            for stored in data.meals {
                var record = MealRecord(stored.meal, userId: userId, localDate: stored.localDate)
                record.id = try freeId(stored.meal.id, in: "meals")
                record.createdAt = AppDatabase.instantText(stored.createdAt)
                record.updatedAt = AppDatabase.instantText(stored.updatedAt)
                record.version = try AppDatabase.nextVersion(db)
                try record.insert(db)
            }
            summary.meals = data.meals.count
            for stored in data.weights {
                var record = WeightRecord(stored.entry, userId: userId, localDate: stored.localDate)
                record.id = try freeId(stored.entry.id, in: "weights")
                record.createdAt = AppDatabase.instantText(stored.createdAt)
                record.updatedAt = AppDatabase.instantText(stored.updatedAt)
                record.version = try AppDatabase.nextVersion(db)
                try record.insert(db)
            }
            summary.weights = data.weights.count
            for event in data.analyticsEvents {
                // The user's own copy of an event (a retried import) is recorded once.
                let mine = try Bool.fetchOne(
                    db, sql: "SELECT EXISTS (SELECT 1 FROM analytics_events WHERE id = ? AND userId = ?)",
                    arguments: [AppDatabase.idText(event.id), user]
                ) ?? false
                if mine { continue }
                var record = try AnalyticsEventRecord(event, userId: userId, createdAt: now, version: AppDatabase.nextVersion(db))
                record.id = try freeId(event.id, in: "analytics_events")
                try record.insert(db)
                summary.analyticsEvents += 1
            }
            for tip in data.dismissedTips {
                try db.execute(
                    sql: "INSERT INTO dismissedTips (userId, tipId, dismissedAt, version) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    arguments: [user, tip.tipId, AppDatabase.instantText(tip.dismissedAt), AppDatabase.nextVersion(db)]
                )
                summary.dismissedTips += db.changesCount
            }
            // Keyed by (user, collection, id): another account's rows never collide, so ids are kept.
            for (row, data) in zip(data.rows, rowTexts) {
                try db.execute(sql: """
                    INSERT INTO syncRows (userId, collection, id, data, createdAt, updatedAt, version, deletedAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, NULL) ON CONFLICT DO NOTHING
                    """, arguments: [
                        user, row.collection, AppDatabase.idText(row.id), data, AppDatabase.instantText(row.createdAt),
                        AppDatabase.instantText(row.updatedAt), AppDatabase.nextVersion(db),
                    ])
                summary.rows += db.changesCount
            }
            return summary
        }
    }

    public func deleteAccount(userId: UUID, loginThrottleKeys: [String]) async throws -> Bool {
        let user = AppDatabase.idText(userId)
        return try await database.storeWrite { db in
            guard try UserRecord.exists(db, key: user) else { return false }
            // Explicit deletes rather than the foreign keys' cascades, so that the set of tables is written down
            // (and the PostgreSQL store does the same). `loggedDays` first: the meal and weight triggers then find
            // no count to lower.
            for table in ["loggedDays"] + Self.userTables.filter({ $0 != "loggedDays" }) {
                try db.execute(sql: "DELETE FROM \(table) WHERE userId = ?", arguments: [user])
            }
            for key in loginThrottleKeys {
                try db.execute(sql: "DELETE FROM loginFailures WHERE throttleKey = ?", arguments: [key])
            }
            try db.execute(sql: "DELETE FROM users WHERE id = ?", arguments: [user])
            return true
        }
    }
}
