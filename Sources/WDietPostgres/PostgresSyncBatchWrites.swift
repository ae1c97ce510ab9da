import Foundation
import Logging
import PostgresNIO
import WDietStore

/// The meals and weights a sync push writes, in one statement per table and kind rather than one per row: a push of
/// 1,000 changes was 1,000 round trips. New rows go through the stores' multi-row `INSERT` (`PostgresOwnedRow.insert`);
/// edits, which have no batched form there, travel as one JSON array read by `jsonb_to_recordset`; instants as
/// whole milliseconds turned into `timestamptz` by integer interval arithmetic (exact, as `PostgresInstant`), and
/// numbers as JSON numbers (Swift writes the shortest text that reads back as the same `Double`).
enum PostgresSyncBatchWrites {
    struct MealRow: Encodable {
        var id: UUID
        var user_id: UUID
        var name: String
        var food_id: String?
        var grams: Double?
        var kcal: Double
        var protein: Double?
        var carbs: Double?
        var fat: Double?
        var fiber: Double?
        var source: String
        var logged_at_ms: Int64
        var local_date: String
        var created_at_ms: Int64
        var updated_at_ms: Int64
        var version: Int64
        var deleted_at_ms: Int64?
        var slot: String?

        init(_ stored: StoredMeal) {
            let meal = stored.meal
            id = meal.id
            user_id = stored.userId
            name = meal.name
            food_id = meal.foodId
            grams = meal.grams
            kcal = meal.kcal
            protein = meal.protein
            carbs = meal.carbs
            fat = meal.fat
            fiber = meal.fiber
            source = meal.source.rawValue
            logged_at_ms = PostgresInstant(meal.loggedAt).milliseconds
            local_date = stored.localDate.iso
            created_at_ms = PostgresInstant(stored.createdAt).milliseconds
            updated_at_ms = PostgresInstant(stored.updatedAt).milliseconds
            version = stored.version
            deleted_at_ms = stored.deletedAt.map { PostgresInstant($0).milliseconds }
            slot = meal.slot?.rawValue
        }
    }

    struct WeightRow: Encodable {
        var id: UUID
        var user_id: UUID
        var kg: Double
        var logged_at_ms: Int64
        var local_date: String
        var created_at_ms: Int64
        var updated_at_ms: Int64
        var version: Int64
        var deleted_at_ms: Int64?

        init(_ stored: StoredWeight) {
            id = stored.entry.id
            user_id = stored.userId
            kg = stored.entry.kg
            logged_at_ms = PostgresInstant(stored.entry.loggedAt).milliseconds
            local_date = stored.localDate.iso
            created_at_ms = PostgresInstant(stored.createdAt).milliseconds
            updated_at_ms = PostgresInstant(stored.updatedAt).milliseconds
            version = stored.version
            deleted_at_ms = stored.deletedAt.map { PostgresInstant($0).milliseconds }
        }
    }

    static func instant(_ column: String) -> String {
        "'epoch'::timestamptz + v.\(column) * interval '1 millisecond'"
    }

    static let mealRecord = """
        id uuid, user_id uuid, name text, food_id text, grams float8, kcal float8, protein float8, carbs float8,
        fat float8, fiber float8, source text, logged_at_ms bigint, local_date text, created_at_ms bigint,
        updated_at_ms bigint, version bigint, deleted_at_ms bigint, slot text
        """

    static let weightRecord = """
        id uuid, user_id uuid, kg float8, logged_at_ms bigint, local_date text, created_at_ms bigint, updated_at_ms bigint,
        version bigint, deleted_at_ms bigint
        """

    static func json(_ rows: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(rows), as: UTF8.self)
    }

    /// Inserts `inserts` and overwrites `updates` (rows of this user, already decided and versioned).
    static func writeMeals(inserts: [StoredMeal], updates: [StoredMeal], on connection: PostgresConnection, logger: Logger) async throws {
        try await StoredMeal.insert(inserts, on: connection, logger: logger)
        if !updates.isEmpty {
            let rows = try json(updates.map(MealRow.init))
            try await connection.query("""
                UPDATE meals AS m SET name = v.name, food_id = v.food_id, grams = v.grams, kcal = v.kcal,
                    protein = v.protein, carbs = v.carbs, fat = v.fat, fiber = v.fiber, source = v.source,
                    logged_at = \(unescaped: instant("logged_at_ms")), local_date = v.local_date::date,
                    updated_at = \(unescaped: instant("updated_at_ms")), version = v.version,
                    deleted_at = \(unescaped: instant("deleted_at_ms")), slot = v.slot
                FROM jsonb_to_recordset(\(rows)::jsonb) AS v(\(unescaped: mealRecord))
                WHERE m.id = v.id AND m.user_id = v.user_id
                """, logger: logger)
        }
    }

    static func writeWeights(inserts: [StoredWeight], updates: [StoredWeight], on connection: PostgresConnection, logger: Logger) async throws {
        try await StoredWeight.insert(inserts, on: connection, logger: logger)
        if !updates.isEmpty {
            let rows = try json(updates.map(WeightRow.init))
            try await connection.query("""
                UPDATE weights AS w SET kg = v.kg, logged_at = \(unescaped: instant("logged_at_ms")),
                    local_date = v.local_date::date, updated_at = \(unescaped: instant("updated_at_ms")),
                    version = v.version, deleted_at = \(unescaped: instant("deleted_at_ms"))
                FROM jsonb_to_recordset(\(rows)::jsonb) AS v(\(unescaped: weightRecord))
                WHERE w.id = v.id AND w.user_id = v.user_id
                """, logger: logger)
        }
    }

    /// Generic rows a push writes, in push order: upserts with their data, deletes as tombstones.
    struct RowWrites {
        var upserts: (collections: [String], ids: [UUID], data: [String], versions: [Int64]) = ([], [], [], [])
        var deletes: (collections: [String], ids: [UUID], versions: [Int64]) = ([], [], [])

        mutating func append(collection: String, id: UUID, data: String?, version: Int64) {
            if let data {
                upserts.collections.append(collection)
                upserts.ids.append(id)
                upserts.data.append(data)
                upserts.versions.append(version)
            } else {
                deletes.collections.append(collection)
                deletes.ids.append(id)
                deletes.versions.append(version)
            }
        }
    }

    /// The rows of `writes` in two statements (a push changes each row at most once, so their order within a
    /// statement does not matter): a journal of 50 entries was 50 round trips.
    static func writeRows(_ writes: RowWrites, userId: UUID, now: PostgresInstant, on connection: PostgresConnection, logger: Logger) async throws {
        let upserts = writes.upserts, deletes = writes.deletes
        if !upserts.ids.isEmpty {
            try await connection.query("""
                INSERT INTO sync_rows (user_id, collection, id, data, created_at, updated_at, version, deleted_at)
                SELECT \(userId), v.collection, v.id, v.data, \(now), \(now), v.version, NULL
                FROM unnest(\(upserts.collections)::text[], \(upserts.ids)::uuid[], \(upserts.data)::text[], \(upserts.versions)::bigint[])
                    AS v(collection, id, data, version)
                ON CONFLICT (user_id, collection, id) DO UPDATE SET
                    data = EXCLUDED.data, updated_at = EXCLUDED.updated_at, version = EXCLUDED.version, deleted_at = NULL
                """, logger: logger)
        }
        if !deletes.ids.isEmpty {
            try await connection.query("""
                UPDATE sync_rows AS r SET deleted_at = \(now), updated_at = \(now), version = v.version
                FROM unnest(\(deletes.collections)::text[], \(deletes.ids)::uuid[], \(deletes.versions)::bigint[])
                    AS v(collection, id, version)
                WHERE r.user_id = \(userId) AND r.collection = v.collection AND r.id = v.id
                """, logger: logger)
        }
    }
}
