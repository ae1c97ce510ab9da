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
        "syncRows", "syncResults", "journalEntries", "loggedDays", "meals", "weights", "profiles", "importChunks",
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

    /// Rows written per write transaction of an import: other users' saves wait for one chunk at most, not for a
    /// whole import (issue 21 item 3: four 8 MB imports made another user's meal save wait 36 s).
    /// A meal row holds the writer about 110 µs on the bench machine (its insert, the id check, the version, the day's
    /// trigger): 25 rows about 3 ms. Measured with four 8 MB imports beside meal saves (docs/benchmarks.md): a save's
    /// P95 was 35 ms with chunks of 250, 20 ms with 50, 12 ms with 25 (alone 5–8 ms); the imports took 30 % longer.
    /// `WDIET_IMPORT_CHUNK` overrides it (for benchmarks).
    static let importChunk: Int = {
        if let text = ProcessInfo.processInfo.environment["WDIET_IMPORT_CHUNK"], let value = Int(text), value > 0 { return value }
        return 25
    }()
    /// The `rateLimitEvents` action of the row that says "an import into this account is under way" (its id is the
    /// import's). It makes a second import refuse, lets a failed one be undone, and one a crash cut short be undone
    /// at the next start (`removeUnfinishedImports`).
    static let importRunning = "import-running"

    public func importUserData(_ data: UserDataExport, into userId: UUID) async throws -> UserDataImportSummary {
        // Checked before the write, as every store checks what it is given.
        if let profile = data.profile { try StoreValidation.validate(profile.profile) }
        for meal in data.meals { try StoreValidation.validate(meal.meal) }
        for weight in data.weights { try StoreValidation.validate(weight.entry) }
        if data.dismissedTips.contains(where: { $0.tipId.isEmpty }) { throw StoreError.invalid("A dismissed tip has no id") }
        let rowTexts = try data.rows.map { try SyncRules.validatedRowText(collection: $0.collection, data: $0.data) }
        let user = AppDatabase.idText(userId)
        let now = AppDatabase.instantText(now())
        let marker = AppDatabase.idText(UUID())
        // The import is written in bounded chunks, each its own write between other users' writes, all or nothing
        // to the person: it starts only into an empty account (marked as importing), each write records the change
        // versions it used (`importChunks`), and a chunk that fails undoes exactly those rows. A crash between
        // chunks is undone the same way at the next start. What the person saves meanwhile is never touched.
        var summary = try await database.storeWrite { db -> UserDataImportSummary in
            guard try UserRecord.filter(key: user).filter(UserRecord.Columns.deletedAt == nil).fetchCount(db) == 1 else {
                throw StoreError.notFound("User not found")
            }
            let hasData = try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM profiles WHERE userId = ?1)
                    OR EXISTS (SELECT 1 FROM meals WHERE userId = ?1)
                    OR EXISTS (SELECT 1 FROM weights WHERE userId = ?1)
                    OR EXISTS (SELECT 1 FROM dismissedTips WHERE userId = ?1)
                    OR EXISTS (SELECT 1 FROM syncRows WHERE userId = ?1)
                    OR EXISTS (SELECT 1 FROM rateLimitEvents WHERE userId = ?1 AND action = ?2)
                """, arguments: [user, Self.importRunning]) ?? false
            if hasData { throw Self.accountHasData }
            try db.execute(
                sql: "INSERT INTO rateLimitEvents (id, userId, action, occurredAt) VALUES (?, ?, ?, ?)",
                arguments: [marker, user, Self.importRunning, now]
            )
            var summary = UserDataImportSummary()
            let before = try Self.changeCounter(db)
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
            try Self.recordImported(db, importId: marker, userId: user, after: before)
            return summary
        }
        /// One chunk's write: nothing when the import's mark is gone (the account was deleted meanwhile).
        /// A bulk write: it commits alone, after the other users' writes waiting with it (`GroupCommit`).
        func chunk(_ write: @escaping @Sendable (Database) throws -> UserDataImportSummary) async throws -> UserDataImportSummary {
            try await database.storeWrite(bulk: true) { db in
                guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM rateLimitEvents WHERE id = ?)", arguments: [marker]) == true else {
                    throw StoreError.notFound("User not found")
                }
                let before = try Self.changeCounter(db)
                let part = try write(db)
                try Self.recordImported(db, importId: marker, userId: user, after: before)
                return part
            }
        }
        do {
            for meals in Self.chunks(data.meals) {
                summary.add(try await chunk { db in
                    var part = UserDataImportSummary(meals: meals.count)
                    for stored in meals {
                        var record = MealRecord(stored.meal, userId: userId, localDate: stored.localDate)
                        record.id = try Self.freeId(stored.meal.id, in: "meals", db, &part)
                        record.createdAt = AppDatabase.instantText(stored.createdAt)
                        record.updatedAt = AppDatabase.instantText(stored.updatedAt)
                        record.version = try AppDatabase.nextVersion(db)
                        try record.insert(db)
                    }
                    return part
                })
            }
            for weights in Self.chunks(data.weights) {
                summary.add(try await chunk { db in
                    var part = UserDataImportSummary(weights: weights.count)
                    for stored in weights {
                        var record = WeightRecord(stored.entry, userId: userId, localDate: stored.localDate)
                        record.id = try Self.freeId(stored.entry.id, in: "weights", db, &part)
                        record.createdAt = AppDatabase.instantText(stored.createdAt)
                        record.updatedAt = AppDatabase.instantText(stored.updatedAt)
                        record.version = try AppDatabase.nextVersion(db)
                        try record.insert(db)
                    }
                    return part
                })
            }
            for events in Self.chunks(data.analyticsEvents) {
                summary.add(try await chunk { db in
                    var part = UserDataImportSummary()
                    for event in events {
                        // The user's own copy of an event (a retried import) is recorded once.
                        let mine = try Bool.fetchOne(
                            db, sql: "SELECT EXISTS (SELECT 1 FROM analytics_events WHERE id = ? AND userId = ?)",
                            arguments: [AppDatabase.idText(event.id), user]
                        ) ?? false
                        if mine { continue }
                        var record = try AnalyticsEventRecord(event, userId: userId, createdAt: now, version: AppDatabase.nextVersion(db))
                        record.id = try Self.freeId(event.id, in: "analytics_events", db, &part)
                        try record.insert(db)
                        part.analyticsEvents += 1
                    }
                    return part
                })
            }
            for tips in Self.chunks(data.dismissedTips) {
                summary.add(try await chunk { db in
                    var part = UserDataImportSummary()
                    for tip in tips {
                        try db.execute(
                            sql: "INSERT INTO dismissedTips (userId, tipId, dismissedAt, version) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                            arguments: [user, tip.tipId, AppDatabase.instantText(tip.dismissedAt), AppDatabase.nextVersion(db)]
                        )
                        part.dismissedTips += db.changesCount
                    }
                    return part
                })
            }
            // Keyed by (user, collection, id): another account's rows never collide, so ids are kept.
            for rows in Self.chunks(Array(zip(data.rows, rowTexts))) {
                summary.add(try await chunk { db in
                    var part = UserDataImportSummary()
                    for (row, data) in rows {
                        try db.execute(sql: """
                            INSERT INTO syncRows (userId, collection, id, data, createdAt, updatedAt, version, deletedAt)
                            VALUES (?, ?, ?, ?, ?, ?, ?, NULL) ON CONFLICT DO NOTHING
                            """, arguments: [
                                user, row.collection, AppDatabase.idText(row.id), data, AppDatabase.instantText(row.createdAt),
                                AppDatabase.instantText(row.updatedAt), AppDatabase.nextVersion(db),
                            ])
                        part.rows += db.changesCount
                    }
                    return part
                })
            }
            // Done: the mark and the record of what was written go in the last write, so the account is no longer
            // "importing".
            _ = try await chunk { db in
                try db.execute(sql: "DELETE FROM importChunks WHERE importId = ?", arguments: [marker])
                try db.execute(sql: "DELETE FROM rateLimitEvents WHERE id = ?", arguments: [marker])
                return UserDataImportSummary()
            }
        } catch {
            _ = try? await database.storeWrite { db in try Self.undoImport(db, userId: user, marker: marker) }
            throw error
        }
        return summary
    }

    static func chunks<T>(_ items: [T]) -> [ArraySlice<T>] {
        stride(from: 0, to: items.count, by: importChunk).map { items[$0..<min($0 + importChunk, items.count)] }
    }

    /// The exported id when no row of the table has it, a fresh one otherwise (counted in `newIds`).
    static func freeId(_ id: UUID, in table: String, _ db: Database, _ summary: inout UserDataImportSummary) throws -> String {
        let text = AppDatabase.idText(id)
        let statement = try db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE id = ?)")
        guard try Bool.fetchOne(statement, arguments: [text]) ?? false else { return text }
        summary.newIds += 1
        return AppDatabase.idText(UUID())
    }

    /// The change counter's current value: a write's rows are numbered from the next one.
    static func changeCounter(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT value FROM syncVersion WHERE id = 1") ?? 0
    }

    /// Records the change versions this write of an import used (after `before`, up to the counter now).
    static func recordImported(_ db: Database, importId: String, userId user: String, after before: Int64) throws {
        let last = try changeCounter(db)
        guard last > before else { return }
        try db.execute(
            sql: "INSERT INTO importChunks (importId, userId, firstVersion, lastVersion) VALUES (?, ?, ?, ?)",
            arguments: [importId, user, before + 1, last])
    }

    /// The tables an import writes, each row numbered with a change version (`loggedDays` and `journalEntries`
    /// follow their triggers).
    static let importedTables = ["syncRows", "dismissedTips", "analytics_events", "meals", "weights", "profiles"]

    /// Deletes the rows an import wrote — those of the user whose version lies in one of its recorded ranges; a row
    /// the person saved or edited meanwhile has a version outside them and stays — and the import's mark. Answers
    /// whether there was a mark.
    @discardableResult
    static func undoImport(_ db: Database, userId user: String, marker: String) throws -> Bool {
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM rateLimitEvents WHERE id = ?)", arguments: [marker]) == true else {
            return false
        }
        let ranges = try Row.fetchAll(db, sql: "SELECT firstVersion, lastVersion FROM importChunks WHERE importId = ?", arguments: [marker])
        for table in importedTables {
            for range in ranges {
                try db.execute(
                    sql: "DELETE FROM \(table) WHERE userId = ? AND version BETWEEN ? AND ?",
                    arguments: [user, range["firstVersion"] as Int64, range["lastVersion"] as Int64])
            }
        }
        try db.execute(sql: "DELETE FROM importChunks WHERE importId = ?", arguments: [marker])
        try db.execute(sql: "DELETE FROM rateLimitEvents WHERE id = ?", arguments: [marker])
        return true
    }

    /// Undoes the imports a stopped process left unfinished (the server runs it at start, before it serves):
    /// answers how many accounts were emptied again.
    public func removeUnfinishedImports() async throws -> Int {
        try await database.storeWrite { db in
            let marks = try Row.fetchAll(
                db, sql: "SELECT id, userId FROM rateLimitEvents WHERE action = ?", arguments: [Self.importRunning])
            for mark in marks {
                try Self.undoImport(db, userId: mark["userId"], marker: mark["id"])
            }
            return marks.count
        }
    }

    public func deleteAccount(userId: UUID, loginThrottleKeys: [String]) async throws -> Bool {
        let user = AppDatabase.idText(userId)
        let deleted = try await database.storeWrite { db in
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
        // `secure_delete` zeroed the rows in the pages; the WAL still holds the pages as they were before.
        if deleted { await database.scrubWriteAheadLog() }
        return deleted
    }
}
