import Foundation
import Logging
import Testing
import WDietCore
import WDietPostgres
import WDietSQLite
import WDietStore
import WDietTestSupport
@testable import WDietServer

/// `wdiet serve`'s sweep (docs/operations.md "Deleted rows"): batches follow until one is not full, the cutoff is
/// 30 days before the sweep's clock, and a second sweep does nothing.
@Suite struct DeletedRowSweeperTests {
    @Test(arguments: StoreBackend.allCases)
    func sweepsEveryBatchUpToThirtyDaysBeforeItsClock(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let berlin = Fixtures.zone("Europe/Berlin")
            // 501 meals deleted 2026-03-01T09:00Z (more than one batch of 500), one deleted a day later.
            let meals = (0..<502).map { Meal(name: "Meal \($0)", kcal: 100, loggedAt: Fixtures.utc("2026-03-01T06:00:00Z")) }
            _ = try await stores.meals.saveMeals(meals, userId: user, timeZone: berlin)
            for meal in meals.dropLast() { _ = try await stores.meals.deleteMeal(userId: user, id: meal.id) }
            stores.clock.advance(seconds: 86_400)
            _ = try await stores.meals.deleteMeal(userId: user, id: meals[501].id)
            stores.clock.advance(seconds: 30 * 86_400 - 60)  // 2026-04-01T08:59Z: 30 days and 23:59 after the first
            let store: any DeletedRowStore = switch stores.database {
            case .sqlite(let database): SQLiteDeletedRowStore(database: database, now: stores.clock.closure)
            case .postgres(let client): PostgresDeletedRowStore(client: client, now: stores.clock.closure)
            }
            let sweeper = DeletedRowSweeper(store: store, now: stores.clock.closure, logger: Logger(label: "test"))

            #expect(await sweeper.sweep() == DeletedRowSweep(mealsScrubbed: 501))
            #expect(await sweeper.sweep() == DeletedRowSweep())
            let last = try await stores.sync.pull(userId: user, after: 0, limit: 1_000).items.first { $0.id == meals[501].id }
            #expect(last?.meal?.name == "Meal 501")
        }
    }
}
