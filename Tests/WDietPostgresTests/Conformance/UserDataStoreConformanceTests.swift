import Foundation
import GRDB
import Logging
import PostgresNIO
import Testing
import WDietCore
import WDietPostgres
import WDietSQLite
import WDietStore
import WDietTestSupport

/// `UserDataStore` on SQLite and PostgreSQL: export, import and account deletion, with the same rows, order and
/// messages on both.
@Suite("User data store conformance: export, import, account deletion")
struct UserDataStoreConformanceTests {
    static let berlin = Fixtures.zone("Europe/Berlin")
    static let anaThrottleKey = String(repeating: "a", count: 64)

    /// Ana: an account with a password, a profile, two live meals (one late in the evening, which is the next
    /// day in Berlin), a deleted meal, a weight, an analytics event, a dismissed tip, an Apple identity, a session,
    /// a counted profile update and a sign-in failure: a row in every table that can hold one of hers.
    static func makeAna(_ stores: CoachStores, _ n: Int = 1) async throws -> UUID {
        let email = n == 1 ? "ana@example.com" : "ana\(n)@example.com"
        let ana = try await stores.accounts.createAccount(
            id: UUID(), email: email, displayName: "Ana", passwordHash: "$2b$12$not-a-real-hash-but-stored"
        ).id
        /// Fixed ids for the first Ana; later ones get fresh ids (ids are unique across users).
        func id(_ text: String) -> UUID { n == 1 ? UUID(uuidString: text)! : UUID() }
        _ = try await stores.profiles.saveProfile(Fixtures.profile(), userId: ana, expectedVersion: nil)
        stores.clock.advance(seconds: 600)
        _ = try await stores.meals.saveMeal(
            Meal(id: id("00000000-0000-4000-8000-00000000000a"), name: "Porridge, \"oat\"", kcal: 350,
                 protein: 12, carbs: 60, fat: 6, loggedAt: Fixtures.utc("2026-03-01T07:30:00Z")),
            userId: ana, timeZone: berlin
        )
        _ = try await stores.meals.saveMeal(
            Meal(id: id("00000000-0000-4000-8000-00000000000b"), name: "Chicken breast", foodId: "05064",
                 grams: 150, kcal: 247.5, protein: 46.5, carbs: 0, fat: 5.4, fiber: 0, source: .database,
                 loggedAt: Fixtures.utc("2026-03-01T23:30:00Z")),
            userId: ana, timeZone: berlin
        )
        let gone = try await stores.meals.saveMeal(
            Meal(name: "Deleted snack", kcal: 120, loggedAt: Fixtures.utc("2026-03-01T10:00:00Z")), userId: ana, timeZone: berlin
        )
        _ = try await stores.meals.deleteMeal(userId: ana, id: gone.id)
        _ = try await stores.weights.saveWeight(
            WeightEntry(id: id("00000000-0000-4000-8000-0000000000c1"), kg: 80.4, loggedAt: Fixtures.utc("2026-03-01T06:00:00Z")),
            userId: ana, timeZone: berlin
        )
        try await stores.analytics.recordEvent(
            AnalyticsEvent(id: id("00000000-0000-4000-8000-0000000000e1"), name: .screenView,
                           properties: ["screen_name": "dashboard"], occurredAt: Fixtures.utc("2026-03-01T08:00:00Z")),
            userId: ana
        )
        try await stores.tips.dismissTip(.eatingWindow, userId: ana)
        try await stores.identities.link(
            userId: ana, issuer: "https://appleid.apple.com", subject: "apple-subject-\(n)", email: "ana@privaterelay.appleid.com")
        let now = stores.clock.now
        try await stores.accounts.createSession(AccountSession(
            tokenHash: String(repeating: "\(n)", count: 64), userId: ana, kind: .api,
            createdAt: now, expiresAt: now.addingTimeInterval(86_400), lastUsedAt: now
        ))
        _ = try await stores.rateLimits.acquire(.profileUpdate, userId: ana, limit: 10, window: 3_600, now: now)
        try await stores.throttle.recordFailure(
            keys: [n == 1 ? anaThrottleKey : String(repeating: "\(n)", count: 64)], now: now, window: 900)
        // A journal entry synced as a generic row, and one deleted since (a tombstone, left out of the export).
        let entry = id("00000000-0000-4000-8000-0000000000f1"), dropped = UUID()
        _ = try await stores.sync.push([
            SyncChange(idempotencyKey: "journal-\(n)", entity: .row, op: .upsert, id: entry, collection: "diary", data: journalEntry),
            SyncChange(idempotencyKey: "dropped-\(n)", entity: .row, op: .upsert, id: dropped, collection: "diary", data: .object([:])),
        ], userId: ana)
        _ = try await stores.sync.push(
            [SyncChange(idempotencyKey: "drop-\(n)", entity: .row, op: .delete, id: dropped, collection: "diary")], userId: ana)
        return ana
    }

    static let journalEntry = SyncJSON.object(["mood": .number(4), "note": .string("Slept well, \"ate\" early")])

    @Test("the export holds the account, profile, live meals and weights, events, tips and identities, with worked values",
          arguments: StoreBackend.allCases)
    func exportContents(_ backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let ana = try await Self.makeAna(stores)
            let other = try await stores.makeUser(email: "ben@example.com")
            _ = try await stores.meals.saveMeal(
                Meal(name: "Ben's lunch", kcal: 700, loggedAt: Fixtures.utc("2026-03-01T12:00:00Z")), userId: other, timeZone: .gmt)

            // Settings → Language and Appearance are exported with the account; Ben's are not Ana's.
            try await stores.accounts.setLanguage(.german, userId: ana)
            try await stores.accounts.setAppearance(.dark, userId: ana)
            try await stores.accounts.setAppearance(.light, userId: other)
            let export = try await stores.userData.exportUserData(userId: ana)

            #expect(export.account.language == .german)
            #expect(export.account.appearance == .dark)
            #expect(try await stores.userData.exportUserData(userId: other).account.appearance == .light)
            #expect(try await stores.userData.exportUserData(userId: other).account.language == nil)
            #expect(export.account.id == ana)
            #expect(export.account.email == "ana@example.com")
            #expect(export.account.displayName == "Ana")
            #expect(export.account.createdAt == Fixtures.utc("2026-03-01T09:00:00Z"))
            #expect(export.account.identities == [
                UserDataExport.Identity(
                    issuer: "https://appleid.apple.com", email: "ana@privaterelay.appleid.com",
                    linkedAt: Fixtures.utc("2026-03-01T09:10:00Z")),
            ])
            #expect(export.profile?.profile == Fixtures.profile())
            // The deleted snack is left out; oldest first; the 23:30 UTC meal is on 2 March in Berlin (UTC+1).
            #expect(export.meals.map(\.meal.name) == ["Porridge, \"oat\"", "Chicken breast"])
            #expect(export.meals.map(\.localDate.iso) == ["2026-03-01", "2026-03-02"])
            #expect(export.meals[1].meal.kcal == 247.5)
            #expect(export.meals[1].meal.foodId == "05064")
            #expect(export.meals[1].meal.grams == 150)
            #expect(export.meals[0].createdAt == Fixtures.utc("2026-03-01T09:10:00Z"))
            // Versions as stored: the account is 1 of the counter, the profile drew 2, the meals 3 and 4.
            #expect(export.profile?.version == 2)
            #expect(export.meals.map(\.version) == [3, 4])
            #expect(export.weights.map(\.entry.kg) == [80.4])
            #expect(export.weights.first?.localDate.iso == "2026-03-01")
            #expect(export.analyticsEvents.map(\.properties) == [["screen_name": "dashboard"]])
            #expect(export.dismissedTips.map(\.tipId) == ["eating-window"])
            // The live journal row only, with its object as pushed.
            #expect(export.rows.map(\.collection) == ["diary"])
            #expect(export.rows.map(\.id) == [UUID(uuidString: "00000000-0000-4000-8000-0000000000f1")!])
            #expect(export.rows.first?.data == Self.journalEntry)
            #expect(export.recordCount == 1 + 2 + 1 + 1 + 1 + 1)
        }
    }

    @Test("an unknown user, or one marked deleted, is not found", arguments: StoreBackend.allCases)
    func exportUnknown(_ backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            await #expect(throws: StoreError.notFound("User not found")) {
                _ = try await stores.userData.exportUserData(userId: UUID())
            }
            let gone = try await stores.makeUser()
            try await Self.tombstoneUser(gone, in: stores)
            await #expect(throws: StoreError.notFound("User not found")) {
                _ = try await stores.userData.exportUserData(userId: gone)
            }
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
        // A row keeps its id (unique per user), so it is part of the value.
        for r in export.rows {
            lines.append("row \(r.collection) \(r.id) \((try? r.data.canonicalText()) ?? "unreadable") \(r.createdAt) \(r.updatedAt)")
        }
        return lines
    }

    @Test("import into a fresh account beside the exporter: same counts and values, new ids, the exporter untouched",
          arguments: StoreBackend.allCases)
    func roundTrip(_ backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let ana = try await Self.makeAna(stores)
            let exported = try await stores.userData.exportUserData(userId: ana)
            let ben = try await stores.makeUser(email: "ben@example.com")
            let benVersion = try #require(try await stores.users.user(id: ben)).version

            let summary = try await stores.userData.importUserData(exported, into: ben)

            #expect(summary == UserDataImportSummary(
                profiles: 1, meals: 2, weights: 1, analyticsEvents: 1, dismissedTips: 1, rows: 1, newIds: 4))
            let again = try await stores.userData.exportUserData(userId: ben)
            #expect(Self.values(again) == Self.values(exported))
            #expect(Self.values(again).count == 7)
            #expect(Set(again.meals.map(\.id)).isDisjoint(with: exported.meals.map(\.id)))
            #expect(again.weights.first?.id != exported.weights.first?.id)
            #expect(again.analyticsEvents.first?.id != exported.analyticsEvents.first?.id)
            // Versions are the store's, drawn anew after the account's own in the order written: profile, the two
            // meals, the weight, (the event), the tip. (SQLite's counter is the database's, PostgreSQL's Ben's.)
            #expect(again.profile?.version == benVersion + 1)
            #expect(again.meals.map(\.version) == [benVersion + 2, benVersion + 3])
            #expect(again.weights.map(\.version) == [benVersion + 4])
            #expect(again.dismissedTips.map(\.version) == [benVersion + 6])
            #expect(again.rows.map(\.version) == [benVersion + 7])
            // Ben's journal row is his own: pulled by his devices like any row he pushed.
            let pulled = try await stores.sync.pull(userId: ben, after: 0, limit: 100)
            #expect(pulled.items.filter { $0.entity == .row }.map(\.data) == [Self.journalEntry])
            #expect(again.account.email == "ben@example.com")
            #expect(again.account.identities == [])
            // The day totals and streak read the imported rows (the trigger-kept logged days counted them).
            #expect(try await stores.meals.meals(userId: ben, on: Fixtures.date("2026-03-02")).map(\.meal.kcal) == [247.5])
            #expect(try await stores.loggedDays.loggedDays(userId: ben, in: Self.year) == [
                Fixtures.date("2026-03-01"), Fixtures.date("2026-03-02"),
            ])
            #expect(try await stores.userData.exportUserData(userId: ana) == exported)
        }
    }

    static let year = Fixtures.date("2026-01-01")...Fixtures.date("2026-12-31")

    @Test("import into another database keeps every id: they are free there", arguments: StoreBackend.allCases)
    func keepsFreeIds(_ backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let ana = try await Self.makeAna(stores)
            let exported = try await stores.userData.exportUserData(userId: ana)
            try await backend.withCoachStores { elsewhere in
                let newcomer = try await elsewhere.makeUser()

                let summary = try await elsewhere.userData.importUserData(exported, into: newcomer)

                #expect(summary.newIds == 0)
                let imported = try await elsewhere.userData.exportUserData(userId: newcomer)
                #expect(imported.meals.map(\.id) == exported.meals.map(\.id))
                #expect(imported.weights.map(\.id) == exported.weights.map(\.id))
                #expect(imported.analyticsEvents.map(\.id) == exported.analyticsEvents.map(\.id))
                #expect(Self.values(imported) == Self.values(exported))
            }
        }
    }

    @Test("an account with a profile, a meal (even deleted), a weight, a journal row (even deleted) or a dismissed tip refuses an import, and nothing is written",
          arguments: StoreBackend.allCases)
    func refusesAccountWithData(_ backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let ana = try await Self.makeAna(stores)
            let exported = try await stores.userData.exportUserData(userId: ana)
            let conflict = StoreError.conflict("This account already has data. Import into a new account, before onboarding.")

            let ben = try await stores.makeUser()
            let gone = try await stores.meals.saveMeal(
                Meal(name: "Tea", kcal: 2, loggedAt: Fixtures.utc("2026-03-01T10:00:00Z")), userId: ben, timeZone: .gmt)
            _ = try await stores.meals.deleteMeal(userId: ben, id: gone.id)
            await #expect(throws: conflict) { try await stores.userData.importUserData(exported, into: ben) }
            #expect(try await stores.userData.exportUserData(userId: ben).recordCount == 0)

            let withProfile = try await stores.makeUser()
            _ = try await stores.profiles.saveProfile(Fixtures.profile(), userId: withProfile, expectedVersion: nil)
            await #expect(throws: conflict) { try await stores.userData.importUserData(exported, into: withProfile) }

            let withWeight = try await stores.makeUser()
            _ = try await stores.weights.saveWeight(
                WeightEntry(kg: 70, loggedAt: Fixtures.utc("2026-03-01T06:00:00Z")), userId: withWeight, timeZone: .gmt)
            await #expect(throws: conflict) { try await stores.userData.importUserData(exported, into: withWeight) }

            let withJournal = try await stores.makeUser()
            let row = UUID()
            _ = try await stores.sync.push(
                [SyncChange(idempotencyKey: "j", entity: .row, op: .upsert, id: row, collection: "diary", data: .object([:]))],
                userId: withJournal)
            _ = try await stores.sync.push(
                [SyncChange(idempotencyKey: "j-del", entity: .row, op: .delete, id: row, collection: "diary")], userId: withJournal)
            await #expect(throws: conflict) { try await stores.userData.importUserData(exported, into: withJournal) }

            let withTip = try await stores.makeUser()
            try await stores.tips.dismissTip(.learnWelcome, userId: withTip)
            await #expect(throws: conflict) { try await stores.userData.importUserData(exported, into: withTip) }
            #expect(try await stores.userData.exportUserData(userId: withTip).recordCount == 1)

            // A user's own analytics events do not make the account "used".
            let carol = try await stores.makeUser()
            try await stores.analytics.recordEvent(AnalyticsEvent(name: .sessionStart, occurredAt: stores.clock.now), userId: carol)
            #expect(try await stores.userData.importUserData(exported, into: carol).meals == 2)
        }
    }

    @Test("an event the user already has is not recorded twice", arguments: StoreBackend.allCases)
    func skipsOwnEvents(_ backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let carol = try await stores.makeUser()
            try await stores.analytics.recordEvent(
                AnalyticsEvent(name: .sessionStart, occurredAt: Fixtures.utc("2026-03-01T08:00:00Z")), userId: carol)
            let exported = try await stores.userData.exportUserData(userId: carol)

            let summary = try await stores.userData.importUserData(exported, into: carol)

            #expect(summary == UserDataImportSummary())
            #expect(try await stores.analytics.events(userId: carol) == exported.analyticsEvents)
        }
    }

    @Test("a row the stores would refuse fails the whole import: no profile, no meal, no event is left behind",
          arguments: StoreBackend.allCases)
    func allOrNothing(_ backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let ana = try await Self.makeAna(stores)
            var exported = try await stores.userData.exportUserData(userId: ana)
            exported.meals.append(StoredMeal(
                meal: Meal(name: "Too much", kcal: 12_000, loggedAt: Fixtures.utc("2026-03-01T12:00:00Z")),
                userId: ana, localDate: Fixtures.date("2026-03-01"), version: 99,
                createdAt: stores.clock.now, updatedAt: stores.clock.now
            ))
            let ben = try await stores.makeUser()

            await #expect(throws: StoreError.invalid(MealInput.Message.calories)) {
                try await stores.userData.importUserData(exported, into: ben)
            }
            #expect(try await stores.userData.exportUserData(userId: ben).recordCount == 0)
            #expect(try await stores.loggedDays.loggedDays(userId: ben, in: Self.year).isEmpty)
        }
    }

    @Test("a generic row the sync push would refuse (its collection, its data) fails the whole import", arguments: StoreBackend.allCases)
    func badRowsRefused(_ backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let ana = try await Self.makeAna(stores)
            let exported = try await stores.userData.exportUserData(userId: ana)
            let ben = try await stores.makeUser()
            var badCollection = exported
            badCollection.rows[0].collection = "My Journal"
            await #expect(throws: StoreError.invalid("A row's collection is a lowercase name such as \"journal\"")) {
                try await stores.userData.importUserData(badCollection, into: ben)
            }
            var notAnObject = exported
            notAnObject.rows[0].data = .array([.number(1)])
            await #expect(throws: StoreError.invalid("An upsert of a row carries a JSON object as data")) {
                try await stores.userData.importUserData(notAnObject, into: ben)
            }
            #expect(try await stores.userData.exportUserData(userId: ben).recordCount == 0)
        }
    }

    /// Ana's export with `count` more meals (fresh ids, an hour apart), big enough for several of SQLite's chunks.
    static func bigExport(_ stores: CoachStores, meals count: Int) async throws -> UserDataExport {
        let ana = try await Self.makeAna(stores)
        var exported = try await stores.userData.exportUserData(userId: ana)
        let first = Fixtures.utc("2026-01-01T08:00:00Z")
        exported.meals += (0..<count).map { index in
            let at = first.addingTimeInterval(Double(index) * 3_600)
            return StoredMeal(
                meal: Meal(name: "Meal \(index)", kcal: 300, loggedAt: at), userId: ana,
                localDate: LocalDate(at, in: berlin), version: 1, createdAt: at, updatedAt: at)
        }
        return exported
    }

    @Test("two imports into one account at once (two connections): one lands, the other is refused, each row once",
          arguments: StoreBackend.allCases)
    func twoImportsAtOnce(_ backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let exported = try await Self.bigExport(stores, meals: 1_200)
            let ben = try await stores.makeUser()
            let userData = stores.userData
            func attempt() async -> Result<UserDataImportSummary, any Error> {
                do { return .success(try await userData.importUserData(exported, into: ben)) } catch { return .failure(error) }
            }
            async let first = attempt()
            async let second = attempt()
            let outcomes = await [first, second]

            let landed = outcomes.compactMap { try? $0.get() }
            #expect(landed.map(\.meals) == [1_202])
            let refused = outcomes.compactMap { outcome -> StoreError? in
                if case .failure(let error) = outcome { return error as? StoreError }
                return nil
            }
            #expect(refused == [StoreError.conflict("This account already has data. Import into a new account, before onboarding.")])
            let imported = try await stores.userData.exportUserData(userId: ben)
            #expect(imported.meals.count == 1_202)
            #expect(imported.weights.count == 1)
        }
    }

    // No time limit of minutes: in the full suite a task has waited ~48 s for a thread (BoundedWaitTests), and a
    // limit that cancels the body left the holder's transaction open. Every wait below is bounded instead, and the
    // held row is let go on every path, so a regression fails (the second import not answered while the row is
    // held) rather than hangs.
    @Test("PostgreSQL: a second import into an account whose import is under way is refused at once, not after it")
    func postgresRefusesAtOnce() async throws {
        try await StoreBackend.postgres.withCoachStores { stores in
            guard case .postgres(let client) = stores.database else { return }
            let exported = try await Self.bigExport(stores, meals: 10)
            let ben = try await stores.makeUser()
            let userData = stores.userData
            // Another connection holds Ben's row (as a save of his from another device does, mid-transaction): the
            // first import takes its lock on the account, then waits for the row.
            let (held, release) = AsyncStream.makeStream(of: Void.self)
            let (holding, holds) = AsyncStream.makeStream(of: Void.self)
            let holder = Task {
                try await client.withTransaction(logger: Logger(label: "test")) { connection in
                    try await connection.query("SELECT 1 FROM users WHERE id = \(ben) FOR NO KEY UPDATE", logger: Logger(label: "test"))
                    holds.yield()
                    for await _ in held { break }
                }
            }
            for await _ in holding { break }
            let first = Task { try await userData.importUserData(exported, into: ben) }
            do {
                // Until the first import waits for the row (a backend of this test's database waiting for a lock).
                let waiting = await BoundedWait.finishes(within: .seconds(180)) {
                    while (try? await Self.count(
                        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'", client)) == 0 {
                        try? await Task.sleep(for: .milliseconds(10))
                    }
                }
                try #require(waiting, "the first import never waited for the held row")

                // Before: the second import waited behind the first (here: for as long as the row is held).
                let second = Task { try await userData.importUserData(exported, into: ben) }
                let answeredWhileHeld = await BoundedWait.finishes(within: .seconds(120)) { _ = await second.result }
                release.yield()
                #expect(answeredWhileHeld, "the second import waited for the first instead of being refused at once")
                await #expect(throws: StoreError.conflict("This account already has data. Import into a new account, before onboarding.")) {
                    try await second.value
                }
            } catch {
                release.yield()
                throw error
            }
            try await holder.value
            #expect(try await first.value.meals == 12)
            #expect(try await stores.userData.exportUserData(userId: ben).meals.count == 12)
        }
    }

    static func count(_ query: PostgresQuery, _ client: PostgresClient) async throws -> Int {
        for try await value in try await client.query(query).decode(Int.self) { return value }
        return -1
    }

    @Test("an import into an unknown user is not found", arguments: StoreBackend.allCases)
    func importUnknown(_ backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let ana = try await Self.makeAna(stores)
            let exported = try await stores.userData.exportUserData(userId: ana)
            await #expect(throws: StoreError.notFound("User not found")) {
                try await stores.userData.importUserData(exported, into: UUID())
            }
        }
    }

    @Test("deleting an account leaves no row of the user in any table of the schema; another user's rows stay",
          arguments: StoreBackend.allCases)
    func deleteEveryTable(_ backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let ana = try await Self.makeAna(stores)
            let ben = try await Self.makeAna(stores, 2)  // another user with a row in every table as well
            let benKey = String(repeating: "2", count: 64)
            let schema = try await UserTables.read(stores.database)

            // Every table is either checked or known to hold no user's rows.
            #expect(schema.unchecked == [], "tables neither checked for the user's rows nor known to hold none")
            let before = try await schema.rows(of: ana, throttleKey: Self.anaThrottleKey)
            // The fixture really filled every table the store knows, so "0 after" means something.
            for table in schema.filledByFixture {
                #expect((before[table] ?? 0) > 0, "\(table) has no row of Ana before the deletion")
            }
            let benBefore = try await schema.rows(of: ben, throttleKey: benKey)

            #expect(try await stores.userData.deleteAccount(userId: ana, loginThrottleKeys: [Self.anaThrottleKey]))

            let after = try await schema.rows(of: ana, throttleKey: Self.anaThrottleKey)
            #expect(after.count == before.count)
            for (table, count) in after.sorted(by: { $0.key < $1.key }) {
                #expect(count == 0, "\(table) still has \(count) row(s) of the deleted user")
            }
            #expect(try await schema.rows(of: ben, throttleKey: benKey) == benBefore)
            #expect(try await stores.userData.exportUserData(userId: ben).meals.count == 2)
            #expect(try await stores.users.user(id: ana) == nil)
            #expect(try await stores.accounts.session(tokenHash: String(repeating: "1", count: 64)) == nil)
            #expect(try await stores.accounts.session(tokenHash: String(repeating: "2", count: 64))?.userId == ben)
            // The email is free again.
            #expect(try await stores.accounts.createAccount(
                id: UUID(), email: "ana@example.com", displayName: "", passwordHash: "x").email == "ana@example.com")
        }
    }

    @Test("deleting an unknown user does nothing and says so", arguments: StoreBackend.allCases)
    func deleteUnknown(_ backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let ana = try await stores.makeUser()
            #expect(try await stores.userData.deleteAccount(userId: UUID(), loginThrottleKeys: []) == false)
            #expect(try await stores.users.user(id: ana) != nil)
        }
    }

    /// Marks the user deleted (a tombstone), as sync does.
    static func tombstoneUser(_ id: UUID, in stores: CoachStores) async throws {
        switch stores.database {
        case .sqlite(let database):
            try await database.writer.write { db in
                try db.execute(
                    sql: "UPDATE users SET deletedAt = '2026-03-02T00:00:00.000Z' WHERE id = ?", arguments: [WireFormat.idText(id)])
            }
        case .postgres(let client):
            try await client.query("UPDATE users SET deleted_at = '2026-03-02T00:00:00Z' WHERE id = \(id)")
        }
    }
}

/// Every table of the schema, read from the database itself (not from the store's list), and how to count one
/// user's rows in each: by the user column, `users` by id, the login failures by the keys the caller passes.
struct UserTables {
    let database: CoachStores.Database
    /// Tables with a user column.
    let userTables: [String]
    /// Every other table that is neither `users`, the login failures, nor known to hold no user's rows.
    let unchecked: [String]
    /// The tables the Ana fixture fills (so the deletion test's zeros mean something).
    let filledByFixture: [String]

    /// Tables that cannot hold a user's row: the change counter, the migrations' log and the food catalog.
    /// A new table without a user column must be added here on purpose (or get one), so the deletion test can
    /// never silently miss one.
    static let sqliteTablesWithoutUsers: Set<String> = [
        "syncVersion", "grdb_migrations",
        "foodGroup", "nutrientDefinition", "food", "foodNutrient", "householdMeasure", "foodCatalogInfo", "foodSearch",
    ]
    static let postgresTablesWithoutUsers: Set<String> = [
        "schema_migrations", "food_group", "nutrient_definition", "food", "food_nutrient", "household_measure",
        "food_search_word", "food_catalog_info",
    ]

    static func read(_ database: CoachStores.Database) async throws -> UserTables {
        switch database {
        case .sqlite(let sqlite):
            let (tables, withUser) = try await sqlite.writer.read { db in
                let tables = try String.fetchAll(
                    db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
                let withUser = try tables.filter { try db.columns(in: $0).map(\.name).contains("userId") }
                return (tables, withUser)
            }
            // FTS5's own tables behind `foodSearch` (`foodSearch_data`, `_idx`, `_docsize`, `_config`, ...).
            let unchecked = tables.filter {
                !withUser.contains($0) && !["users", "loginFailures"].contains($0) && !sqliteTablesWithoutUsers.contains($0)
                    && !$0.hasPrefix("foodSearch_")
            }
            return UserTables(
                database: database, userTables: withUser, unchecked: unchecked,
                filledByFixture: ["users", "profiles", "meals", "weights", "loggedDays", "analytics_events", "dismissedTips",
                                  "credentials", "sessions", "identities", "rateLimitEvents", "loginFailures"])
        case .postgres(let client):
            var tables: [String] = []
            for try await name in try await client.query("""
                SELECT table_name::text FROM information_schema.tables
                WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name
                """).decode(String.self) { tables.append(name) }
            var withUser: [String] = []
            for try await name in try await client.query("""
                SELECT table_name::text FROM information_schema.columns
                WHERE table_schema = 'public' AND column_name = 'user_id' ORDER BY table_name
                """).decode(String.self) { withUser.append(name) }
            let unchecked = tables.filter {
                !withUser.contains($0) && !["users", "login_failures"].contains($0) && !postgresTablesWithoutUsers.contains($0)
            }
            return UserTables(
                database: database, userTables: withUser, unchecked: unchecked,
                filledByFixture: ["users", "profiles", "meals", "weights", "logged_days", "analytics_events", "dismissed_tips",
                                  "credentials", "sessions", "identities", "rate_limit_events", "login_failures"])
        }
    }

    /// The user's rows per table.
    func rows(of userId: UUID, throttleKey: String) async throws -> [String: Int] {
        switch database {
        case .sqlite(let sqlite):
            let user = WireFormat.idText(userId)
            return try await sqlite.writer.read { db in
                var counts: [String: Int] = [:]
                for table in userTables {
                    counts[table] = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \"\(table)\" WHERE userId = ?", arguments: [user])
                }
                counts["users"] = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users WHERE id = ?", arguments: [user])
                counts["loginFailures"] = try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM loginFailures WHERE throttleKey = ?", arguments: [throttleKey])
                return counts
            }
        case .postgres(let client):
            func count(_ query: PostgresQuery) async throws -> Int {
                for try await value in try await client.query(query).decode(Int.self) { return value }
                return -1
            }
            var counts: [String: Int] = [:]
            for table in userTables {
                counts[table] = try await count("SELECT count(*) FROM \(unescaped: "\"\(table)\"") WHERE user_id = \(userId)")
            }
            counts["users"] = try await count("SELECT count(*) FROM users WHERE id = \(userId)")
            counts["login_failures"] = try await count("SELECT count(*) FROM login_failures WHERE throttle_key = \(throttleKey)")
            return counts
        }
    }
}
