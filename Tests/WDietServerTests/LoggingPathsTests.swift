import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietCore
@testable import WDietServer
import WDietStore
import WDietTestSupport

/// A meal or a weight has one path (`MealLogging`, `WeightLogging`) whichever way it comes in: the JSON API, the
/// web form and the sync push record the same analytics moment for the same action.
@Suite("One path per use case: API, web form and sync push record the same moments")
struct LoggingPathsTests {
    /// A sync push of one new meal and one new weight, made now by the test clock (09:00 UTC: breakfast).
    static func pushBody(mealId: UUID, weightId: UUID, at now: Date) throws -> String {
        let meal = Meal(id: mealId, name: "Porridge", kcal: 350, loggedAt: now)
        let weight = WeightEntry(id: weightId, kg: 79.4, loggedAt: now)
        let push = SyncPushRequest(changes: [
            .upsert(meal, key: "meal-\(mealId)"), .upsert(weight, key: "weight-\(weightId)"),
        ])
        return String(decoding: try SyncCoding.encoder.encode(push), as: UTF8.self)
    }

    @Test("a manual meal at 09:00 UTC is meal_logged {source manual, meal_type breakfast} once by the API, the web form and a sync push; a weight is weight_logged {unit kg} by the API and a push", arguments: StoreBackend.allCases)
    func sameMoments(backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let breakfast: [String: String] = ["source": "manual", "meal_type": "breakfast"]

            let api = try await client.signInWithProfile(["timeZone": "UTC"])
            #expect(try await client.api(.post, "/api/v1/meals", api, json: ["name": "Porridge", "calories": 350]).status == .created)
            #expect(try await client.api(.post, "/api/v1/weights", api, json: ["kg": 79.4]).status == .created)

            let web = try await client.mealWebUser(["timeZone": "UTC"])
            let webUserId = try #require(try await t.services.accounts.session(tokenHash: SessionToken.hash(web.sessionToken))?.userId)
            #expect(try await client.mealSubmit("/meals/new", web, ["name": "Porridge", "calories": "350"]).status == .seeOther)

            let synced = try await client.signInWithProfile(["timeZone": "UTC"])
            let body = try Self.pushBody(mealId: UUID(), weightId: UUID(), at: t.services.now())
            let first = try await client.api(.post, "/api/v1/sync/push", synced, body: body)
            #expect(first.status == .ok, "\(first.text)")
            // A replay applies nothing new and records nothing new.
            #expect(try await client.api(.post, "/api/v1/sync/push", synced, body: body).status == .ok)

            let apiEvents = try await WebAnalyticsMomentsTests.settled(api.userId, in: t, atLeast: 2)
            let webEvents = try await WebAnalyticsMomentsTests.settled(webUserId, in: t, atLeast: 3)
            let syncEvents = try await WebAnalyticsMomentsTests.settled(synced.userId, in: t, atLeast: 2)
            for events in [apiEvents, webEvents, syncEvents] {
                #expect(events.filter { $0.name == .mealLogged }.map(\.properties) == [breakfast])
            }
            for events in [apiEvents, syncEvents] {
                #expect(events.filter { $0.name == .weightLogged }.map(\.properties) == [["unit": "kg"]])
            }
        }
    }

    @Test("a synced edit of a meal (with its base version) and a synced delete are not meal_logged again")
    func syncedEditsAreNotLogged() async throws {
        try await TestApp.test(.sqlite) { t, client in
            let session = try await client.signInWithProfile(["timeZone": "UTC"])
            let mealId = UUID()
            let created = try await client.api(.post, "/api/v1/sync/push", session,
                                               body: try Self.pushBody(mealId: mealId, weightId: UUID(), at: t.services.now()))
            let results = try #require(try created.object()["results"] as? [[String: Any]])
            let version = try #require(number(results.first?["version"]))
            var edited = Meal(id: mealId, name: "Porridge with honey", kcal: 420, loggedAt: t.services.now())
            edited.protein = 12
            // One change per row and push: the edit, then the delete.
            for change in [SyncChange.upsert(edited, baseVersion: Int64(version), key: "edit-\(mealId)"),
                           SyncChange.delete(.meal, id: mealId, key: "delete-\(mealId)")] {
                let answer = try await client.api(.post, "/api/v1/sync/push", session,
                                                  body: String(decoding: try SyncCoding.encoder.encode(SyncPushRequest(changes: [change])), as: UTF8.self))
                #expect(answer.status == .ok, "\(answer.text)")
                let status = try #require((try answer.object()["results"] as? [[String: Any]])?.first?["status"] as? String)
                #expect(status == "applied")
            }
            let events = try await WebAnalyticsMomentsTests.settled(session.userId, in: t, atLeast: 2)
            #expect(events.filter { $0.name == .mealLogged }.count == 1)
        }
    }
}
