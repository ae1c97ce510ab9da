import Foundation
import PostgresNIO
import Testing
import WDietCore
import WDietPostgres
import WDietStore
import WDietTestSupport

/// The PostgreSQL store writes an event's properties as JSON text of its own (`PostgresAnalyticsStore.propertiesJSON`)
/// instead of `JSONEncoder`'s. What the table holds must be the same `jsonb` value the encoder's text gives, for any
/// key and value a property can carry, on every path an event comes in by (the meal save's statement, the event alone).
@Suite struct AnalyticsPropertiesJSONTests {
    static let properties: [[String: String]] = [
        [:],
        ["source": "manual", "meal_type": "snack"],
        ["quote": "say \"hi\"", "back\\slash": "C:\\temp\\", "slash": "a/b </script>"],
        ["control": "line\nbreak\ttab\r\u{01}\u{1F}\u{7F}", "unicode": "Käse, Grüße 🍎 \u{2028}\u{00A0}é"],
        ["": "", "z": "last", "A": "capital", "ä": "umlaut key", "10": "digits"],
    ]

    static func encoderText(_ properties: [String: String]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(properties), as: UTF8.self)
    }

    @Test(arguments: properties)
    func theStoredValueIsTheEncodersValue(_ properties: [String: String]) async throws {
        try await StoreBackend.postgres.withCoachStores { stores in
            guard case .postgres(let client) = stores.database else { Issue.record("not PostgreSQL"); return }
            let user = try await stores.makeUser()
            let alone = AnalyticsEvent(name: .sessionStart, properties: properties, occurredAt: stores.clock.now)
            try await stores.analytics.recordEvent(alone, userId: user)
            let meal = Meal(name: "Apple", kcal: 95, loggedAt: stores.clock.now)
            let withMeal = AnalyticsEvent(name: .mealLogged, properties: properties, occurredAt: stores.clock.now)
            _ = try await stores.meals.saveMeal(meal, userId: user, timeZone: TimeZone(identifier: "UTC")!, recording: withMeal)

            let read = try await stores.analytics.events(userId: user)
            #expect(read.map(\.properties) == [properties, properties])
            let expected = try Self.encoderText(properties)
            let rows = try await client.query(
                "SELECT bool_and(properties = \(expected)::jsonb), count(*)::bigint FROM analytics_events WHERE user_id = \(user)")
            for try await (same, count) in rows.decode((Bool, Int64).self) {
                #expect(same)
                #expect(count == 2)
            }
        }
    }
}
