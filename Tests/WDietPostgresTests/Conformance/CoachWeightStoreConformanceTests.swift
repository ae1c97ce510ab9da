import Foundation
import Testing
import WDietCore
import WDietStore
import WDietTestSupport

/// `WeightStore` on every backend.
@Suite struct CoachWeightStoreConformanceTests {
    static let berlin = Fixtures.zone("Europe/Berlin")

    @discardableResult
    static func log(_ kg: Double, at instant: String, user: UUID, in stores: CoachStores, zone: TimeZone = CoachWeightStoreConformanceTests.berlin) async throws -> StoredWeight {
        try await stores.weights.saveWeight(WeightEntry(kg: kg, loggedAt: Fixtures.utc(instant)), userId: user, timeZone: zone)
    }

    @Test(arguments: StoreBackend.allCases)
    func aSecondEntryThatDayBecomesCurrentAndHistoryKeepsBoth(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            try await Self.log(80.4, at: "2026-03-01T07:00:00Z", user: user, in: stores)  // 08:00 Berlin
            try await Self.log(80.1, at: "2026-03-01T19:00:00Z", user: user, in: stores)  // 20:00 Berlin, same day
            try await Self.log(79.9, at: "2026-03-02T06:30:00Z", user: user, in: stores)

            let daily = try await stores.weights.dailyWeights(userId: user)
            #expect(daily.map(\.localDate) == [Fixtures.date("2026-03-01"), Fixtures.date("2026-03-02")])
            #expect(daily.map(\.entry.kg) == [80.1, 79.9])
            #expect(try await stores.weights.weightHistory(userId: user).map(\.entry.kg) == [80.4, 80.1, 79.9])
        }
    }

    /// The day's current value is the one logged latest in the day, not the one saved last.
    @Test(arguments: StoreBackend.allCases)
    func aBackdatedEntryDoesNotReplaceTheDaysLaterOne(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            try await Self.log(81.0, at: "2026-03-01T19:00:00Z", user: user, in: stores)
            try await Self.log(81.6, at: "2026-03-01T06:00:00Z", user: user, in: stores)

            #expect(try await stores.weights.dailyWeights(userId: user).map(\.entry.kg) == [81.0])
            #expect(try await stores.weights.latestWeight(userId: user)?.entry.kg == 81.0)
            #expect(try await stores.weights.weightHistory(userId: user).map(\.entry.kg) == [81.6, 81.0])
        }
    }

    /// Two entries at the same instant: the later write is the day's value.
    @Test(arguments: StoreBackend.allCases)
    func ofTwoEntriesAtOneInstantTheLaterWriteIsCurrent(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            try await Self.log(70.2, at: "2026-03-01T07:00:00Z", user: user, in: stores)
            try await Self.log(70.4, at: "2026-03-01T07:00:00Z", user: user, in: stores)

            #expect(try await stores.weights.dailyWeights(userId: user).map(\.entry.kg) == [70.4])
            #expect(try await stores.weights.latestWeight(userId: user)?.entry.kg == 70.4)
            #expect(try await stores.weights.recentDailyWeights(userId: user, through: Fixtures.date("2026-03-01"), days: 8)
                .map(\.entry.kg) == [70.4])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func theLatestWeightIsTheLastLoggedAndSkipsDeletedEntries(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            #expect(try await stores.weights.latestWeight(userId: user) == nil)
            let older = try await Self.log(83.2, at: "2026-02-27T07:00:00Z", user: user, in: stores)
            let newer = try await Self.log(82.7, at: "2026-03-01T07:00:00Z", user: user, in: stores)
            #expect(try await stores.weights.latestWeight(userId: user) == newer)

            let tombstone = try await stores.weights.deleteWeight(userId: user, id: newer.id)

            #expect(tombstone.deletedAt == Fixtures.utc("2026-03-01T09:00:00Z"))
            #expect(tombstone.version == newer.version + 1)
            #expect(try await stores.weights.deleteWeight(userId: user, id: newer.id) == tombstone)
            #expect(try await stores.weights.latestWeight(userId: user) == older)
            #expect(try await stores.weights.dailyWeights(userId: user).map(\.entry.kg) == [83.2])
            #expect(try await stores.weights.weightHistory(userId: user) == [older])
            await #expect(throws: StoreError.notFound("Weight entry not found")) {
                try await stores.weights.saveWeight(newer.entry, userId: user, timeZone: Self.berlin)
            }
        }
    }

    /// 23:30 and 00:30 in Pago Pago (UTC−11) are two days, though both are 2 March in UTC.
    @Test(arguments: StoreBackend.allCases)
    func weightsFallOnTheUsersLocalDay(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let pagoPago = Fixtures.zone("Pacific/Pago_Pago")
            let late = try await Self.log(90.2, at: "2026-03-02T10:30:00Z", user: user, in: stores, zone: pagoPago)
            let early = try await Self.log(90.0, at: "2026-03-02T11:30:00Z", user: user, in: stores, zone: pagoPago)

            #expect(late.localDate == Fixtures.date("2026-03-01"))
            #expect(early.localDate == Fixtures.date("2026-03-02"))
            #expect(try await stores.weights.dailyWeights(userId: user).count == 2)
        }
    }

    @Test(arguments: StoreBackend.allCases, [
        (19.9, "Weight must be at least 20 kg (44 lbs)"),
        (500.1, "Weight must be less than 500 kg (1102 lbs)"),
        (Double.infinity, "Please enter a valid number"),
    ])
    func refusesWeightsOutsideTwentyToFiveHundredKilograms(backend: StoreBackend, refused: (Double, String)) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            await #expect(throws: StoreError.invalid(refused.1)) {
                try await Self.log(refused.0, at: "2026-03-01T07:00:00Z", user: user, in: stores)
            }
            #expect(try await stores.weights.weightHistory(userId: user).isEmpty)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func updatingAnEntryByIdReplacesItsValueAndARetryChangesNothing(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            var entry = WeightEntry(kg: 78.0, loggedAt: Fixtures.utc("2026-03-01T07:00:00Z"))
            let first = try await stores.weights.saveWeight(entry, userId: user, timeZone: Self.berlin)
            entry.kg = 77.8
            let second = try await stores.weights.saveWeight(entry, userId: user, timeZone: Self.berlin)
            let retried = try await stores.weights.saveWeight(entry, userId: user, timeZone: Self.berlin)

            #expect(second.version == first.version + 1)
            #expect(retried == second)
            #expect(try await stores.weights.weightHistory(userId: user) == [second])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func recentDailyWeightsAreTheLastDaysCurrentValuesOldestFirst(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            for (index, kg) in [80.0, 79.8, 79.6, 79.4].enumerated() {
                try await Self.log(kg, at: "2026-03-0\(index + 1)T06:00:00Z", user: user, in: stores)
            }
            // A correction in the evening of the 3rd, and an entry after `through`.
            try await Self.log(79.5, at: "2026-03-03T19:00:00Z", user: user, in: stores)
            try await Self.log(70, at: "2026-03-09T06:00:00Z", user: user, in: stores)

            let recent = try await stores.weights.recentDailyWeights(userId: user, through: Fixtures.date("2026-03-04"), days: 3)
            #expect(recent.map(\.localDate) == ["2026-03-02", "2026-03-03", "2026-03-04"].map(Fixtures.date))
            #expect(recent.map(\.entry.kg) == [79.8, 79.5, 79.4])
            let all = try await stores.weights.dailyWeights(userId: user).filter { $0.localDate <= Fixtures.date("2026-03-04") }
            #expect(Array(all.suffix(3)) == recent)
            #expect(try await stores.weights.recentDailyWeights(userId: user, through: Fixtures.date("2026-03-04"), days: 0).isEmpty)
        }
    }

    /// `weight_logged` commits with its weight; an event that cannot be stored never costs the weight.
    @Test(arguments: StoreBackend.allCases)
    func savesTheWeightAndRecordsItsEventInTheSameWrite(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let entry = WeightEntry(kg: 80.4, loggedAt: Fixtures.utc("2026-03-01T07:00:00Z"))
            let event = AnalyticsEvent(name: .weightLogged, properties: ["unit": "kg"], occurredAt: Fixtures.utc("2026-03-01T07:00:01Z"))

            let saved = try await stores.weights.saveWeight(entry, userId: user, timeZone: Self.berlin, recording: event)

            #expect(saved.eventError == nil)
            #expect(saved.row.entry == entry)
            #expect(try await stores.weights.weightHistory(userId: user) == [saved.row])
            #expect(try await stores.analytics.events(userId: user) == [event])
            // The event drew the version after the weight's.
            let next = try await Self.log(80.2, at: "2026-03-02T07:00:00Z", user: user, in: stores)
            #expect(next.version == saved.row.version + 2)

            // The same event id again, now another user's weight: refused, and that weight is saved all the same.
            let other = try await stores.makeUser()
            let theirs = WeightEntry(kg: 65.0, loggedAt: Fixtures.utc("2026-03-01T07:30:00Z"))
            let refused = try await stores.weights.saveWeight(theirs, userId: other, timeZone: Self.berlin, recording: event)
            #expect(refused.eventError as? StoreError == StoreError.conflict("This id is already in use"))
            #expect(try await stores.weights.weightHistory(userId: other) == [refused.row])
            #expect(try await stores.analytics.events(userId: other) == [])
        }
    }

    /// Issue 17: an entry edited in the web app (`PUT /weights/{id}`: the same id, a new weight and time) moves to
    /// its new day under a new version; a deleted one comes back with "Undo" (`restoreWeight`), its day logged again.
    @Test(arguments: StoreBackend.allCases)
    func anEditedEntryMovesToItsDayAndADeletedOneIsRestored(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let other = try await stores.makeUser()
            let entry = try await Self.log(80.0, at: "2026-02-26T07:00:00Z", user: user, in: stores)
            let later = try await Self.log(79.0, at: "2026-03-01T07:00:00Z", user: user, in: stores)

            var changed = entry.entry
            changed.kg = 81.2
            changed.loggedAt = Fixtures.utc("2026-02-28T07:00:00Z")
            let edited = try await stores.weights.saveWeight(changed, userId: user, timeZone: Self.berlin)
            #expect(edited.id == entry.id && edited.version > later.version)
            #expect(edited.localDate == Fixtures.date("2026-02-28"))
            #expect(try await stores.weights.dailyWeights(userId: user).map { "\($0.localDate) \($0.entry.kg)" }
                == ["2026-02-28 81.2", "2026-03-01 79.0"])

            let tombstone = try await stores.weights.deleteWeight(userId: user, id: later.id)
            #expect(try await stores.weights.latestWeight(userId: user) == edited)
            let days = Fixtures.date("2026-02-25")...Fixtures.date("2026-03-01")
            #expect(try await stores.loggedDays.loggedDays(userId: user, in: days) == [Fixtures.date("2026-02-28")])

            await #expect(throws: StoreError.notFound("Weight entry not found")) {
                try await stores.weights.restoreWeight(userId: other, id: later.id)
            }
            let restored = try await stores.weights.restoreWeight(userId: user, id: later.id)
            #expect(restored.deletedAt == nil && restored.entry == later.entry)
            #expect(restored.version == tombstone.version + 1)
            #expect(try await stores.weights.restoreWeight(userId: user, id: later.id) == restored, "a live entry stays as it is")
            #expect(try await stores.weights.latestWeight(userId: user) == restored)
            #expect(try await stores.loggedDays.loggedDays(userId: user, in: days)
                == [Fixtures.date("2026-02-28"), Fixtures.date("2026-03-01")])
            #expect(try await stores.weights.weightHistory(userId: other) == [])
        }
    }
}
