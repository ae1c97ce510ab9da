import Foundation
import Logging
import WDietStore

/// `wdiet serve`'s maintenance of deleted rows (issue 21 item 8, docs/operations.md "Deleted rows"): once at start
/// and then every `DeletedRows.sweepInterval`, the content of meals, weights and generic sync rows deleted more than
/// `DeletedRows.retention` ago is scrubbed and replay results older than that removed, in batches of
/// `DeletedRows.batchSize` (each its own short transaction; on SQLite a bulk write that yields to waiting saves).
/// It runs in a task of its own and never blocks a request; a failure is logged and tried again next time. Several
/// processes on one PostgreSQL may sweep at once (`PostgresDeletedRowStore`).
struct DeletedRowSweeper: Sendable {
    let store: any DeletedRowStore
    let now: @Sendable () -> Date
    let logger: Logger
    /// The media store whose items no row names are deleted after a grace period (`sweepMedia`, docs/media.md).
    var media: (any UnreferencedMediaStore)? = nil

    /// Sweeps until nothing is left to do (or a batch fails); returns what it did.
    @discardableResult
    func sweep() async -> DeletedRowSweep {
        var done = DeletedRowSweep()
        let cutoff = now().addingTimeInterval(-DeletedRows.retention)
        do {
            while !Task.isCancelled {
                let batch = try await store.scrubDeletedRows(deletedBefore: cutoff, limit: DeletedRows.batchSize)
                done.mealsScrubbed += batch.mealsScrubbed
                done.weightsScrubbed += batch.weightsScrubbed
                done.rowsScrubbed += batch.rowsScrubbed
                done.replayResultsRemoved += batch.replayResultsRemoved
                if !batch.isFull(limit: DeletedRows.batchSize) { break }
                await Task.yield()
            }
        } catch {
            logger.warning("Deleted rows could not be scrubbed; trying again at the next sweep", metadata: ["error": "\(String(reflecting: error))"])
        }
        if done.total > 0 {
            logger.info("Deleted rows scrubbed", metadata: [
                "meals": "\(done.mealsScrubbed)", "weights": "\(done.weightsScrubbed)", "rows": "\(done.rowsScrubbed)", "replayResults": "\(done.replayResultsRemoved)",
            ])
        }
        return done
    }

    /// The sweep at start and then every `interval`, in a detached background task for the life of the process.
    func start(interval: TimeInterval = DeletedRows.sweepInterval) {
        Task.detached(priority: .background) {
            while !Task.isCancelled {
                await sweep()
                await sweepMedia()
                try? await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
            }
        }
    }
}
