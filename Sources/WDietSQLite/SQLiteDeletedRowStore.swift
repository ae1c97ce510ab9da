import Foundation
import GRDB
import WDietStore

/// `DeletedRowStore` on SQLite: each batch one bulk write (it commits alone, after the saves waiting with it).
public struct SQLiteDeletedRowStore: DeletedRowStore {
    let database: AppDatabase
    let now: @Sendable () -> Date

    public init(database: AppDatabase, now: @escaping @Sendable () -> Date = Date.init) {
        self.database = database
        self.now = now
    }

    public func scrubDeletedRows(deletedBefore cutoff: Date, limit: Int) async throws -> DeletedRowSweep {
        let cutoffText = AppDatabase.instantText(cutoff)
        let nowText = AppDatabase.instantText(now())
        let limit = max(0, limit)
        return try await database.storeWrite(bulk: true) { db in
            // Only content columns change: not version, updatedAt, deletedAt or localDate, so no device pulls the
            // row again and the day counts (triggers on userId, localDate, deletedAt) do not fire.
            try db.execute(sql: """
                UPDATE meals SET name = ?, foodId = NULL, grams = NULL, kcal = 0, protein = NULL, carbs = NULL,
                    fat = NULL, fiber = NULL, source = 'manual', slot = NULL, scrubbedAt = ?
                WHERE id IN (SELECT id FROM meals WHERE deletedAt IS NOT NULL AND scrubbedAt IS NULL AND deletedAt < ? LIMIT ?)
                """, arguments: [DeletedRows.scrubbedMealName, nowText, cutoffText, limit])
            let meals = db.changesCount
            try db.execute(sql: """
                UPDATE weights SET kg = ?, scrubbedAt = ?
                WHERE id IN (SELECT id FROM weights WHERE deletedAt IS NOT NULL AND scrubbedAt IS NULL AND deletedAt < ? LIMIT ?)
                """, arguments: [DeletedRows.scrubbedWeightKg, nowText, cutoffText, limit])
            let weights = db.changesCount
            // A generic row keeps its key, version, dates and tombstone; its data becomes the empty object. The
            // journal's triggers see a tombstone stay one (no entry comes back, none is counted).
            try db.execute(sql: """
                UPDATE syncRows SET data = ?
                WHERE (userId, collection, id) IN (SELECT userId, collection, id FROM syncRows
                    WHERE deletedAt IS NOT NULL AND data <> '{}' AND deletedAt < ? LIMIT ?)
                """, arguments: [DeletedRows.scrubbedRowText, cutoffText, limit])
            let rows = db.changesCount
            try db.execute(sql: """
                DELETE FROM syncResults WHERE (userId, idempotencyKey) IN
                    (SELECT userId, idempotencyKey FROM syncResults WHERE createdAt < ? LIMIT ?)
                """, arguments: [cutoffText, limit])
            return DeletedRowSweep(mealsScrubbed: meals, weightsScrubbed: weights, rowsScrubbed: rows, replayResultsRemoved: db.changesCount)
        }
    }
}
