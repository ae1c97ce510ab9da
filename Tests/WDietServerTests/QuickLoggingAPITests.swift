import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietCore
import WDietStore
import WDietTestSupport

/// Issue 17's logging API: favourites, saved meals, recents, several meals at once and copies, on both backends.
/// The clock starts at 2026-03-01T09:00Z (10:00 in Berlin, the profile's zone: breakfast).
@Suite("Quick logging API")
struct QuickLoggingAPITests {
    static func list(_ response: TestResponse, _ key: String) throws -> [[String: Any]] {
        try #require(try response.object()[key] as? [[String: Any]])
    }

    @Test("favourites: a manual meal starred once (a retry answers 200 with the same), listed, unstarred, then 404", arguments: StoreBackend.allCases)
    func favourites(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInWithProfile()
            let id = UUID().uuidString.lowercased()
            let body: [String: Any] = ["id": id, "name": "Flat white", "calories": 110, "protein": 6, "fat": 6]
            let added = try await client.api(.post, "/api/v1/favourites", session, json: body)
            #expect(added.status == .created)
            #expect(try added.object()["name"] as? String == "Flat white")
            #expect(number(try added.object()["calories"]) == 110)
            let again = try await client.api(.post, "/api/v1/favourites", session, json: body)
            #expect(again.status == .ok)
            #expect(try again.object()["id"] as? String == id)

            let bad = try await client.api(.post, "/api/v1/favourites", session, json: ["name": "Water", "calories": 0])
            #expect(bad.status == .unprocessableContent)
            #expect(try bad.errorDetail().fields == ["calories": "Calories must be between 1-9999"])

            let listed = try Self.list(try await client.api(.get, "/api/v1/favourites", session), "favourites")
            #expect(listed.map { $0["id"] as? String } == [id])
            // A favourite is a generic row of the collection "favourite": it syncs to every device.
            let pulled = try await t.services.sync.pull(userId: session.userId, after: 0, limit: 100)
            #expect(pulled.items.filter { $0.collection == "favourite" }.count == 1)

            #expect(try await client.api(.delete, "/api/v1/favourites/\(id)", session).status == .noContent)
            #expect(try Self.list(try await client.api(.get, "/api/v1/favourites", session), "favourites").isEmpty)
            #expect(try await client.api(.delete, "/api/v1/favourites/\(id)", session).status == .notFound)
            // Another user cannot see or remove it.
            let other = try await client.signInWithProfile()
            #expect(try await client.api(.delete, "/api/v1/favourites/\(id)", other).status == .notFound)
        }
    }

    @Test("a saved meal of manual items: per serving, edited, logged as 1 of 2 servings in one call, deleted", arguments: StoreBackend.allCases)
    func savedMealManual(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInWithProfile()
            let created = try await client.api(.post, "/api/v1/saved-meals", session, json: [
                "name": "Lunch box", "servings": 2, "slot": "lunch",
                "items": [["name": "Sandwich", "calories": 420, "protein": 20], ["name": "Apple", "calories": 80, "carbs": 21]],
            ])
            #expect(created.status == .created, "\(created.text)")
            let saved = try created.object()
            let id = try #require(saved["id"] as? String)
            let perServing = try #require(saved["perServing"] as? [String: Any])
            #expect(number(perServing["calories"]) == 250)
            #expect(number(perServing["protein"]) == 10)
            #expect(number(perServing["carbs"]) == 10.5)

            let invalid = try await client.api(.post, "/api/v1/saved-meals", session, json: [
                "name": "", "items": [["name": "Cake", "calories": 0]], "servings": 500,
            ])
            #expect(invalid.status == .unprocessableContent)
            #expect(try invalid.errorDetail().fields == [
                "name": "Please enter a name of 1-100 characters", "servings": "Servings must be between 0.1-100",
                "items.0.calories": "Calories must be between 1-9999",
            ], "\(invalid.text)")

            let edited = try await client.api(.put, "/api/v1/saved-meals/\(id)", session, json: [
                "name": "Lunch box", "servings": 2, "slot": "lunch",
                "items": [["name": "Sandwich", "calories": 420, "protein": 20], ["name": "Pear", "calories": 100]],
            ])
            #expect(edited.status == .ok)
            #expect(number((try edited.object()["perServing"] as? [String: Any])?["calories"]) == 260)

            // Two devices edit at once: the second, still on the version it read before the first's edit, gets 409 and
            // the saved meal stays as the first left it.
            let readVersion = try #require(saved["version"] as? Int)
            let stale = try await client.api(.put, "/api/v1/saved-meals/\(id)", session, json: [
                "baseVersion": readVersion, "name": "Lunch box", "servings": 2, "items": [["name": "Soup", "calories": 300]],
            ])
            #expect(stale.status == .conflict, "\(stale.text)")
            #expect(try stale.errorDetail().message
                == "This saved meal was changed on another device while you were editing it. Here it is as it is now: make your change again.")
            let current = try await client.api(.get, "/api/v1/saved-meals/\(id)", session).object()
            #expect((current["items"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Sandwich", "Pear"])
            let fresh = try await client.api(.put, "/api/v1/saved-meals/\(id)", session, json: [
                "baseVersion": try #require(current["version"] as? Int), "name": "Lunch box", "servings": 2, "slot": "lunch",
                "items": [["name": "Sandwich", "calories": 420, "protein": 20], ["name": "Pear", "calories": 100]],
            ])
            #expect(fresh.status == .ok, "\(fresh.text)")

            let requestId = UUID().uuidString
            let logged = try await client.api(.post, "/api/v1/saved-meals/\(id)/log", session, json: ["servings": 1, "requestId": requestId])
            #expect(logged.status == .created, "\(logged.text)")
            let meals = try Self.list(logged, "meals")
            #expect(meals.map { $0["name"] as? String } == ["Sandwich", "Pear"])
            #expect(meals.map { number($0["calories"]) } == [210, 50])
            #expect(meals.allSatisfy { $0["slot"] as? String == "lunch" && $0["localDate"] as? String == "2026-03-01" })
            // A retry of the same request logs nothing twice.
            let retry = try await client.api(.post, "/api/v1/saved-meals/\(id)/log", session, json: ["servings": 1, "requestId": requestId])
            #expect(try Self.list(retry, "meals").map { $0["id"] as? String } == meals.map { $0["id"] as? String })
            #expect(try await t.services.meals.meals(userId: session.userId, on: Fixtures.date("2026-03-01")).count == 2)
            let events = try await WebAnalyticsMomentsTests.settled(session.userId, in: t, atLeast: 2).filter { $0.name == .mealLogged }
            #expect(events.map { $0.properties } == [
                ["source": "savedMeal", "meal_type": "lunch"], ["source": "savedMeal", "meal_type": "lunch"],
            ])

            #expect(try await client.api(.delete, "/api/v1/saved-meals/\(id)", session).status == .noContent)
            #expect(try await client.api(.get, "/api/v1/saved-meals/\(id)", session).status == .notFound)
            #expect(try await client.api(.post, "/api/v1/saved-meals/\(id)/log", session, json: [:]).status == .notFound)
        }
    }

    @Test("several meals in one call: all saved, or none with the item's message; ids make a retry harmless", arguments: StoreBackend.allCases)
    func batch(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInWithProfile()
            let refused = try await client.api(.post, "/api/v1/meals/batch", session, json: [
                "items": [["name": "Eggs", "calories": 150], ["name": "Toast", "calories": 0]],
            ])
            #expect(refused.status == .unprocessableContent)
            #expect(try refused.errorDetail().fields == ["items.1.calories": "Calories must be between 1-9999"])
            #expect(try await t.services.meals.meals(userId: session.userId, on: Fixtures.date("2026-03-01")).isEmpty)

            let ids = [UUID().uuidString.lowercased(), UUID().uuidString.lowercased(), UUID().uuidString.lowercased()]
            let body: [String: Any] = [
                "slot": "breakfast", "loggedAt": "2026-03-01T07:30:00Z",
                "items": [
                    ["id": ids[0], "name": "Eggs", "calories": 150],
                    ["id": ids[1], "name": "Toast", "calories": 180],
                    ["id": ids[2], "name": "Juice", "calories": 110, "slot": "snack"],
                ],
            ]
            let saved = try await client.api(.post, "/api/v1/meals/batch", session, json: body)
            #expect(saved.status == .created, "\(saved.text)")
            let meals = try Self.list(saved, "meals")
            #expect(meals.map { $0["id"] as? String } == ids)
            #expect(meals.map { $0["slot"] as? String } == ["breakfast", "breakfast", "snack"])
            #expect(meals.allSatisfy { $0["loggedAt"] as? String == "2026-03-01T07:30:00.000Z" })
            let retry = try await client.api(.post, "/api/v1/meals/batch", session, json: body)
            #expect(try Self.list(retry, "meals").map { $0["version"] as? Int } == meals.map { $0["version"] as? Int })
            #expect(try await t.services.meals.meals(userId: session.userId, on: Fixtures.date("2026-03-01")).count == 3)
            let events = try await WebAnalyticsMomentsTests.settled(session.userId, in: t, atLeast: 3).filter { $0.name == .mealLogged }
            #expect(events.map { $0.properties["source"] } == ["manual", "manual", "manual"])
            // Recorded off the request, in any order.
            #expect(events.compactMap { $0.properties["meal_type"] }.sorted() == ["breakfast", "breakfast", "snack"])
        }
    }

    @Test("copy: yesterday's breakfast to today at the same times, then the whole day to another day; nothing to copy is 422", arguments: StoreBackend.allCases)
    func copy(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInWithProfile()
            // Yesterday (28 Feb) in Berlin: porridge 08:15, coffee 08:20 (breakfast), soup 12:30 (lunch).
            for (name, at) in [("Porridge", "2026-02-28T07:15:00Z"), ("Coffee", "2026-02-28T07:20:00Z"), ("Soup", "2026-02-28T11:30:00Z")] {
                let r = try await client.api(.post, "/api/v1/meals", session, json: ["name": name, "calories": 200, "loggedAt": at])
                #expect(r.status == .created)
            }
            let sources = try await t.services.meals.meals(userId: session.userId, on: Fixtures.date("2026-02-28"))
            let requestId = UUID().uuidString
            let copied = try await client.api(.post, "/api/v1/meals/copy", session, json: [
                "fromDate": "2026-02-28", "slot": "breakfast", "requestId": requestId,
            ])
            #expect(copied.status == .created, "\(copied.text)")
            let meals = try Self.list(copied, "meals")
            #expect(meals.map { $0["name"] as? String } == ["Porridge", "Coffee"])
            #expect(meals.map { $0["loggedAt"] as? String } == ["2026-03-01T07:15:00.000Z", "2026-03-01T07:20:00.000Z"])
            #expect(meals.allSatisfy { $0["localDate"] as? String == "2026-03-01" && $0["slot"] as? String == "breakfast" })
            #expect(Set(meals.compactMap { $0["id"] as? String }).isDisjoint(with: sources.map { $0.id.uuidString.lowercased() }))
            let retry = try await client.api(.post, "/api/v1/meals/copy", session, json: [
                "fromDate": "2026-02-28", "slot": "breakfast", "requestId": requestId,
            ])
            #expect(try Self.list(retry, "meals").map { $0["id"] as? String } == meals.map { $0["id"] as? String })
            #expect(try await t.services.meals.meals(userId: session.userId, on: Fixtures.date("2026-03-01")).count == 2)

            let day = try await client.api(.post, "/api/v1/meals/copy", session, json: ["fromDate": "2026-02-28", "toDate": "2026-02-20"])
            #expect(try Self.list(day, "meals").count == 3)
            #expect(try await t.services.meals.meals(userId: session.userId, on: Fixtures.date("2026-02-20")).count == 3)
            let events = try await WebAnalyticsMomentsTests.settled(session.userId, in: t, atLeast: 8).filter { $0.properties["source"] == "copy" }
            #expect(events.count == 5)

            let nothing = try await client.api(.post, "/api/v1/meals/copy", session, json: ["fromDate": "2026-02-27"])
            #expect(nothing.status == .unprocessableContent)
            #expect(try nothing.errorDetail().fields == ["fromDate": "There is nothing to copy on that day"])
            let tooOld = try await client.api(.post, "/api/v1/meals/copy", session, json: ["fromDate": "2024-01-01"])
            #expect(try tooOld.errorDetail().fields?["fromDate"] == "Please choose a day within a year back")
        }
    }

    @Test("recents at 10:00: breakfast foods first with their last portion, each once, starred ones marked", arguments: StoreBackend.allCases)
    func recents(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { _, client in
            let session = try await client.signInWithProfile()
            let log: [(String, Double, String)] = [
                ("Porridge", 300, "2026-02-26T07:00:00Z"), ("Porridge", 320, "2026-02-27T07:00:00Z"), ("Porridge", 350, "2026-02-28T07:00:00Z"),
                ("Pasta", 600, "2026-02-26T18:00:00Z"), ("Pasta", 600, "2026-02-27T18:00:00Z"), ("Pasta", 600, "2026-02-28T18:00:00Z"),
                ("Pasta", 600, "2026-02-25T18:00:00Z"),
                ("Coffee", 5, "2026-02-20T07:30:00Z"),
            ]
            for (name, kcal, at) in log {
                #expect(try await client.api(.post, "/api/v1/meals", session, json: ["name": name, "calories": kcal, "loggedAt": at]).status == .created)
            }
            let star = try await client.api(.post, "/api/v1/favourites", session, json: ["name": "Pasta", "calories": 600])
            let starId = try star.object()["id"] as? String
            let response = try await client.api(.get, "/api/v1/foods/recent", session)
            #expect(response.status == .ok)
            #expect(try response.object()["slot"] as? String == "breakfast")
            let items = try Self.list(response, "items")
            #expect(items.map { $0["name"] as? String } == ["Porridge", "Coffee", "Pasta"])
            #expect(number(items[0]["calories"]) == 350)
            #expect(items[0]["timesLogged"] as? Int == 3)
            #expect(items[2]["favouriteId"] as? String == starId)
            #expect(try Self.list(try await client.api(.get, "/api/v1/foods/recent?limit=1", session), "items").count == 1)
            #expect(try await client.api(.get, "/api/v1/foods/recent?limit=0", session).status == .badRequest)
        }
    }

    @Test("from the catalog: my porridge (oats 60 g, milk 206.3 g, banana 1 medium) is 458.2 kcal a serving; a banana starred once")
    func catalog() async throws {
        let t = try TestApp(catalog: try await ServerCatalogDatabase.shared.value)
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile()
            let created = try await client.api(.post, "/api/v1/saved-meals", session, json: [
                "name": "My porridge",
                "items": [
                    ["foodId": "08120", "grams": 60], ["foodId": "01077", "grams": 206.3],
                    ["foodId": "09040", "portion": "1 medium (7\" to 7-7/8\" long)"],
                ],
            ])
            #expect(created.status == .created, "\(created.text)")
            let saved = try created.object()
            let items = try #require(saved["items"] as? [[String: Any]])
            #expect(items.map { number($0["calories"]) } == [227.4, 125.8, 105])
            #expect(number(items[2]["grams"]) == 118)
            #expect(items[2]["portion"] as? String == "1 medium (7\" to 7-7/8\" long)")
            let perServing = try #require(saved["perServing"] as? [String: Any])
            #expect(number(perServing["calories"]) == 458.2)
            #expect(number(perServing["protein"]) == 15.7)

            let unknown = try await client.api(.post, "/api/v1/saved-meals", session, json: ["name": "X", "items": [["foodId": "99999", "grams": 10]]])
            #expect(unknown.status == .unprocessableContent)
            #expect(try unknown.errorDetail().fields?.keys.sorted() == ["items.0.foodId"], "\(unknown.text)")

            let banana = try await client.api(.post, "/api/v1/favourites", session, json: ["foodId": "09040", "portion": "1 medium (7\" to 7-7/8\" long)"])
            #expect(banana.status == .created)
            #expect(number(try banana.object()["grams"]) == 118)
            #expect(number(try banana.object()["calories"]) == 105)
            let twice = try await client.api(.post, "/api/v1/favourites", session, json: ["foodId": "09040"])
            #expect(twice.status == .ok)
            #expect(try twice.object()["id"] as? String == (try banana.object()["id"] as? String))

            let batch = try await client.api(.post, "/api/v1/meals/batch", session, json: [
                "items": [["foodId": "08120", "grams": 60], ["foodId": "09040", "portion": "1 medium (7\" to 7-7/8\" long)"]],
            ])
            #expect(batch.status == .created)
            #expect(try Self.list(batch, "meals").map { number($0["calories"]) } == [227.4, 105])
        }
    }
}
