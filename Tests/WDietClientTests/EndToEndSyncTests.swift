import Foundation
import Testing
import WDietClient
import WDietCore
import WDietStore
import WDietTestSupport

/// The client engine against the real server over HTTP (docs/sync.md, issue 5's reliability tests), on SQLite and
/// on PostgreSQL.
@Suite struct EndToEndSyncTests {
    @Test(arguments: StoreBackend.allCases)
    func twoDevicesShareMealsWeightsRowsAndTheProfile(_ backend: StoreBackend) async throws {
        try await LiveServer.with(backend) { server in
            let account = try await server.guest()
            let log = PushLog()
            let phone = try Device("phone", server: server, account: account, log: log)
            let tablet = try Device("tablet", server: server, account: account, log: log)
            defer { phone.remove(); tablet.remove() }

            try phone.store.saveProfile(Fixtures.profile(timeZone: "America/New_York"))
            // 02:30 UTC is still the evening before in New York: the day comes from the profile's zone.
            let late = ClientFixtures.meal("Late snack", kcal: 250, at: Fixtures.utc("2026-03-02T02:30:00Z"))
            try phone.store.saveMeal(late)
            let weight = WeightEntry(kg: 81.4, loggedAt: Fixtures.utc("2026-03-01T12:00:00Z"))
            try phone.store.saveWeight(weight)
            let journalId = UUID()
            try phone.store.saveRow(collection: "diary", id: journalId, data: .object(["mood": .number(4), "note": .string("Slept well")]))
            #expect(await phone.sync().isUpToDate)
            #expect(await tablet.sync().isUpToDate)

            #expect(try tablet.store.meals(on: Fixtures.date("2026-03-01")).map(\.name) == ["Late snack"])
            #expect(try tablet.store.weights() == [weight])
            #expect(try tablet.store.row(collection: "diary", id: journalId) == .object(["mood": .number(4), "note": .string("Slept well")]))
            #expect(try tablet.store.profile()?.timeZoneIdentifier == "America/New_York")

            try tablet.store.deleteMeal(id: late.id)
            #expect(await tablet.sync().isUpToDate)
            #expect(await phone.sync().isUpToDate)
            #expect(try phone.store.meals(on: Fixtures.date("2026-03-01")).isEmpty)
            let onServer = try await server.snapshot(account)
            #expect(try phone.store.snapshot() == onServer)
            #expect(try tablet.store.snapshot() == onServer)
            #expect(onServer[RecordKey(entity: .meal, uuid: late.id)]?.deleted == true)
        }
    }

    /// A delete on one device and an edit of the same row on another, in both orders: the first to reach the
    /// server wins, the other device is told and shows the winner; nothing comes back or vanishes silently.
    @Test(arguments: StoreBackend.allCases, [true, false])
    func aDeleteAndAnEditNeverResurrectOrLoseARowSilently(_ backend: StoreBackend, deleteFirst: Bool) async throws {
        try await LiveServer.with(backend) { server in
            let account = try await server.guest()
            let log = PushLog()
            let phone = try Device("phone", server: server, account: account, log: log)
            let tablet = try Device("tablet", server: server, account: account, log: log)
            defer { phone.remove(); tablet.remove() }
            try phone.store.saveProfile(Fixtures.profile())
            let meal = ClientFixtures.meal(kcal: 500)
            try phone.store.saveMeal(meal)
            #expect(await phone.sync().isUpToDate)
            #expect(await tablet.sync().isUpToDate)

            // Both offline: the phone deletes the meal, the tablet edits it.
            try phone.store.deleteMeal(id: meal.id)
            try tablet.store.saveMeal(ClientFixtures.meal(kcal: 450, id: meal.id))
            let (first, second) = deleteFirst ? (phone, tablet) : (tablet, phone)
            #expect(await first.sync().isUpToDate)
            #expect(await second.sync().isUpToDate)
            #expect(await first.sync().isUpToDate)

            let key = RecordKey(entity: .meal, uuid: meal.id)
            let onServer = try #require(try await server.snapshot(account)[key])
            #expect(onServer.deleted == deleteFirst)
            #expect(try phone.store.snapshot()[key] == onServer)
            #expect(try tablet.store.snapshot()[key] == onServer)
            #expect(try first.store.notices().isEmpty)
            let notice = try #require(try second.store.notices().first)
            #expect(notice.kind == .lost)
            #expect(notice.message == (deleteFirst
                ? "This meal was deleted on another device; your change was not applied"
                : "This meal was changed on another device after you deleted it; it was kept"))
            if deleteFirst {
                // Having seen the delete, the tablet brings the meal back on purpose (Undo): that is applied.
                try tablet.store.saveMeal(ClientFixtures.meal(kcal: 450, id: meal.id))
                #expect(await tablet.sync().isUpToDate)
                #expect(await phone.sync().isUpToDate)
                #expect(try phone.store.meal(id: meal.id)?.kcal == 450)
                #expect(try await server.snapshot(account)[key]?.deleted == false)
            } else {
                #expect(try phone.store.meal(id: meal.id)?.kcal == 450)
            }
        }
    }

    /// Every push the devices made, sent again twice and shuffled: the server answers what it answered the first
    /// time and nothing changes — no duplicate, no new version.
    @Test(arguments: StoreBackend.allCases)
    func everyPushReplayedTwiceOutOfOrderChangesNothing(_ backend: StoreBackend) async throws {
        try await LiveServer.with(backend) { server in
            let account = try await server.guest()
            let log = PushLog()
            let devices = try (0..<3).map { try Device("d\($0)", server: server, account: account, log: log) }
            defer { devices.forEach { $0.remove() } }
            try devices[0].store.saveProfile(Fixtures.profile())
            #expect(await devices[0].sync().isUpToDate)
            var random = SeededRandom(seed: 11)
            var meals: [UUID] = []
            for round in 0..<6 {
                for device in devices {
                    _ = await device.sync()
                    for step in 0..<5 {
                        let known = try device.store.records().filter { $0.key.entity == .meal && !$0.deleted }.compactMap(\.key.uuid)
                        switch Int.random(in: 0..<4, using: &random) {
                        case 0 where !known.isEmpty:
                            try device.store.deleteMeal(id: known.randomElement(using: &random)!)
                        case 1 where !known.isEmpty:
                            let id = known.randomElement(using: &random)!
                            try device.store.saveMeal(ClientFixtures.meal("\(device.name) r\(round) s\(step)", kcal: Double(100 + step), id: id))
                        default:
                            let meal = ClientFixtures.meal("\(device.name) r\(round) s\(step)", kcal: Double(200 + round))
                            meals.append(meal.id)
                            try device.store.saveMeal(meal)
                        }
                    }
                    try device.store.saveWeight(WeightEntry(kg: 80 - Double(round) / 10, loggedAt: Fixtures.utc("2026-03-0\(round + 1)T06:00:00Z")))
                    #expect(await device.sync().isUpToDate)
                }
            }
            let before = try await server.snapshot(account)
            let pushes = log.all
            #expect(pushes.count >= 18)
            let transport = server.transport(account)
            let replays = (pushes + pushes).shuffled(using: &random)
            for (request, original) in replays {
                let answer = try await transport.push(request)
                #expect(answer == original)
            }
            let after = try await server.snapshot(account)
            #expect(after == before)
            // Every meal on the server is one a device made (a meal created and deleted before any push never
            // reaches it), once.
            let onServerMeals = after.keys.filter { $0.entity == .meal }.compactMap(\.uuid)
            #expect(Set(onServerMeals).isSubset(of: Set(meals)))
            #expect(onServerMeals.count > 30)
            // And the devices, syncing again, still agree with the server.
            for device in devices {
                #expect(await device.sync().isUpToDate)
                #expect(try device.store.snapshot() == after)
            }
        }
    }

    /// The same edits from devices whose clocks are a day fast, a day slow or right give the same server state:
    /// no rule of the protocol reads a device's clock.
    @Test(arguments: StoreBackend.allCases)
    func devicesWithClocksADayOffGiveTheSameResult(_ backend: StoreBackend) async throws {
        var outcomes: [[String: RecordState]] = []
        for offsets in [[0.0, 0.0], [86_400.0, -86_400.0], [-86_400.0, 86_400.0]] {
            let outcome = try await LiveServer.with(backend) { server in
                let account = try await server.guest()
                let log = PushLog()
                let a = try Device("a", server: server, account: account, log: log, clockOffset: offsets[0])
                let b = try Device("b", server: server, account: account, log: log, clockOffset: offsets[1])
                defer { a.remove(); b.remove() }
                try await Self.scriptedEdits(a, b)
                let onServer = try await server.snapshot(account)
                #expect(try a.store.snapshot() == onServer)
                #expect(try b.store.snapshot() == onServer)
                // Versions depend on the server's order only; compare by id, with values and deletions.
                return Dictionary(uniqueKeysWithValues: onServer.map { ("\($0.key)", RecordState(payload: $0.value.payload, deleted: $0.value.deleted, version: $0.value.version, localDate: $0.value.localDate)) })
            }
            outcomes.append(outcome)
        }
        #expect(outcomes[1] == outcomes[0])
        #expect(outcomes[2] == outcomes[0])
        #expect(outcomes[0].count == 6)
    }

    /// A fixed story of two devices: concurrent edits, a delete, a lost edit, the profile from both.
    static func scriptedEdits(_ a: Device, _ b: Device) async throws {
        let ids = (0..<4).map { UUID(uuidString: "00000000-0000-4000-8000-00000000000\($0)")! }
        try a.store.saveProfile(Fixtures.profile())
        for (index, id) in ids.enumerated() {
            try a.store.saveMeal(ClientFixtures.meal("Meal \(index)", kcal: Double(300 + index), at: Fixtures.utc("2026-03-01T0\(index + 6):00:00Z"), id: id))
        }
        #expect(await a.sync().isUpToDate)
        #expect(await b.sync().isUpToDate)
        try b.store.saveMeal(ClientFixtures.meal("Meal 0 by b", kcal: 310, at: Fixtures.utc("2026-03-01T06:00:00Z"), id: ids[0]))
        try a.store.saveMeal(ClientFixtures.meal("Meal 0 by a", kcal: 320, at: Fixtures.utc("2026-03-01T06:00:00Z"), id: ids[0]))
        try a.store.deleteMeal(id: ids[1])
        try b.store.saveMeal(ClientFixtures.meal("Meal 1 by b", kcal: 330, at: Fixtures.utc("2026-03-01T07:00:00Z"), id: ids[1]))
        try b.store.saveWeight(WeightEntry(id: UUID(uuidString: "00000000-0000-4000-8000-0000000000aa")!, kg: 79.5, loggedAt: Fixtures.utc("2026-03-01T05:00:00Z")))
        var profile = Fixtures.profile()
        profile.weightKg = 79.5
        try b.store.saveProfile(profile)
        #expect(await b.sync().isUpToDate)
        #expect(await a.sync().isUpToDate)
        #expect(await b.sync().isUpToDate)
    }
}
