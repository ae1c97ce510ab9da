import Foundation
import GRDB
import Testing
import WDietCore
import WDietSQLite
import WDietStore
import WDietTestSupport

@Suite("User data store: export, import, account deletion")
struct UserDataStoreTests {
    let stores: CoachTestStores
    let userData: any UserDataStore
    let accounts: any AccountStore
    let tips: any TipStore
    let identities: any ExternalIdentityStore
    let rateLimits: any RateLimitStore
    let throttle: any LoginThrottleStore

    init() throws {
        stores = try CoachTestStores()
        let database = stores.database, now = stores.clock.closure
        userData = SQLiteUserDataStore(database: database, now: now)
        accounts = SQLiteAccountStore(database: database, now: now)
        tips = SQLiteTipStore(database: database, now: now)
        identities = SQLiteExternalIdentityStore(database: database, now: now)
        rateLimits = SQLiteRateLimitStore(database: database)
        throttle = SQLiteLoginThrottleStore(database: database)
    }

    static let berlin = Fixtures.zone("Europe/Berlin")
    static let anaThrottleKey = String(repeating: "a", count: 64)

    /// Ana: an account with a password, a profile, two live meals (one late in the evening, which is the next
    /// day in Berlin), a deleted meal, a weight, an analytics event, a dismissed tip, an Apple identity, a session,
    /// a counted profile update and a sign-in failure: a row in every table that can hold one of hers.
    func makeAna(_ n: Int = 1) async throws -> UUID {
        let email = n == 1 ? "ana@example.com" : "ana\(n)@example.com"
        let ana = try await accounts.createAccount(
            id: UUID(), email: email, displayName: "Ana", passwordHash: "$2b$12$not-a-real-hash-but-stored"
        ).id
        /// Fixed ids for the first Ana; later ones get fresh ids (ids are unique across users).
        func id(_ text: String) -> UUID { n == 1 ? UUID(uuidString: text)! : UUID() }
        _ = try await stores.profiles.saveProfile(Fixtures.profile(), userId: ana, expectedVersion: nil)
        stores.clock.advance(seconds: 600)
        _ = try await stores.meals.saveMeal(
            Meal(id: id("00000000-0000-4000-8000-00000000000a"), name: "Porridge, \"oat\"", kcal: 350,
                 protein: 12, carbs: 60, fat: 6, loggedAt: Fixtures.utc("2026-03-01T07:30:00Z")),
            userId: ana, timeZone: Self.berlin
        )
        _ = try await stores.meals.saveMeal(
            Meal(id: id("00000000-0000-4000-8000-00000000000b"), name: "Chicken breast", foodId: "05064",
                 grams: 150, kcal: 247.5, protein: 46.5, carbs: 0, fat: 5.4, fiber: 0, source: .database,
                 loggedAt: Fixtures.utc("2026-03-01T23:30:00Z")),
            userId: ana, timeZone: Self.berlin
        )
        let gone = try await stores.meals.saveMeal(
            Meal(name: "Deleted snack", kcal: 120, loggedAt: Fixtures.utc("2026-03-01T10:00:00Z")), userId: ana, timeZone: Self.berlin
        )
        _ = try await stores.meals.deleteMeal(userId: ana, id: gone.id)
        _ = try await stores.weights.saveWeight(
            WeightEntry(id: id("00000000-0000-4000-8000-0000000000c1"), kg: 80.4, loggedAt: Fixtures.utc("2026-03-01T06:00:00Z")),
            userId: ana, timeZone: Self.berlin
        )
        try await stores.analytics.recordEvent(
            AnalyticsEvent(id: id("00000000-0000-4000-8000-0000000000e1"), name: .screenView,
                           properties: ["screen_name": "dashboard"], occurredAt: Fixtures.utc("2026-03-01T08:00:00Z")),
            userId: ana
        )
        try await tips.dismissTip(.eatingWindow, userId: ana)
        try await identities.link(userId: ana, issuer: "https://appleid.apple.com", subject: "apple-subject-\(n)", email: "ana@privaterelay.appleid.com")
        let now = stores.clock.now
        try await accounts.createSession(AccountSession(
            tokenHash: String(repeating: "\(n)", count: 64), userId: ana, kind: .api,
            createdAt: now, expiresAt: now.addingTimeInterval(86_400), lastUsedAt: now
        ))
        _ = try await rateLimits.acquire(.profileUpdate, userId: ana, limit: 10, window: 3_600, now: now)
        try await throttle.recordFailure(keys: [n == 1 ? Self.anaThrottleKey : String(repeating: "\(n)", count: 64)], now: now, window: 900)
        return ana
    }

    @Test("the export holds the account, profile, live meals and weights, events, tips and identities, with worked values")
    func exportContents() async throws {
        let ana = try await makeAna()
        let other = try await stores.makeUser(email: "ben@example.com")
        _ = try await stores.meals.saveMeal(Meal(name: "Ben's lunch", kcal: 700, loggedAt: Fixtures.utc("2026-03-01T12:00:00Z")), userId: other, timeZone: .gmt)

        let export = try await userData.exportUserData(userId: ana)

        #expect(export.account.id == ana)
        #expect(export.account.email == "ana@example.com")
        #expect(export.account.displayName == "Ana")
        #expect(export.account.createdAt == Fixtures.utc("2026-03-01T09:00:00Z"))
        #expect(export.account.identities == [
            UserDataExport.Identity(issuer: "https://appleid.apple.com", email: "ana@privaterelay.appleid.com", linkedAt: Fixtures.utc("2026-03-01T09:10:00Z")),
        ])
        #expect(export.profile?.profile == Fixtures.profile())
        // The deleted snack is left out; oldest first; the 23:30 UTC meal is on 2 March in Berlin (UTC+1).
        #expect(export.meals.map(\.meal.name) == ["Porridge, \"oat\"", "Chicken breast"])
        #expect(export.meals.map(\.localDate.iso) == ["2026-03-01", "2026-03-02"])
        #expect(export.meals[1].meal.kcal == 247.5)
        #expect(export.meals[1].meal.foodId == "05064")
        #expect(export.meals[1].meal.grams == 150)
        #expect(export.meals[0].createdAt == Fixtures.utc("2026-03-01T09:10:00Z"))
        // Versions as stored: the profile drew 2 (the user 1), the meals 3 and 4.
        #expect(export.profile?.version == 2)
        #expect(export.meals.map(\.version) == [3, 4])
        #expect(export.weights.map(\.entry.kg) == [80.4])
        #expect(export.weights.first?.localDate.iso == "2026-03-01")
        #expect(export.analyticsEvents.map(\.properties) == [["screen_name": "dashboard"]])
        #expect(export.dismissedTips.map(\.tipId) == ["eating-window"])
        #expect(export.recordCount == 1 + 2 + 1 + 1 + 1)
    }

    @Test("an unknown user is not found")
    func exportUnknown() async throws {
        await #expect(throws: StoreError.notFound("User not found")) {
            _ = try await userData.exportUserData(userId: UUID())
        }
    }

    /// The parts of an export that an import must carry over unchanged: everything but ids, versions and the account.
    static func values(_ export: UserDataExport) -> [String] {
        var lines: [String] = []
        if let p = export.profile { lines.append("profile \(p.profile) \(String(describing: p.planChange)) \(p.createdAt) \(p.updatedAt)") }
        for m in export.meals {
            var meal = m.meal
            meal.id = UUID(uuidString: "00000000-0000-0000-0000-000000000000")!
            lines.append("meal \(meal) \(m.localDate.iso) \(m.createdAt) \(m.updatedAt)")
        }
        for w in export.weights { lines.append("weight \(w.entry.kg) \(w.entry.loggedAt) \(w.localDate.iso) \(w.createdAt) \(w.updatedAt)") }
        for e in export.analyticsEvents { lines.append("event \(e.name) \(e.properties) \(e.occurredAt)") }
        for t in export.dismissedTips { lines.append("tip \(t.tipId) \(t.dismissedAt)") }
        return lines
    }

    @Test("import into a fresh account beside the exporter: same counts and values, new ids, the exporter untouched")
    func roundTrip() async throws {
        let ana = try await makeAna()
        let exported = try await userData.exportUserData(userId: ana)
        let ben = try await stores.makeUser(email: "ben@example.com")

        let summary = try await userData.importUserData(exported, into: ben)

        #expect(summary == UserDataImportSummary(profiles: 1, meals: 2, weights: 1, analyticsEvents: 1, dismissedTips: 1, newIds: 4))
        let again = try await userData.exportUserData(userId: ben)
        #expect(Self.values(again) == Self.values(exported))
        #expect(Self.values(again).count == 6)
        #expect(Set(again.meals.map(\.id)).isDisjoint(with: exported.meals.map(\.id)))
        #expect(again.weights.first?.id != exported.weights.first?.id)
        // Versions are the store's: drawn anew, above everything written before.
        #expect(again.meals.allSatisfy { $0.version > exported.meals.map(\.version).max()! })
        #expect(again.account.email == "ben@example.com")
        #expect(again.account.identities == [])
        // The day totals and streak read the imported rows (the trigger-kept loggedDays counted them).
        #expect(try await stores.meals.meals(userId: ben, on: Fixtures.date("2026-03-02")).map(\.meal.kcal) == [247.5])
        #expect(try await userData.exportUserData(userId: ana) == exported)
    }

    @Test("import into another database keeps every id: they are free there")
    func keepsFreeIds() async throws {
        let ana = try await makeAna()
        let exported = try await userData.exportUserData(userId: ana)
        let elsewhere = try CoachTestStores()
        let store = SQLiteUserDataStore(database: elsewhere.database, now: elsewhere.clock.closure)
        let newcomer = try await elsewhere.makeUser()

        let summary = try await store.importUserData(exported, into: newcomer)

        #expect(summary.newIds == 0)
        let imported = try await store.exportUserData(userId: newcomer)
        #expect(imported.meals.map(\.id) == exported.meals.map(\.id))
        #expect(imported.weights.map(\.id) == exported.weights.map(\.id))
        #expect(imported.analyticsEvents.map(\.id) == exported.analyticsEvents.map(\.id))
        #expect(Self.values(imported) == Self.values(exported))
    }

    @Test("an account with a profile, a meal (even deleted), a weight or a dismissed tip refuses an import, and nothing is written")
    func refusesAccountWithData() async throws {
        let ana = try await makeAna()
        let exported = try await userData.exportUserData(userId: ana)
        let ben = try await stores.makeUser()
        let gone = try await stores.meals.saveMeal(Meal(name: "Tea", kcal: 2, loggedAt: Fixtures.utc("2026-03-01T10:00:00Z")), userId: ben, timeZone: .gmt)
        _ = try await stores.meals.deleteMeal(userId: ben, id: gone.id)

        await #expect(throws: StoreError.self) { try await userData.importUserData(exported, into: ben) }
        do {
            try await userData.importUserData(exported, into: ben)
        } catch let error as StoreError {
            guard case .conflict = error else { Issue.record("expected a conflict, got \(error)"); return }
        }
        let after = try await userData.exportUserData(userId: ben)
        #expect(after.recordCount == 0)

        // A user's own analytics events do not make the account "used".
        let carol = try await stores.makeUser()
        try await stores.analytics.recordEvent(AnalyticsEvent(name: .sessionStart, occurredAt: stores.clock.now), userId: carol)
        #expect(try await userData.importUserData(exported, into: carol).meals == 2)
    }

    @Test("a row the stores would refuse fails the whole import: no profile, no meal, no event is left behind")
    func allOrNothing() async throws {
        let ana = try await makeAna()
        var exported = try await userData.exportUserData(userId: ana)
        exported.meals.append(StoredMeal(
            meal: Meal(name: "Too much", kcal: 12_000, loggedAt: Fixtures.utc("2026-03-01T12:00:00Z")),
            userId: ana, localDate: Fixtures.date("2026-03-01"), version: 99,
            createdAt: stores.clock.now, updatedAt: stores.clock.now
        ))
        let ben = try await stores.makeUser()

        await #expect(throws: StoreError.invalid(MealInput.Message.calories)) {
            try await userData.importUserData(exported, into: ben)
        }
        #expect(try await userData.exportUserData(userId: ben).recordCount == 0)
        let rows = try await stores.database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM loggedDays WHERE userId = ?", arguments: [AppDatabase.idText(ben)])
        }
        #expect(rows == 0)
    }

    @Test("an import into an unknown user is not found")
    func importUnknown() async throws {
        let ana = try await makeAna()
        let exported = try await userData.exportUserData(userId: ana)
        await #expect(throws: StoreError.notFound("User not found")) {
            try await userData.importUserData(exported, into: UUID())
        }
    }

    /// Tables that cannot hold a user's row: the change counter, the migrations' log and the food catalog.
    /// A new table without a `userId` column must be added here on purpose (or get a `userId`), so the deletion
    /// test below can never silently miss one.
    static let tablesWithoutUsers: Set<String> = [
        "syncVersion", "grdb_migrations",
        "foodGroup", "nutrientDefinition", "food", "foodNutrient", "householdMeasure", "foodCatalogInfo", "foodSearch",
    ]
    /// FTS5's own tables behind `foodSearch` (`foodSearch_data`, `_idx`, `_docsize`, `_config`, ...).
    static func isCatalogTable(_ name: String) -> Bool { name.hasPrefix("foodSearch_") }

    @Test("deleting an account leaves no row of the user in any table of the schema; another user's rows stay")
    func deleteEveryTable() async throws {
        let ana = try await makeAna()
        let ben = try await makeAna(2)  // another user with a row in every table as well
        let benKey = String(repeating: "2", count: 64)
        let anaText = AppDatabase.idText(ana), benText = AppDatabase.idText(ben)

        let tables = try await stores.database.writer.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        }
        func rows(of userText: String, throttleKey: String) async throws -> [String: Int] {
            try await stores.database.writer.read { db in
                var counts: [String: Int] = [:]
                for table in tables {
                    let columns = try db.columns(in: table).map(\.name)
                    if columns.contains("userId") {
                        counts[table] = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \"\(table)\" WHERE userId = ?", arguments: [userText])
                    } else if table == "users" {
                        counts[table] = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users WHERE id = ?", arguments: [userText])
                    } else if table == "loginFailures" {
                        counts[table] = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM loginFailures WHERE throttleKey = ?", arguments: [throttleKey])
                    }
                }
                return counts
            }
        }
        // Every table is either checked or known to hold no user's rows.
        let checked = try await rows(of: anaText, throttleKey: Self.anaThrottleKey)
        let unchecked = tables.filter { checked[$0] == nil && !Self.tablesWithoutUsers.contains($0) && !Self.isCatalogTable($0) }
        #expect(unchecked == [], "tables neither checked for the user's rows nor known to hold none")
        // The fixture really filled every table the store knows, so "0 after" means something.
        for table in ["users", "profiles", "meals", "weights", "loggedDays", "analytics_events", "dismissedTips", "credentials",
                      "sessions", "identities", "rateLimitEvents", "loginFailures"] {
            #expect((checked[table] ?? 0) > 0, "\(table) has no row of Ana before the deletion")
        }
        let benBefore = try await rows(of: benText, throttleKey: benKey)

        #expect(try await userData.deleteAccount(userId: ana, loginThrottleKeys: [Self.anaThrottleKey]))

        let after = try await rows(of: anaText, throttleKey: Self.anaThrottleKey)
        #expect(after.count == checked.count)
        for (table, count) in after.sorted(by: { $0.key < $1.key }) {
            #expect(count == 0, "\(table) still has \(count) row(s) of the deleted user")
        }
        #expect(try await rows(of: benText, throttleKey: benKey) == benBefore)
        #expect(try await userData.exportUserData(userId: ben).meals.count == 2)
        #expect(try await stores.users.user(id: ana) == nil)
        #expect(try await accounts.session(tokenHash: String(repeating: "1", count: 64)) == nil)
        #expect(try await accounts.session(tokenHash: String(repeating: "2", count: 64))?.userId == ben)
        // The email is free again.
        #expect(try await accounts.createAccount(id: UUID(), email: "ana@example.com", displayName: "", passwordHash: "x").email == "ana@example.com")
    }

    @Test("deleting an unknown user does nothing and says so")
    func deleteUnknown() async throws {
        #expect(try await userData.deleteAccount(userId: UUID(), loginThrottleKeys: []) == false)
    }
}
