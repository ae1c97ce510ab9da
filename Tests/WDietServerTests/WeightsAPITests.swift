import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietTestSupport

@Suite("Weights API")
struct WeightsAPITests {
    @Test("a user who reads pounds logs in lb: stored in kg to 0.1; a second entry that day replaces the first", arguments: StoreBackend.allCases)
    func pounds(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInWithProfile(["weightUnit": "lb"])
            let first = try await client.api(.post, "/api/v1/weights", session, json: ["lb": 176.4])
            #expect(first.status == .created)
            let saved = try first.object()
            #expect(saved["unit"] as? String == "lb")
            let entry = try #require(saved["entry"] as? [String: Any])
            #expect(number(entry["kg"]) == 80)  // 176.4 × 0.45359237 = 80.01
            #expect(number(entry["lb"]) == 176.4)
            #expect(entry["localDate"] as? String == "2026-03-01")
            let day = try #require(saved["day"] as? [String: Any])
            #expect(number(day["kg"]) == 80)
            #expect(number(day["averageKg"]) == 80)

            t.clock.advance(seconds: 3_600)
            let second = try await client.api(.post, "/api/v1/weights", session, json: ["lb": 175.3]).object()
            #expect(number((second["day"] as? [String: Any])?["kg"]) == 79.5)

            let history = try await client.api(.get, "/api/v1/weights", session)
            #expect(history.status == .ok)
            let body = try history.object()
            #expect((body["entries"] as? [Any])?.count == 2)
            let days = try #require(body["days"] as? [[String: Any]])
            #expect(days.count == 1)
            #expect(number(days[0]["kg"]) == 79.5)
            #expect(number(body["pickerDefaultKg"]) == 79.5)
        }
    }

    @Test("the rolling average over days, and the weight card's green ↓ below it", arguments: StoreBackend.allCases)
    func average(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInWithProfile()
            for (day, kg) in [("2026-02-27", 81.0), ("2026-02-28", 80.0)] {
                let response = try await client.api(.post, "/api/v1/weights", session, json: ["kg": kg, "loggedAt": "\(day)T06:00:00Z"])
                #expect(response.status == .created)
            }
            let today = try await client.api(.post, "/api/v1/weights", session, json: ["kg": 79.04]).object()
            let day = try #require(today["day"] as? [String: Any])
            #expect(number((today["entry"] as? [String: Any])?["kg"]) == 79)  // to 0.1 kg
            #expect(number(day["averageKg"]) == 80)
            #expect(day["trend"] == nil, "a trend from the 7th day on")

            let dashboard = try await client.api(.get, "/api/v1/dashboard", session).object()
            let card = try #require(dashboard["weightCard"] as? [String: Any])
            #expect(number(card["todayKg"]) == 79)
            #expect(number(card["averageKg"]) == 80)
            #expect(number(card["belowAverageKg"]) == -1)

            let history = try await client.api(.get, "/api/v1/weights", session).object()
            let days = try #require(history["days"] as? [[String: Any]])
            #expect(days.map { $0["date"] as? String } == ["2026-02-27", "2026-02-28", "2026-03-01"])
            #expect(days.map { number($0["averageKg"]) } == [81, 80.5, 80])
        }
    }

    @Test("001's weight messages under the member sent; kg and lb together are refused", arguments: StoreBackend.allCases)
    func validation(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let kgUser = try await client.signInWithProfile()
            let cases: [([String: Any], [String: String])] = [
                (["kg": 10], ["kg": "Weight must be at least 20 kg (44 lbs)"]),
                (["kg": 501], ["kg": "Weight must be less than 500 kg (1102 lbs)"]),
                (["lb": 40], ["lb": "Weight must be at least 20 kg (44 lbs)"]),
                (["kg": "eighty"], ["kg": "Please enter a valid number"]),
                ([:], ["kg": "Please enter a valid number"]),
                (["kg": 80, "lb": 176], ["kg": "Send kg or lb, not both"]),
                (["kg": 80, "loggedAt": "1970-01-01T00:00:00Z"], ["loggedAt": "Please check the date and time"]),
            ]
            for (body, fields) in cases {
                let response = try await client.api(.post, "/api/v1/weights", kgUser, json: body)
                #expect(response.status == .unprocessableContent, "\(body)")
                #expect(try response.errorDetail().fields == fields, "\(body)")
            }
            let lbUser = try await client.signInWithProfile(["weightUnit": "lb"])
            let empty = try await client.api(.post, "/api/v1/weights", lbUser, body: "{}")
            #expect(try empty.errorDetail().fields == ["lb": "Please enter a valid number"])
            #expect((try await client.api(.get, "/api/v1/weights", kgUser).object()["entries"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("a client id makes a weight idempotent; delete is 204 then the entry is gone", arguments: StoreBackend.allCases)
    func idempotentAndDelete(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let session = try await client.signInWithProfile()
            let id = UUID().uuidString
            let first = try await client.api(.post, "/api/v1/weights", session, json: ["id": id, "kg": 80])
            t.clock.advance(seconds: 60)
            let retry = try await client.api(.post, "/api/v1/weights", session, json: ["id": id, "kg": 80])
            #expect(retry.status == .created)
            #expect(number((try first.object()["entry"] as? [String: Any])?["version"]) == number((try retry.object()["entry"] as? [String: Any])?["version"]))
            #expect((try await client.api(.get, "/api/v1/weights", session).object()["entries"] as? [Any])?.count == 1)

            #expect(try await client.api(.delete, "/api/v1/weights/\(id)", session).status == .noContent)
            #expect((try await client.api(.get, "/api/v1/weights", session).object()["entries"] as? [Any])?.isEmpty == true)
            #expect(try await client.api(.delete, "/api/v1/weights/\(UUID().uuidString)", session).status == .notFound)
        }
    }
}
