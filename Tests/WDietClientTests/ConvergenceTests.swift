import Foundation
import Testing
import WDietClient
import WDietCore
import WDietStore
import WDietTestSupport

/// Issue 5's convergence test: 10 devices of one user, 200 random edits each to shared rows, going offline and
/// online, losing answers to injected faults (dropped responses after the server applied a push, 5xx, 429,
/// timeouts) and being killed and restarted from their database files, all at once. Then all sync: every device
/// and the server hold identical data, every outbox is empty, and no write the server acknowledged was lost.
@Suite struct ConvergenceTests {
    static let devices = 10
    static let editsPerDevice = 200

    @Test(arguments: StoreBackend.allCases)
    func tenDevicesConvergeAfterRandomEditsFaultsAndRestarts(_ backend: StoreBackend) async throws {
        try await LiveServer.with(backend) { server in
            let account = try await server.guest()
            let log = PushLog()
            let devices = try (0..<Self.devices).map {
                try Device("c\($0)", server: server, account: account, log: log, faultSeed: UInt64(100 + $0), faultRate: 0.15)
            }
            defer { devices.forEach { $0.remove() } }

            // Shared rows to fight over: 30 meals, 10 weights, 5 free-form rows, 5 journal entries with photos and
            // recordings (issue 18), 4 favourites, 3 saved meals (issue 17) and the profile.
            let seed = devices[0]
            try seed.store.saveProfile(Fixtures.profile())
            let meals = (0..<30).map { ClientFixtures.meal("Shared \($0)", kcal: Double(200 + $0), at: Fixtures.utc("2026-03-01T08:00:00Z")) }
            for meal in meals { try seed.store.saveMeal(meal) }
            let weights = (0..<10).map { WeightEntry(kg: 80 + Double($0) / 10, loggedAt: Fixtures.utc("2026-03-01T06:00:00Z")) }
            for weight in weights { try seed.store.saveWeight(weight) }
            let rows = (0..<5).map { _ in UUID() }
            for row in rows { try seed.store.saveRow(collection: "diary", id: row, data: .object(["mood": .number(3)])) }
            // The photos and recordings they name are uploaded first, as a client does (the push refuses others).
            let media = try await server.uploadedMedia(userId: account.userId, count: 12)
            let journal = (0..<5).map { Self.journalEntry(id: UUID(), tag: "seed \($0)", media: [media[$0]]) }
            for entry in journal { try seed.store.saveJournalEntry(entry, today: Self.journalToday) }
            let favourites = (0..<4).map { Favourite(name: "Favourite \($0)", kcal: Double(100 + $0), createdAt: Fixtures.utc("2026-03-01T08:00:00Z")) }
            for favourite in favourites { try seed.store.saveFavourite(favourite) }
            let savedMeals = (0..<3).map { Self.savedMeal(id: UUID(), tag: "seed \($0)", kcal: 300) }
            for saved in savedMeals { try seed.store.saveSavedMeal(saved) }
            seed.faults.setScript([nil, nil, nil, nil])
            #expect(await seed.sync(maxRetries: 8).isUpToDate)

            // Local edits that the device never heard back about are either acknowledged by the server (in the log)
            // or told to the user (a notice): collect the devices' last value per row to check afterwards.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, device) in devices.enumerated() {
                    group.addTask {
                        try await Self.randomLife(
                            device, index: index, meals: meals.map(\.id), weights: weights.map(\.id), rows: rows,
                            journal: journal.map(\.id), media: media, favourites: favourites.map(\.id), savedMeals: savedMeals.map(\.id))
                    }
                }
                try await group.waitForAll()
            }

            // Everyone back online without faults; conflicts answered; sync until all outboxes are empty.
            for device in devices {
                device.network.online = true
                device.faults.setScript(Array(repeating: nil, count: 10_000))
            }
            for round in 0..<4 {
                // Ten devices fighting over one profile change it more than the profile limit allows (10 an hour,
                // pushed or saved): the changes over it wait in the outboxes. An hour passes between rounds.
                server.clock.advance(seconds: 3_601)
                for (index, device) in devices.enumerated() {
                    // First some keep their own profile (which makes conflicts for the others), then they give in.
                    if try device.store.profileConflict() != nil {
                        try device.store.resolveProfileConflict(round == 0 && index.isMultiple(of: 2) ? .keepLocal : .useServer)
                    }
                    #expect(await device.sync(maxRetries: 8).isUpToDate)
                }
            }
            for device in devices { #expect(await device.sync().isUpToDate) }

            let onServer = try await server.snapshot(account)
            for device in devices {
                #expect(try device.store.status().pending == 0, "\(device.name) has changes left")
                let local = try device.store.snapshot()
                #expect(local == onServer, "\(device.name) differs: \(Self.difference(local, onServer))")
            }
            // 0 acknowledged writes lost: each row holds the last write the server acknowledged for it.
            var lastAcknowledged: [RecordKey: (version: Int64, change: SyncChange)] = [:]
            for (request, response) in log.all {
                for (change, result) in zip(request.changes, response.results) where result.status == .applied {
                    guard let version = result.version else { continue }
                    let key = change.entity == .profile
                        ? RecordKey.profile : RecordKey(entity: change.entity, collection: change.collection, uuid: change.id!)
                    if version >= lastAcknowledged[key]?.version ?? 0 { lastAcknowledged[key] = (version, change) }
                }
            }
            #expect(lastAcknowledged.count >= 46)
            #expect(lastAcknowledged.keys.contains { $0.collection == Favourite.collection })
            #expect(lastAcknowledged.keys.contains { $0.collection == SavedMeal.collection })
            #expect(lastAcknowledged.keys.contains { $0.collection == JournalEntry.collection })
            // The server's journal table (what its pages, search and insights read) holds exactly the live journal
            // rows every device has, media ids included.
            let onDevice = try devices[0].store.journalEntries()
            #expect(onDevice.contains { !$0.mediaIds.isEmpty })
            #expect(try await server.services.journal.allEntries(userId: account.userId) == onDevice)
            for (key, acknowledged) in lastAcknowledged {
                let state = try #require(onServer[key])
                #expect(state.version == acknowledged.version, "\(key): server v\(state.version ?? 0), acknowledged v\(acknowledged.version)")
                if acknowledged.change.op == .delete {
                    #expect(state.deleted, "\(key) was deleted with an acknowledgement but is live")
                } else {
                    #expect(!state.deleted)
                    let pushed = try RecordState(SyncItem(
                        entity: key.entity, id: acknowledged.change.id, collection: acknowledged.change.collection,
                        version: acknowledged.version, updatedAt: Date(), meal: acknowledged.change.meal,
                        weight: acknowledged.change.weight, profile: acknowledged.change.profile, data: acknowledged.change.data))
                    #expect(state.payload == pushed.payload, "\(key): the acknowledged values are not the server's")
                }
            }
            let restarts = devices.map(\.restarts).reduce(0, +)
            #expect(restarts > 10)
        }
    }

    /// One device's 200 edits, with syncs, outages, faults and restarts drawn from its own seeded source.
    static func savedMeal(id: UUID, tag: String, kcal: Double) -> SavedMeal {
        SavedMeal(id: id, name: "Saved \(tag)", servings: 2, items: [SavedMeal.Item(name: "Item \(tag)", kcal: kcal)],
                  createdAt: Fixtures.utc("2026-03-01T08:00:00Z"))
    }

    /// A journal entry of 1 March as a photo entry with its media ids (the media store's ids, issue 18).
    static func journalEntry(id: UUID, tag: String, media: [UUID]) -> JournalEntry {
        JournalEntry(id: id, date: Fixtures.date("2026-03-01"), time: JournalTime("08:15")!, inputType: .photo, rawInput: tag,
                     processedDescription: "Idli and sambar \(tag)", category: .breakfast, mediaIds: media,
                     createdAt: Fixtures.utc("2026-03-01T08:00:00Z"))
    }

    static let journalToday = Fixtures.date("2026-03-02")

    static func randomLife(
        _ device: Device, index: Int, meals: [UUID], weights: [UUID], rows: [UUID], journal: [UUID], media: [UUID], favourites: [UUID],
        savedMeals: [UUID]
    ) async throws {
        var random = SeededRandom(seed: UInt64(index) &* 7_919 &+ 3)
        _ = await device.sync(maxRetries: 8)
        var created: [UUID] = []
        var inFlight: Task<Void, Never>?
        for edit in 0..<editsPerDevice {
            let tag = "\(device.name)-\(edit)"
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<40:
                let id = (meals + created).randomElement(using: &random)!
                let meal = ClientFixtures.meal(tag, kcal: Double(Int.random(in: 100...900, using: &random)),
                                               at: Fixtures.utc("2026-03-01T08:00:00Z"), id: id)
                try device.store.saveMeal(meal)
            case 40..<50:
                let id = (meals + created).randomElement(using: &random)!
                do { try device.store.deleteMeal(id: id) } catch ClientError.notFound {}
            case 50..<60:
                let meal = ClientFixtures.meal(tag, kcal: 123, at: Fixtures.utc("2026-03-02T12:00:00Z"))
                created.append(meal.id)
                try device.store.saveMeal(meal)
            case 60..<75:
                let id = weights.randomElement(using: &random)!
                try device.store.saveWeight(WeightEntry(id: id, kg: 70 + Double(Int.random(in: 0...200, using: &random)) / 10,
                                                        loggedAt: Fixtures.utc("2026-03-01T06:00:00Z")))
            case 75..<78:
                let id = weights.randomElement(using: &random)!
                do { try device.store.deleteWeight(id: id) } catch ClientError.notFound {}
            case 78..<80:
                try device.store.saveRow(collection: "diary", id: rows.randomElement(using: &random)!,
                                         data: .object(["mood": .number(Double(Int.random(in: 1...5, using: &random))), "by": .string(tag)]))
            case 80..<84:
                // Issue 18: journal entries edited with other photos, and deleted, on several devices at once.
                let id = journal.randomElement(using: &random)!
                if Int.random(in: 0..<5, using: &random) == 0 {
                    do { try device.store.deleteJournalEntry(id: id) } catch ClientError.notFound {}
                } else {
                    let photos = Array(media.shuffled(using: &random).prefix(Int.random(in: 1...4, using: &random)))
                    try device.store.saveJournalEntry(Self.journalEntry(id: id, tag: tag, media: photos), today: Self.journalToday)
                }
            case 84..<88:
                // Issue 17: favourites starred, renamed and unstarred on several devices at once.
                let id = favourites.randomElement(using: &random)!
                if Int.random(in: 0..<4, using: &random) == 0 {
                    do { try device.store.deleteFavourite(id: id) } catch ClientError.notFound {}
                } else {
                    try device.store.saveFavourite(Favourite(id: id, name: tag, kcal: Double(Int.random(in: 1...900, using: &random)),
                                                             createdAt: Fixtures.utc("2026-03-01T08:00:00Z")))
                }
            case 88..<93:
                // Saved meals edited, deleted, and logged (each log a new meal of its items).
                let id = savedMeals.randomElement(using: &random)!
                switch Int.random(in: 0..<5, using: &random) {
                case 0: do { try device.store.deleteSavedMeal(id: id) } catch ClientError.notFound {}
                case 1:
                    if try device.store.savedMeal(id: id) != nil {
                        let logged = try device.store.logSavedMeal(id: id, servings: 1, loggedAt: Fixtures.utc("2026-03-02T12:00:00Z"))
                        created += logged.map(\.id)
                    }
                default: try device.store.saveSavedMeal(Self.savedMeal(id: id, tag: tag, kcal: Double(Int.random(in: 2...900, using: &random))))
                }
            default:
                var profile = try device.store.profile() ?? Fixtures.profile()
                profile.weightKg = 70 + Double(Int.random(in: 0...200, using: &random)) / 10
                try device.store.saveProfile(profile)
            }
            // Between edits: sometimes sync (through faults) — in the background, so that the next edits are made
            // while its pushes are in flight — go offline or online, or get killed (after the sync in flight ends).
            let roll = Int.random(in: 0..<100, using: &random)
            if roll < 12 {
                await inFlight?.value
                if try device.store.profileConflict() != nil, Bool.random(using: &random) {
                    try device.store.resolveProfileConflict(Bool.random(using: &random) ? .keepLocal : .useServer)
                }
                let retries = Int.random(in: 0...2, using: &random)
                let seed = random.next()
                inFlight = Task { _ = await device.sync(maxRetries: retries, seed: seed) }
            } else if roll < 16 {
                device.network.online.toggle()
            } else if roll < 19 {
                await inFlight?.value
                inFlight = nil
                try device.restart()
            }
        }
        await inFlight?.value
    }

    static func difference(_ local: [RecordKey: RecordState], _ server: [RecordKey: RecordState]) -> String {
        let keys = Set(local.keys).union(server.keys).filter { local[$0] != server[$0] }
        return keys.prefix(3).map { "\($0): device \(local[$0]?.description ?? "none") / server \(server[$0]?.description ?? "none")" }
            .joined(separator: "; ") + (keys.count > 3 ? " (+\(keys.count - 3) more)" : "")
    }
}
