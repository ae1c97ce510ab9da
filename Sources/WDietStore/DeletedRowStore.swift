import Foundation

/// How long a deleted row keeps its content, and what is kept after (issue 21 item 8; docs/operations.md "Deleted
/// rows", docs/sync.md "Replay").
public enum DeletedRows {
    /// A deleted meal, weight or generic sync row keeps its content this long: the undo ("Restore") and the sync replay window
    /// (`SyncLimits.resultRetention`, 30 days) both end within it. After it the row is a bare tombstone: id, user,
    /// version, createdAt/updatedAt/deletedAt, localDate and loggedAt (what a pull and the day counts need), its
    /// content scrubbed, and a restore answers what a missing row answers.
    public static let retention: TimeInterval = SyncLimits.resultRetention
    /// Rows scrubbed (and replay results removed) per transaction: a sweep never holds the writer for long.
    public static let batchSize = 500
    /// How often `wdiet serve` sweeps (and once at start).
    public static let sweepInterval: TimeInterval = 3_600

    /// True when a row deleted at `deletedAt` can no longer be restored at `now`.
    public static func isPastUndo(deletedAt: Date, now: Date) -> Bool {
        deletedAt < now.addingTimeInterval(-retention)
    }

    /// What a scrubbed meal keeps of its content: an empty name, 0 kcal, no food, amounts, macros or slot, source
    /// manual (the columns' constraints allow nothing emptier).
    public static let scrubbedMealName = ""
    /// What a scrubbed weight holds instead of the person's value: 1 kg, outside every weight the product accepts
    /// (20–500 kg), since the column cannot be empty.
    public static let scrubbedWeightKg = 1.0
    /// What a scrubbed generic sync row (a journal entry, a Challenge row, a saved meal, a favourite…) keeps of its
    /// `data`: the empty object. Everything its tombstone needs (user, collection, id, version, updatedAt,
    /// deletedAt) is in columns of its own; no member of the data is kept, since no typed reader could decode a
    /// part of one anyway. The emptied data is also the mark that the row was scrubbed (docs/sync.md).
    public static let scrubbedRowText = "{}"
}

extension SyncItem {
    /// A generic row's tombstone whose data the sweep emptied (`DeletedRows.scrubbedRowText`): nothing of the
    /// row's type is left to decode; typed readers answer for it what they answer for a missing row.
    public var isScrubbedTombstone: Bool {
        entity == .row && deletedAt != nil && data == .object([:])
    }
}

/// What one batch of a sweep did.
public struct DeletedRowSweep: Equatable, Sendable {
    public var mealsScrubbed: Int
    public var weightsScrubbed: Int
    /// Generic sync rows (every collection) whose data was emptied.
    public var rowsScrubbed: Int
    public var replayResultsRemoved: Int

    public init(mealsScrubbed: Int = 0, weightsScrubbed: Int = 0, rowsScrubbed: Int = 0, replayResultsRemoved: Int = 0) {
        self.mealsScrubbed = mealsScrubbed
        self.weightsScrubbed = weightsScrubbed
        self.rowsScrubbed = rowsScrubbed
        self.replayResultsRemoved = replayResultsRemoved
    }

    public var total: Int { mealsScrubbed + weightsScrubbed + rowsScrubbed + replayResultsRemoved }
    /// True when a part of the batch reached its limit: there may be more to do.
    public func isFull(limit: Int) -> Bool {
        max(mealsScrubbed, weightsScrubbed, rowsScrubbed, replayResultsRemoved) >= limit
    }
}

/// Scrubs the content of rows deleted long ago, across all users (a maintenance task of `wdiet serve`).
public protocol DeletedRowStore: Sendable {
    /// One bounded batch: the content of at most `limit` meals, `limit` weights and `limit` generic sync rows
    /// deleted before `cutoff` is scrubbed (their tombstones kept, version and updatedAt unchanged: nothing a device
    /// must pull again; a row's data becomes `DeletedRows.scrubbedRowText`), and at most `limit` stored replay
    /// results older than `cutoff` are removed. Idempotent and safe with several
    /// processes at once: a row already scrubbed is not selected again. Call again while it returns a full batch.
    func scrubDeletedRows(deletedBefore cutoff: Date, limit: Int) async throws -> DeletedRowSweep
}
