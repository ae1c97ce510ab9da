import Foundation
import PostgresNIO
import WDietStore

/// `DeletedRowStore` on PostgreSQL. Several `wdiet serve` processes may sweep at once: each batch takes its rows
/// with `FOR UPDATE SKIP LOCKED` (no process waits for another, none scrubs a row twice at once), and a scrubbed row
/// is never selected again, so a repeated or concurrent sweep changes nothing more.
public struct PostgresDeletedRowStore: DeletedRowStore {
    let access: PostgresStoreAccess
    let now: @Sendable () -> Date

    public init(client: PostgresClient, now: @escaping @Sendable () -> Date = Date.init) {
        access = PostgresStoreAccess(client: client, label: "wdiet.postgres.deleted-rows")
        self.now = now
    }

    public func scrubDeletedRows(deletedBefore cutoff: Date, limit: Int) async throws -> DeletedRowSweep {
        let cutoff = PostgresInstant(cutoff)
        let now = PostgresInstant(now())
        let limit = Int64(max(0, limit))
        let name = DeletedRows.scrubbedMealName
        let kg = DeletedRows.scrubbedWeightKg
        return try await access.transaction { connection in
            // Only content columns change (not version, updated_at, deleted_at, local_date): no device pulls the row
            // again, and the day counts' triggers see a tombstone stay a tombstone.
            let meals = try await Self.count(connection.query("""
                WITH scrubbed AS (
                    UPDATE meals SET name = \(name), food_id = NULL, grams = NULL, kcal = 0, protein = NULL, carbs = NULL,
                        fat = NULL, fiber = NULL, source = 'manual', slot = NULL, scrubbed_at = \(now)
                    WHERE id IN (SELECT id FROM meals WHERE deleted_at IS NOT NULL AND scrubbed_at IS NULL
                        AND deleted_at < \(cutoff) LIMIT \(limit) FOR UPDATE SKIP LOCKED)
                    RETURNING 1)
                SELECT count(*) FROM scrubbed
                """, logger: access.logger))
            let weights = try await Self.count(connection.query("""
                WITH scrubbed AS (
                    UPDATE weights SET kg = \(kg), scrubbed_at = \(now)
                    WHERE id IN (SELECT id FROM weights WHERE deleted_at IS NOT NULL AND scrubbed_at IS NULL
                        AND deleted_at < \(cutoff) LIMIT \(limit) FOR UPDATE SKIP LOCKED)
                    RETURNING 1)
                SELECT count(*) FROM scrubbed
                """, logger: access.logger))
            // A generic row keeps its key, version, dates and tombstone; its data becomes the empty object.
            let empty = DeletedRows.scrubbedRowText
            let rows = try await Self.count(connection.query("""
                WITH scrubbed AS (
                    UPDATE sync_rows SET data = \(empty)
                    WHERE (user_id, collection, id) IN (SELECT user_id, collection, id FROM sync_rows
                        WHERE deleted_at IS NOT NULL AND data <> '{}' AND deleted_at < \(cutoff)
                        LIMIT \(limit) FOR UPDATE SKIP LOCKED)
                    RETURNING 1)
                SELECT count(*) FROM scrubbed
                """, logger: access.logger))
            let results = try await Self.count(connection.query("""
                WITH removed AS (
                    DELETE FROM sync_results WHERE (user_id, idempotency_key) IN (
                        SELECT user_id, idempotency_key FROM sync_results WHERE created_at < \(cutoff)
                        LIMIT \(limit) FOR UPDATE SKIP LOCKED)
                    RETURNING 1)
                SELECT count(*) FROM removed
                """, logger: access.logger))
            return DeletedRowSweep(mealsScrubbed: meals, weightsScrubbed: weights, rowsScrubbed: rows, replayResultsRemoved: results)
        }
    }

    private static func count(_ rows: PostgresRowSequence) async throws -> Int {
        var count: Int64 = 0
        for try await value in rows.decode(Int64.self) { count = value }
        return Int(count)
    }
}
