import Foundation
import Testing
import WDietClient
import WDietCore
import WDietSQLite
import WDietStore
import WDietTestSupport

/// The outbox on its own and against the server's real rules (`SQLiteSyncStore` behind `StoreTransport`).
@Suite struct OutboxTests {
    @Test func repeatedEditsOfARowBecomeOneChangeWithTheFirstKey() throws {
        let keys = KeyCounter()
        let store = try ClientFixtures.store(keys: keys)
        let meal = ClientFixtures.meal()
        try store.saveMeal(meal)
        var edited = meal
        edited.name = "Porridge with berries"
        try store.saveMeal(edited)
        edited.kcal = 410
        try store.saveMeal(edited)

        let batch = try #require(try store.nextBatch(.data))
        #expect(batch.count == 1)
        let change = try #require(batch.request.changes.first)
        // k1 is the profile's change; the meal's first edit made k2, and the two later edits kept it.
        #expect(change.idempotencyKey == keys.key(2))
        #expect(change.op == .upsert)
        #expect(change.baseVersion == nil)
        #expect(change.meal?.name == "Porridge with berries")
        #expect(change.meal?.kcal == 410)
        #expect(try store.status().pending == 2) // the profile and the meal
    }

    @Test func aCreateThenADeleteOfAMealNeverPushedVanishes() throws {
        let store = try ClientFixtures.store()
        let meal = ClientFixtures.meal()
        try store.saveMeal(meal)
        try store.deleteMeal(id: meal.id)
        #expect(try store.nextBatch(.data) == nil)
        #expect(try store.records().filter { $0.key.entity == .meal }.isEmpty)
        #expect(try store.status().pending == 1) // only the profile
    }

    @Test func anEditThenADeleteOfASyncedMealIsOneDeleteFromTheSyncedVersion() async throws {
        let server = try await StoreTransport.fresh()
        let store = try ClientFixtures.store()
        let meal = ClientFixtures.meal()
        try store.saveMeal(meal)
        #expect(await ClientFixtures.engine(store, server).sync().isUpToDate)
        let synced = try #require(try store.records().first { $0.key.entity == .meal }?.serverVersion)

        var edited = meal
        edited.kcal = 500
        try store.saveMeal(edited)
        try store.deleteMeal(id: meal.id)
        let batch = try #require(try store.nextBatch(.data))
        #expect(batch.request.changes.map(\.op) == [.delete])
        #expect(batch.request.changes.first?.baseVersion == synced)
        #expect(batch.request.changes.first?.meal == nil)
    }

    /// The heart of the outbox: an acknowledgement marks a record synced only at the revision that was pushed.
    @Test func anEditMadeWhileAPushIsInFlightIsPushedNextFromTheAckedVersion() async throws {
        let server = try await StoreTransport.fresh()
        let faulty = FaultyTransport(server)
        let store = try ClientFixtures.store()
        #expect(await ClientFixtures.engine(store, server).sync().isUpToDate) // the profile
        let meal = ClientFixtures.meal(kcal: 500)
        try store.saveMeal(meal)
        // The user edits the meal while its first push is on its way.
        let edited = ClientFixtures.meal(kcal: 650, id: meal.id)
        let once = OnceFlag()
        faulty.beforePush = { if once.take() { try store.saveMeal(edited) } }
        #expect(await ClientFixtures.engine(store, faulty).sync().isUpToDate)

        let pushes = faulty.deliveredPushes.map(\.changes)
        #expect(pushes.count == 2)
        let first = try #require(pushes.first?.first)
        let second = try #require(pushes.last?.first)
        #expect(first.meal?.kcal == 500)
        #expect(second.meal?.kcal == 650)
        #expect(second.idempotencyKey != first.idempotencyKey)
        let firstVersion = try #require(second.baseVersion)
        let page = try await server.pull(cursor: 0, limit: 100)
        let onServer = try #require(page.items.first { $0.entity == .meal })
        #expect(onServer.meal?.kcal == 650)
        #expect(onServer.version > firstVersion)
        let record = try #require(try store.records().first { $0.key.entity == .meal })
        #expect(record.serverVersion == onServer.version)
        #expect(try store.status().pending == 0)
        #expect(try store.meal(id: meal.id)?.kcal == 650)
    }

    @Test func theIdempotencyKeySurvivesACrashAndTheReplayAppliesOnce() async throws {
        let path = ClientFixtures.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let server = try await StoreTransport.fresh()
        let keys = KeyCounter()
        var store: ClientStore? = try ClientFixtures.store(path: path, keys: keys)
        let meal = ClientFixtures.meal()
        try store!.saveMeal(meal)
        // The server applies the push; the answer is lost, and the app is killed before it retries.
        let dropping = FaultyTransport(server, script: [nil, .dropResponse])
        let outcome = await ClientFixtures.engine(store!, dropping, maxRetries: 0).sync()
        #expect(outcome == .offline(SyncTransportError.unreachable("connection reset (test)").description))
        store = nil

        // Restart from the same file; the user edits the meal before the retry goes out.
        let reopened = try ClientStore(path: path, makeKey: keys.make)
        #expect(try reopened.status().pending == 1)
        var edited = meal
        edited.kcal = 280
        try reopened.saveMeal(edited)
        #expect(try reopened.status().pending == 2) // the sent change, and the edit after it
        let recording = FaultyTransport(server)
        #expect(await ClientFixtures.engine(reopened, recording).sync().isUpToDate)

        let sent = recording.deliveredPushes.flatMap(\.changes)
        // The replay carries the first push's key and values; the edit goes next, from the version the replay answered.
        let firstKey = try #require(dropping.deliveredPushes.last?.changes.first?.idempotencyKey)
        #expect(sent.map(\.idempotencyKey).first == firstKey)
        #expect(sent.first?.meal?.kcal == 320)
        #expect(sent.last?.meal?.kcal == 280)
        #expect(sent.last?.baseVersion != nil)
        let meals = try await server.pull(cursor: 0, limit: 100).items.filter { $0.entity == .meal }
        #expect(meals.count == 1)
        #expect(meals.first?.meal?.kcal == 280)
        #expect(try reopened.status().pending == 0)
        #expect(try reopened.notices().isEmpty)
    }

    @Test func aChangeTheServerRefusesIsParkedWithANoticeAndTheRestGoesThrough() async throws {
        // Another account on the server already has this meal id: the server answers 409 id_in_use naming the change.
        let otherAccount = try await StoreTransport.fresh()
        let takenId = UUID()
        let otherStore = try ClientFixtures.store()
        try otherStore.saveMeal(ClientFixtures.meal(id: takenId))
        #expect(await ClientFixtures.engine(otherStore, otherAccount).sync().isUpToDate)
        let server = try await otherAccount.anotherUser()

        let store = try ClientFixtures.store()
        try store.saveMeal(ClientFixtures.meal("Taken", id: takenId))
        let fine = ClientFixtures.meal("Fine")
        try store.saveMeal(fine)
        #expect(await ClientFixtures.engine(store, server).sync().isUpToDate)

        let status = try store.status()
        #expect(status.pending == 1)
        #expect(status.parked.map(\.key.id) == [takenId.uuidString.lowercased()])
        #expect(status.notices.map(\.kind) == [.rejected])
        #expect(status.notices.first?.message.contains("already in use") == true)
        let onServer = try await server.pull(cursor: 0, limit: 100).items.compactMap(\.meal)
        #expect(onServer.map(\.name) == ["Fine"])
        // The meal is still on the device, and discarding the parked change removes it (it never reached the server).
        #expect(try store.meal(id: takenId) != nil)
        try store.discardParked(RecordKey(entity: .meal, uuid: takenId))
        #expect(try store.meal(id: takenId) == nil)
        #expect(try store.status().pending == 0)
    }

    @Test func aLostEditIsReplacedByTheServerCopyAndTheUserIsTold() async throws {
        let server = try await StoreTransport.fresh()
        let phone = try ClientFixtures.store()
        let tablet = try ClientFixtures.store(profile: false)
        let meal = ClientFixtures.meal(kcal: 500)
        try phone.saveMeal(meal)
        #expect(await ClientFixtures.engine(phone, server).sync().isUpToDate)
        #expect(await ClientFixtures.engine(tablet, server).sync().isUpToDate)
        #expect(try tablet.meal(id: meal.id)?.kcal == 500)

        try phone.saveMeal(ClientFixtures.meal(kcal: 600, id: meal.id))
        #expect(await ClientFixtures.engine(phone, server).sync().isUpToDate)
        // The tablet edits the copy it had (offline), then syncs: the phone's edit was first, so it wins.
        try tablet.saveMeal(ClientFixtures.meal(kcal: 700, id: meal.id))
        #expect(await ClientFixtures.engine(tablet, server).sync().isUpToDate)

        #expect(try tablet.meal(id: meal.id)?.kcal == 600)
        let notice = try #require(try tablet.notices().first)
        #expect(notice.kind == .lost)
        #expect(notice.message == "This meal was changed on another device; the other change was kept")
        #expect(notice.localJSON?.contains("\"kcal\":700") == true)
        #expect(notice.server?.meal?.kcal == 600)
        #expect(try tablet.status().pending == 0)
    }

    @Test(arguments: [ProfileResolution.keepLocal, .useServer])
    func aStaleProfileBecomesAKeepLocalOrUseServerConflictWhileMealsStillSync(_ resolution: ProfileResolution) async throws {
        let server = try await StoreTransport.fresh()
        let phone = try ClientFixtures.store()
        #expect(await ClientFixtures.engine(phone, server).sync().isUpToDate)
        let tablet = try ClientFixtures.store(profile: false)
        #expect(await ClientFixtures.engine(tablet, server).sync().isUpToDate)

        var phoneProfile = Fixtures.profile()
        phoneProfile.weightKg = 78
        try phone.saveProfile(phoneProfile)
        #expect(await ClientFixtures.engine(phone, server).sync().isUpToDate)
        var tabletProfile = Fixtures.profile()
        tabletProfile.activity = .light
        try tablet.saveProfile(tabletProfile)
        let meal = ClientFixtures.meal()
        try tablet.saveMeal(meal)
        #expect(await ClientFixtures.engine(tablet, server).sync().isUpToDate)

        let conflict = try #require(try tablet.profileConflict())
        #expect(conflict.local == tabletProfile)
        #expect(conflict.server?.profile == phoneProfile)
        #expect(conflict.base == Fixtures.profile())
        // The meal did not wait for the decision.
        #expect(try await server.pull(cursor: 0, limit: 100).items.contains { $0.meal?.id == meal.id })

        try tablet.resolveProfileConflict(resolution)
        #expect(await ClientFixtures.engine(tablet, server).sync().isUpToDate)
        #expect(await ClientFixtures.engine(phone, server).sync().isUpToDate)
        let expected = resolution == .keepLocal ? tabletProfile : phoneProfile
        #expect(try tablet.profile() == expected)
        #expect(try phone.profile() == expected)
        #expect(try tablet.profileConflict() == nil)
        #expect(try tablet.status().pending == 0)
    }
}

/// True the first time only.
final class OnceFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var taken = false

    func take() -> Bool {
        lock.withLock {
            defer { taken = true }
            return !taken
        }
    }
}

/// Analytics events ride the outbox like any change: recorded once on the server, whatever the retries, then
/// forgotten on the device (the server never hands them back).
@Suite struct ClientEventTests {
    @Test func anEventIsRecordedOnceThroughADroppedAnswerAndThenLeavesTheDevice() async throws {
        let server = try await StoreTransport.fresh()
        let store = try ClientFixtures.store()
        let event = AnalyticsEvent(name: .mealLogged, properties: ["source": "manual"], occurredAt: ClientFixtures.morning)
        try store.logEvent(event)
        let faulty = FaultyTransport(server, script: [nil, .dropResponse])
        #expect(await ClientFixtures.engine(store, faulty).sync().isUpToDate)

        #expect(faulty.deliveredPushes.count == 3) // the profile, the event (answer dropped), the event again
        #expect(faulty.deliveredPushes[1] == faulty.deliveredPushes[2])
        let recorded = try await SQLiteAnalyticsStore(database: server.database).events(userId: server.userId)
        #expect(recorded == [event])
        #expect(try store.status().pending == 0)
        #expect(try store.records().allSatisfy { $0.key.entity != .event })
    }

    @Test func anEventTheServerWouldRefuseIsRefusedAtOnce() throws {
        let store = try ClientFixtures.store()
        let tooMany = Dictionary(uniqueKeysWithValues: (0..<(SyncLimits.maxEventProperties + 1)).map { ("key_\($0)", "v") })
        #expect(throws: ClientError.self) {
            try store.logEvent(AnalyticsEvent(name: .mealLogged, properties: tooMany, occurredAt: ClientFixtures.morning))
        }
        #expect(throws: ClientError.invalid(StoreValidation.Message.instant)) {
            try store.logEvent(AnalyticsEvent(name: .mealLogged, occurredAt: Date(timeIntervalSince1970: 0)))
        }
        #expect(try store.status().pending == 1) // only the profile
    }
}

@Suite struct ClientPullTests {
    /// A pulled copy never overwrites a row with pending edits: the push decides that row, and the pulled copy is
    /// applied afterwards only if it is newer than what the push answered.
    @Test func aPullLeavesARowWithPendingEditsToThePush() async throws {
        let server = try await StoreTransport.fresh()
        let phone = try ClientFixtures.store()
        let tablet = try ClientFixtures.store(profile: false)
        let meal = ClientFixtures.meal(kcal: 500)
        try phone.saveMeal(meal)
        #expect(await ClientFixtures.engine(phone, server).sync().isUpToDate)
        #expect(await ClientFixtures.engine(tablet, server).sync().isUpToDate)
        try phone.saveMeal(ClientFixtures.meal(kcal: 600, id: meal.id))
        #expect(await ClientFixtures.engine(phone, server).sync().isUpToDate)

        try tablet.saveMeal(ClientFixtures.meal(kcal: 700, id: meal.id))
        let cursor = try tablet.cursor()
        let page = try await server.pull(cursor: cursor, limit: 100)
        #expect(page.items.contains { $0.meal?.kcal == 600 })
        try tablet.apply(page)
        #expect(try tablet.meal(id: meal.id)?.kcal == 700)
        #expect(try tablet.cursor() == page.nextCursor)
        #expect(try tablet.status().pending == 1)

        // The push loses (the phone was first); the server's copy and a notice replace the edit.
        #expect(await ClientFixtures.engine(tablet, server).sync().isUpToDate)
        #expect(try tablet.meal(id: meal.id)?.kcal == 600)
        #expect(try tablet.notices().map(\.kind) == [.lost])
    }
}

@Suite struct ClientAccountTests {
    @Test func aDeviceHoldingOneAccountsDataRefusesToSignInAsAnother() throws {
        let store = try ClientFixtures.store()
        let server = URL(string: "http://127.0.0.1:8080")!
        let first = ClientStore.Account(server: server, token: "a", userId: UUID(), email: "a@example.com")
        try store.signIn(first)
        #expect(try store.account() == first)
        // The same user again (a new token after the session ended) is fine.
        let again = ClientStore.Account(server: server, token: "b", userId: first.userId, email: "a@example.com")
        try store.signIn(again)
        #expect(try store.account() == again)
        let other = ClientStore.Account(server: server, token: "c", userId: UUID(), email: "b@example.com")
        #expect(throws: ClientError.invalid("This device holds another account's data; use another --store file for this account")) {
            try store.signIn(other)
        }
        #expect(try store.account() == again)
    }
}
