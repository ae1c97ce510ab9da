import Foundation
import Testing
import WDietCore
import WDietStore
import WDietTestSupport

/// Issue 17's collections on every backend: favourites and saved meals are generic sync rows whose shape the stores
/// check (a push or an import of a malformed one is refused), read by collection with their tombstones, exported,
/// imported and deleted with the account.
@Suite struct QuickLoggingConformanceTests {
    let at = Fixtures.utc("2026-03-01T08:00:00Z")

    func rowChange(_ value: some Encodable, collection: String, id: UUID, key: String, base: Int64? = nil) throws -> SyncChange {
        SyncChange(idempotencyKey: key, entity: .row, op: .upsert, id: id, collection: collection, baseVersion: base, data: try SyncRules.rowData(value))
    }

    @Test(arguments: StoreBackend.allCases)
    func favouritesAndSavedMealsAreRowsReadByCollection(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let other = try await stores.makeUser()
            let coffee = Favourite(name: "Coffee", kcal: 5, createdAt: at)
            let banana = Favourite(name: "Bananas, raw", foodId: "09040", grams: 118, createdAt: at)
            let porridge = SavedMeal(name: "My porridge", items: [SavedMeal.Item(name: "Oats", foodId: "08120", grams: 60, kcal: 227.4)], createdAt: at)
            let results = try await stores.sync.push([
                try rowChange(coffee, collection: Favourite.collection, id: coffee.id, key: "f1"),
                try rowChange(banana, collection: Favourite.collection, id: banana.id, key: "f2"),
                try rowChange(porridge, collection: SavedMeal.collection, id: porridge.id, key: "s1"),
            ], userId: user)
            #expect(results.map(\.status) == [.applied, .applied, .applied])
            let theirs = Favourite(name: "Theirs", kcal: 9, createdAt: at)
            _ = try await stores.sync.push([try rowChange(theirs, collection: Favourite.collection, id: theirs.id, key: "o1")], userId: other)

            let favourites = try await stores.sync.rows(userId: user, collection: Favourite.collection, includingDeleted: false)
            #expect(Set(try favourites.map { try SyncRules.decodeRow(Favourite.self, #require($0.data)) }) == [coffee, banana])
            let saved = try await stores.sync.rows(userId: user, collection: SavedMeal.collection, includingDeleted: false)
            #expect(try saved.map { try SyncRules.decodeRow(SavedMeal.self, #require($0.data)) } == [porridge])

            let deleted = try await stores.sync.push([.delete(.row, id: coffee.id, collection: Favourite.collection, key: "f3")], userId: user)
            #expect(deleted.map(\.status) == [.applied])
            #expect(try await stores.sync.rows(userId: user, collection: Favourite.collection, includingDeleted: false).map(\.id) == [banana.id])
            #expect(try await stores.sync.rows(userId: user, collection: Favourite.collection, includingDeleted: true).count == 2)
            #expect(try await stores.sync.row(userId: user, collection: Favourite.collection, id: coffee.id)?.deletedAt != nil)
            #expect(try await stores.sync.row(userId: other, collection: Favourite.collection, id: banana.id) == nil)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aMalformedFavouriteOrSavedMealIsRefusedWithItsMessage(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let water = Favourite(name: "Water", kcal: 0, createdAt: at)
            await #expect(throws: SyncRejection.invalidChange(index: 0, key: "k1", message: "calories: Calories must be between 1-9999")) {
                _ = try await stores.sync.push([try rowChange(water, collection: Favourite.collection, id: water.id, key: "k1")], userId: user)
            }
            let empty = SavedMeal(name: "Nothing", items: [], createdAt: at)
            await #expect(throws: SyncRejection.self) {
                _ = try await stores.sync.push([try rowChange(empty, collection: SavedMeal.collection, id: empty.id, key: "k2")], userId: user)
            }
            // A row whose data says another id.
            let coffee = Favourite(name: "Coffee", kcal: 5, createdAt: at)
            await #expect(throws: SyncRejection.self) {
                _ = try await stores.sync.push([try rowChange(coffee, collection: Favourite.collection, id: UUID(), key: "k3")], userId: user)
            }
            // Any other collection stays free-form.
            let free = SyncChange(idempotencyKey: "k4", entity: .row, op: .upsert, id: UUID(), collection: "diary", data: .object(["kcal": .number(0)]))
            #expect(try await stores.sync.push([free], userId: user).map(\.status) == [.applied])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func theyAreExportedImportedAndDeletedWithTheAccount(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let ana = try await stores.makeUser()
            let ben = try await stores.makeUser()
            let coffee = Favourite(name: "Coffee", kcal: 5, createdAt: at)
            let porridge = SavedMeal(name: "My porridge", servings: 2, items: [SavedMeal.Item(name: "Oats", foodId: "08120", grams: 60, kcal: 227.4)], createdAt: at)
            _ = try await stores.sync.push([
                try rowChange(coffee, collection: Favourite.collection, id: coffee.id, key: "f1"),
                try rowChange(porridge, collection: SavedMeal.collection, id: porridge.id, key: "s1"),
            ], userId: ana)
            let exported = try await stores.userData.exportUserData(userId: ana)
            #expect(Set(exported.rows.map(\.collection)) == ["favourite", "saved_meal"])
            let summary = try await stores.userData.importUserData(exported, into: ben)
            #expect(summary.rows == 2)
            let imported = try await stores.sync.rows(userId: ben, collection: SavedMeal.collection, includingDeleted: false)
            #expect(try imported.map { try SyncRules.decodeRow(SavedMeal.self, #require($0.data)) } == [porridge])

            #expect(try await stores.userData.deleteAccount(userId: ana, loginThrottleKeys: []))
            #expect(try await stores.sync.rows(userId: ana, collection: Favourite.collection, includingDeleted: true).isEmpty)
            #expect(try await stores.sync.rows(userId: ana, collection: SavedMeal.collection, includingDeleted: true).isEmpty)
        }
    }
}
