import Foundation
import Testing
import WDietCore
import WDietStore
import WDietTestSupport

@Suite struct CoachWeightStoreTests {
    let stores: CoachTestStores
    let berlin = Fixtures.zone("Europe/Berlin")

    init() throws {
        stores = try CoachTestStores()
    }

    @discardableResult
    private func log(_ kg: Double, at instant: String, user: UUID, zone: TimeZone? = nil) async throws -> StoredWeight {
        try await stores.weights.saveWeight(WeightEntry(kg: kg, loggedAt: Fixtures.utc(instant)), userId: user, timeZone: zone ?? berlin)
    }

    @Test func aSecondEntryThatDayBecomesCurrentAndHistoryKeepsBoth() async throws {
        let user = try await stores.makeUser()
        try await log(80.4, at: "2026-03-01T07:00:00Z", user: user)  // 08:00 Berlin
        try await log(80.1, at: "2026-03-01T19:00:00Z", user: user)  // 20:00 Berlin, same day
        try await log(79.9, at: "2026-03-02T06:30:00Z", user: user)

        let daily = try await stores.weights.dailyWeights(userId: user)
        #expect(daily.map(\.localDate) == [Fixtures.date("2026-03-01"), Fixtures.date("2026-03-02")])
        #expect(daily.map(\.entry.kg) == [80.1, 79.9])
        #expect(try await stores.weights.weightHistory(userId: user).map(\.entry.kg) == [80.4, 80.1, 79.9])
    }

    /// The day's current value is the one logged latest in the day, not the one saved last.
    @Test func aBackdatedEntryDoesNotReplaceTheDaysLaterOne() async throws {
        let user = try await stores.makeUser()
        try await log(81.0, at: "2026-03-01T19:00:00Z", user: user)
        try await log(81.6, at: "2026-03-01T06:00:00Z", user: user)

        #expect(try await stores.weights.dailyWeights(userId: user).map(\.entry.kg) == [81.0])
        #expect(try await stores.weights.latestWeight(userId: user)?.entry.kg == 81.0)
        #expect(try await stores.weights.weightHistory(userId: user).map(\.entry.kg) == [81.6, 81.0])
    }

    @Test func theLatestWeightIsTheLastLoggedAndSkipsDeletedEntries() async throws {
        let user = try await stores.makeUser()
        #expect(try await stores.weights.latestWeight(userId: user) == nil)
        let older = try await log(83.2, at: "2026-02-27T07:00:00Z", user: user)
        let newer = try await log(82.7, at: "2026-03-01T07:00:00Z", user: user)
        #expect(try await stores.weights.latestWeight(userId: user) == newer)

        try await stores.weights.deleteWeight(userId: user, id: newer.id)

        #expect(try await stores.weights.latestWeight(userId: user) == older)
        #expect(try await stores.weights.dailyWeights(userId: user).map(\.entry.kg) == [83.2])
        #expect(try await stores.weights.weightHistory(userId: user) == [older])
    }

    @Test func deletingTheDaysCurrentEntryBringsBackTheEarlierOne() async throws {
        let user = try await stores.makeUser()
        try await log(80.4, at: "2026-03-01T07:00:00Z", user: user)
        let evening = try await log(80.1, at: "2026-03-01T19:00:00Z", user: user)

        let tombstone = try await stores.weights.deleteWeight(userId: user, id: evening.id)

        #expect(tombstone.deletedAt == Fixtures.utc("2026-03-01T09:00:00Z"))
        #expect(try await stores.weights.dailyWeights(userId: user).map(\.entry.kg) == [80.4])
    }

    /// 23:30 and 00:30 in Pago Pago (UTC−11) are two days, though both are 2 March in UTC.
    @Test func weightsFallOnTheUsersLocalDay() async throws {
        let user = try await stores.makeUser()
        let pagoPago = Fixtures.zone("Pacific/Pago_Pago")
        let late = try await log(90.2, at: "2026-03-02T10:30:00Z", user: user, zone: pagoPago)
        let early = try await log(90.0, at: "2026-03-02T11:30:00Z", user: user, zone: pagoPago)

        #expect(late.localDate == Fixtures.date("2026-03-01"))
        #expect(early.localDate == Fixtures.date("2026-03-02"))
        #expect(try await stores.weights.dailyWeights(userId: user).count == 2)
    }

    @Test(arguments: [
        (19.9, "Weight must be at least 20 kg (44 lbs)"),
        (500.1, "Weight must be less than 500 kg (1102 lbs)"),
        (Double.infinity, "Please enter a valid number"),
    ])
    func refusesWeightsOutsideTwentyToFiveHundredKilograms(kg: Double, message: String) async throws {
        let user = try await stores.makeUser()
        await #expect(throws: StoreError.invalid(message)) {
            try await log(kg, at: "2026-03-01T07:00:00Z", user: user)
        }
        #expect(try await stores.weights.weightHistory(userId: user).isEmpty)
    }

    @Test func acceptsTheRangesEdges() async throws {
        let user = try await stores.makeUser()
        try await log(20, at: "2026-03-01T07:00:00Z", user: user)
        try await log(500, at: "2026-03-02T07:00:00Z", user: user)
        #expect(try await stores.weights.weightHistory(userId: user).map(\.entry.kg) == [20, 500])
    }

    @Test func updatingAnEntryByIdReplacesItsValue() async throws {
        let user = try await stores.makeUser()
        var entry = WeightEntry(kg: 78.0, loggedAt: Fixtures.utc("2026-03-01T07:00:00Z"))
        let first = try await stores.weights.saveWeight(entry, userId: user, timeZone: berlin)
        entry.kg = 77.8
        let second = try await stores.weights.saveWeight(entry, userId: user, timeZone: berlin)

        #expect(second.version == first.version + 1)
        #expect(try await stores.weights.weightHistory(userId: user) == [second])
    }
}
