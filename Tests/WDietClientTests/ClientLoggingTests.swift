import Foundation
import Testing
import WDietClient
import WDietCore
import WDietSQLite
import WDietStore
import WDietTestSupport

/// Issue 17 in the client library, offline: favourites and saved meals kept locally and queued as generic rows, a
/// saved meal and several meals logged in one transaction, a slot copied to another day, and the recents. Fixtures'
/// profile is in Berlin.
@Suite struct ClientLoggingTests {
    let at = Fixtures.utc("2026-03-01T08:00:00Z")

    @Test func favouritesAndSavedMealsAreLocalFirstAndQueuedAsRows() throws {
        let store = try ClientFixtures.store()
        let coffee = Favourite(name: "Coffee", kcal: 5, createdAt: at)
        try store.saveFavourite(coffee)
        #expect(try store.favourites() == [coffee])
        #expect(throws: ClientError.self) { try store.saveFavourite(Favourite(name: "Water", kcal: 0, createdAt: at)) }

        let lunch = SavedMeal(name: "Lunch box", servings: 2, items: [SavedMeal.Item(name: "Sandwich", kcal: 420), SavedMeal.Item(name: "Pear", kcal: 100)],
                              slot: .lunch, createdAt: at)
        try store.saveSavedMeal(lunch)
        #expect(try store.savedMeals() == [lunch])

        let batch = try #require(try store.nextBatch(.data))
        let rows = batch.request.changes.filter { $0.entity == .row }
        #expect(Set(rows.compactMap(\.collection)) == ["favourite", "saved_meal"])
        // What the device queues passes the server's rules for these collections.
        #expect(throws: Never.self) { try SyncRules.validate(batch.request.changes) }

        try store.deleteFavourite(id: coffee.id)
        #expect(try store.favourites().isEmpty)
    }

    @Test func aSavedMealLogsItsItemsScaledInItsSlot() throws {
        let store = try ClientFixtures.store()
        let lunch = SavedMeal(name: "Lunch box", servings: 2, items: [SavedMeal.Item(name: "Sandwich", kcal: 420), SavedMeal.Item(name: "Pear", kcal: 100)],
                              slot: .lunch, createdAt: at)
        try store.saveSavedMeal(lunch)
        let logged = try store.logSavedMeal(id: lunch.id, servings: 1, loggedAt: Fixtures.utc("2026-03-01T11:00:00Z"))
        #expect(logged.map(\.kcal) == [210, 50])
        #expect(try store.meals(on: Fixtures.date("2026-03-01")).map(\.slot) == [.lunch, .lunch])
        #expect(throws: ClientError.self) { try store.logSavedMeal(id: UUID(), loggedAt: at) }
    }

    @Test func sameAsYesterdayCopiesTheSlotAtTheSameTimes() throws {
        let store = try ClientFixtures.store()
        // 28 Feb in Berlin: oats 08:15 and coffee 08:20 (breakfast), soup 12:30 (lunch).
        try store.logMeals([
            Meal(name: "Oats", kcal: 227, loggedAt: Fixtures.utc("2026-02-28T07:15:00Z")),
            Meal(name: "Coffee", kcal: 5, loggedAt: Fixtures.utc("2026-02-28T07:20:00Z")),
            Meal(name: "Soup", kcal: 300, loggedAt: Fixtures.utc("2026-02-28T11:30:00Z")),
        ])
        let copies = try store.copyMeals(from: Fixtures.date("2026-02-28"), slot: .breakfast, to: Fixtures.date("2026-03-01"))
        #expect(copies.map(\.name) == ["Oats", "Coffee"])
        #expect(copies.map(\.loggedAt) == [Fixtures.utc("2026-03-01T07:15:00Z"), Fixtures.utc("2026-03-01T07:20:00Z")])
        #expect(try store.meals(on: Fixtures.date("2026-03-01")).map(\.name) == ["Oats", "Coffee"])
        #expect(try store.meals(on: Fixtures.date("2026-02-28")).count == 3)
        #expect(throws: ClientError.self) { try store.copyMeals(from: Fixtures.date("2026-02-27"), to: Fixtures.date("2026-03-01")) }
        // Several meals are all or none: one invalid meal queues nothing.
        #expect(throws: ClientError.self) {
            try store.logMeals([Meal(name: "Tea", kcal: 2, loggedAt: at), Meal(name: "Bad", kcal: 0, loggedAt: at)])
        }
        #expect(try store.meals(on: Fixtures.date("2026-03-01")).count == 2)

        let recents = try store.recents(now: Fixtures.utc("2026-03-01T08:30:00Z"))
        // Oats and coffee were both breakfasts twice; coffee's are 5 minutes more recent. Soup is a lunch.
        #expect(recents.map(\.last.name) == ["Coffee", "Oats", "Soup"])
        #expect(recents.map(\.timesLogged) == [2, 2, 1])
    }
}
