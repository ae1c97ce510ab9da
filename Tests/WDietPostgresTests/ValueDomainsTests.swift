import Foundation
import PostgresNIO
import Testing
import WDietPostgres
import WDietTestSupport

/// Migration 49 moved the value rules of meals, weights, logged days, users and analytics events from table CHECK
/// constraints to domains (cheaper per statement). Below the stores' own checks, the schema still refuses every
/// value it refused before, with check_violation, and still takes the NULLs and values it took.
@Suite struct ValueDomainsTests {
    static let user = UUID(uuidString: "5E1F0000-0000-4000-8000-000000000049")!

    /// A meal row with one column replaced; the rest is a valid manual meal.
    static func meal(_ column: String, _ value: String) -> String {
        var values = [
            "id": "gen_random_uuid()", "user_id": "'\(user)'", "name": "'Apple'", "food_id": "NULL", "grams": "NULL",
            "kcal": "95", "protein": "NULL", "carbs": "25", "fat": "0", "fiber": "4.4", "source": "'manual'",
            "logged_at": "now()", "local_date": "DATE '2026-11-27'", "created_at": "now()", "updated_at": "now()",
            "version": "1", "slot": "NULL",
        ]
        values[column] = value
        let columns = values.keys.sorted()
        return "INSERT INTO meals (\(columns.joined(separator: ", "))) VALUES (\(columns.map { values[$0]! }.joined(separator: ", ")))"
    }

    static let refused: [String] = [
        meal("kcal", "-1"),
        meal("grams", "0"),
        meal("protein", "-0.5"),
        meal("carbs", "-2"),
        meal("fat", "-3"),
        meal("fiber", "-0.1"),
        meal("source", "'scanned'"),
        meal("slot", "'brunch'"),
        meal("source", "'database'"),  // a database meal without its food and grams (the table's own rule)
        "INSERT INTO weights (id, user_id, kg, logged_at, local_date, created_at, updated_at, version) VALUES (gen_random_uuid(), '\(user)', 0, now(), DATE '2026-11-27', now(), now(), 1)",
        "UPDATE logged_days SET entries = -1",
        "UPDATE users SET appearance = 'sepia'",
        "UPDATE users SET language = ''",
        "INSERT INTO analytics_events (id, user_id, name, properties, occurred_at, created_at, updated_at, version) VALUES (gen_random_uuid(), '\(user)', '', '{}', now(), now(), now(), 1)",
        "INSERT INTO analytics_events (id, user_id, name, properties, occurred_at, created_at, updated_at, version) VALUES (gen_random_uuid(), '\(user)', 'meal_logged', '[1]', now(), now(), now(), 1)",
    ]

    static let accepted: [String] = [
        meal("kcal", "0"),
        meal("protein", "NULL"),
        meal("slot", "'snack'"),
        meal("source", "'labelScan'"),
        "UPDATE users SET appearance = 'dark', language = 'de'",
        "UPDATE users SET appearance = NULL, language = NULL",
        "UPDATE logged_days SET entries = 0",
        "INSERT INTO analytics_events (id, user_id, name, properties, occurred_at, created_at, updated_at, version) VALUES (gen_random_uuid(), '\(user)', 'meal_logged', '{\"source\": \"manual\"}', now(), now(), now(), 1)",
    ]

    static func run(_ sql: String) async throws -> String? {
        let scratch = try await PostgresScratchDatabase.create()
        defer { Task { await scratch.drop() } }
        _ = try await PostgresUserStore(client: scratch.client).createUser(id: user, email: nil, displayName: "Domains")
        // A logged day, for the UPDATEs above (plain SQL inserts into meals count no day since migration 50).
        try await scratch.client.query(PostgresQuery(unsafeSQL: "INSERT INTO logged_days (user_id, local_date, entries) VALUES ('\(user)', DATE '2026-11-27', 1)"))
        do {
            try await scratch.client.query(PostgresQuery(unsafeSQL: sql))
            return nil
        } catch let error as PSQLError {
            return error.serverInfo?[.sqlState]
        }
    }

    @Test(arguments: refused)
    func theSchemaStillRefuses(_ sql: String) async throws {
        #expect(try await Self.run(sql) == "23514")  // check_violation, as the table constraints answered
    }

    @Test(arguments: accepted)
    func theSchemaStillTakes(_ sql: String) async throws {
        #expect(try await Self.run(sql) == nil)
    }
}
