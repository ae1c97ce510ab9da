import Foundation
import Testing
import WDietCore
import WDietStore
import WDietTestSupport

/// "A day's targets are that day's" on every backend: the profile keeps every change of its target inputs (the latest
/// in its own columns, the earlier ones beside it), `DayTargetsReader` gives any day its own targets from them and the
/// latest weight logged before the day began, and the history comes back from a pull, an export and an import.
/// The Fixtures man: 30, 180 cm, 80 kg, male, plan from 2026-01-01 in Berlin (1,780 kcal BMR at 80 kg).
@Suite struct PlanHistoryConformanceTests {
    /// Losing and moderately active from the first save; very active from a save at 15:00 on 15 Feb; maintaining from
    /// a save at 15:00 on 28 Feb; a weight of 79 kg on 27 Feb and 78 kg at 08:00 on 1 Mar (Berlin).
    static func makeHistory(_ stores: CoachStores) async throws -> UUID {
        let user = try await stores.makeUser()
        stores.clock.set(Fixtures.utc("2026-01-01T09:00:00Z"))
        _ = try await stores.profiles.saveProfile(Fixtures.profile(), userId: user, expectedVersion: nil)
        stores.clock.set(Fixtures.utc("2026-02-15T14:00:00Z"))
        _ = try await stores.profiles.saveProfile(Fixtures.profile(activity: .very), userId: user, expectedVersion: nil)
        stores.clock.set(Fixtures.utc("2026-02-28T14:00:00Z"))
        _ = try await stores.profiles.saveProfile(Fixtures.profile(goal: .maintain, activity: .very), userId: user, expectedVersion: nil)
        let berlin = Fixtures.zone("Europe/Berlin")
        _ = try await stores.weights.saveWeight(WeightEntry(kg: 79, loggedAt: Fixtures.utc("2026-02-27T06:30:00Z")), userId: user, timeZone: berlin)
        stores.clock.set(Fixtures.utc("2026-03-01T07:00:00Z"))
        _ = try await stores.weights.saveWeight(WeightEntry(kg: 78, loggedAt: Fixtures.utc("2026-03-01T07:00:00Z")), userId: user, timeZone: berlin)
        return user
    }

    static let expectedChanges = [
        PlanChange(previous: Fixtures.profile().targetInputs, changedOn: Fixtures.date("2026-02-15")),
        PlanChange(previous: Fixtures.profile(activity: .very).targetInputs, changedOn: Fixtures.date("2026-02-28")),
    ]

    @Test(arguments: StoreBackend.allCases)
    func everyChangeIsKeptAndEachDayGetsItsOwnTargets(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await Self.makeHistory(stores)
            let stored = try #require(try await stores.profiles.profile(userId: user))
            #expect(stored.planHistory.changes == Self.expectedChanges)
            #expect(stored.planChange == Self.expectedChanges[1])
            #expect(stored.earlierPlanChanges == [Self.expectedChanges[0]])

            let reader = DayTargetsReader(profiles: stores.profiles, weights: stores.weights)
            func targets(_ day: String) async throws -> Targets {
                guard let targets = try await reader.targets(userId: user, on: Fixtures.date(day)) else { throw StoreError.notFound("no profile") }
                return targets
            }
            // 10 Feb, plan day 41 (maintenance), moderately active, 80 kg: 1,780 × 1.55 = 2,759.
            #expect(try await targets("2026-02-10").calories == 2_759)
            // 20 Feb, plan day 51 (diet), very active: 1,780 × 1.725 − 500 = 2,570.5 → 2,571.
            #expect(try await targets("2026-02-20").calories == 2_571)
            // 28 Feb, the day of the goal change, still losing (maintenance phase, day 59); the 27th's 79 kg counts:
            // BMR 1,770 × 1.725 = 3,053.25 → 3,053, protein 2.0 × 79 = 158.
            let feb28 = try await targets("2026-02-28")
            #expect(feb28.calories == 3_053 && feb28.proteinGrams == 158 && feb28.cycle != nil)
            // 1 Mar, maintaining; today's 78 kg (08:00) waits for tomorrow: still 79 kg, protein 1.6 × 79 = 126.
            let mar1 = try await targets("2026-03-01")
            #expect(mar1.calories == 3_053 && mar1.proteinGrams == 126 && mar1.cycle == nil)
            // 2 Mar: 78 kg, BMR 1,760 × 1.725 = 3,036, protein 124.8 → 125.
            let mar2 = try await targets("2026-03-02")
            #expect(mar2.calories == 3_036 && mar2.proteinGrams == 125)
            #expect(try await reader.weightBefore(userId: user, day: Fixtures.date("2026-03-01")) == 79)
            #expect(try await reader.weightBefore(userId: user, day: Fixtures.date("2026-02-27")) == nil)

            // The dashboard of today agrees with the reader and says the plan moves tomorrow.
            let day = try await DashboardReader(store: stores.dashboard).dashboard(userId: user, now: Fixtures.utc("2026-03-01T08:00:00Z"))
            #expect(day.targets == mar1)
            #expect(day.planUpdatesOn == Fixtures.date("2026-03-02"))

            // A later edit on another day appends; the earlier changes stay.
            stores.clock.set(Fixtures.utc("2026-03-03T10:00:00Z"))
            let third = try await stores.profiles.saveProfile(Fixtures.profile(goal: .maintain, activity: .light), userId: user, expectedVersion: nil)
            #expect(third.planHistory.changes.count == 3)
            #expect(try await stores.profiles.profile(userId: user)?.planHistory == third.planHistory)
            #expect(try await targets("2026-02-20").calories == 2_571)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func theHistoryIsPulledExportedAndImported(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await Self.makeHistory(stores)
            let pulled = try await stores.sync.pull(userId: user, after: 0, limit: 100)
            let profileItem = try #require(pulled.items.first { $0.entity == .profile })
            #expect(profileItem.planChange == Self.expectedChanges[1])
            #expect(profileItem.earlierPlanChanges == [Self.expectedChanges[0]])

            let exported = try await stores.userData.exportUserData(userId: user)
            #expect(exported.profile?.planHistory.changes == Self.expectedChanges)
            let other = try await stores.makeUser(email: "other@example.com")
            _ = try await stores.userData.importUserData(exported, into: other)
            #expect(try await stores.profiles.profile(userId: other)?.planHistory.changes == Self.expectedChanges)
        }
    }
}
