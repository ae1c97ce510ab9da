import Foundation
import GRDB

/// Group commit for the stores' writes: writes that arrive while another is committing wait together and then
/// commit in one transaction, each in its own savepoint.
///
/// Why: under load (many users saving meals at once) a transaction per write paid for its own BEGIN, COMMIT and
/// WAL page writes — the same few pages (the tables' last leaf pages, the version counter) over and over — and
/// every waiting request held one of the server's two threads blocked on the writer. Now a waiting write
/// suspends, and one commit writes each page once for the whole batch.
///
/// What does not change: a write is acknowledged only after the transaction that holds it commits; a write that
/// throws is rolled back alone (its savepoint) and reports its own error, while the rest of its batch commits;
/// versions are drawn in order inside the one transaction, so they still grow in commit order. Alone, a write
/// commits at once: there is no waiting for a batch to fill.
///
/// Bulk writes (an import's chunks, `write(bulk: true)`) never share a batch: a bulk write commits alone, and only
/// when no other write waits (or after `bulkPatience` batches went before it, so a steady stream of saves cannot
/// starve an import). A meal save that arrives during an import waits for at most the one chunk being written.
final class GroupCommit: @unchecked Sendable {
    /// Bounds how long the last write of a batch waits for the ones before it.
    static let maximumBatch = 64
    /// How many batches of other writes may go before a waiting bulk write.
    static let bulkPatience = 8

    private struct Job {
        /// Runs the write in the batch's transaction, in its own savepoint.
        let run: (Database) -> Void
        /// Called once the transaction has committed (nil) or failed as a whole (the error).
        let finish: (Error?) -> Void
        /// A bulk write: commits alone, after the other writes waiting with it.
        var bulk = false
    }

    /// SQLite rolled the whole transaction back (an I/O error, a full disk): nothing of the batch is kept.
    struct TransactionLost: Error {}

    private let writer: any DatabaseWriter
    private let lock = NSLock()
    private var waiting: [Job] = []
    private var draining = false
    /// Batches of other writes that went before the first waiting bulk write.
    private var bulkSkipped = 0
    private let queue = DispatchQueue(label: "wdiet.group-commit")

    /// Writes waiting for their batch now (for tests).
    var waitingCount: Int { lock.withLock { waiting.count } }

    init(writer: any DatabaseWriter) {
        self.writer = writer
    }

    func write<T: Sendable>(bulk: Bool = false, _ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            // Written by `run` and read by `finish`, both on the draining queue, one after the other.
            nonisolated(unsafe) var outcome: Result<T, any Error> = .failure(TransactionLost())
            enqueue(Job(
                run: { db in
                    do {
                        var value: T?
                        try db.inSavepoint {
                            value = try updates(db)
                            return .commit
                        }
                        outcome = .success(value!)
                    } catch {
                        outcome = .failure(error)
                    }
                },
                finish: { transactionError in
                    if let transactionError {
                        continuation.resume(throwing: transactionError)
                    } else {
                        continuation.resume(with: outcome)
                    }
                },
                bulk: bulk
            ))
        }
    }

    private func enqueue(_ job: Job) {
        let startsDraining = lock.withLock { () -> Bool in
            waiting.append(job)
            if draining { return false }
            draining = true
            return true
        }
        if startsDraining { queue.async { self.drain() } }
    }

    private func drain() {
        while true {
            let batch = lock.withLock { () -> [Job] in
                guard !waiting.isEmpty else {
                    draining = false
                    return []
                }
                return nextBatch()
            }
            if batch.isEmpty { return }
            var transactionError: (any Error)?
            do {
                try writer.write { db in
                    for job in batch {
                        job.run(db)
                        guard db.isInsideTransaction else { throw TransactionLost() }
                    }
                }
            } catch {
                transactionError = error
            }
            for job in batch { job.finish(transactionError) }
        }
    }

    /// Takes the next batch off `waiting` (under `lock`, which is not empty): up to `maximumBatch` other writes in
    /// arrival order, or the first bulk write alone when nothing else waits or it has let `bulkPatience` batches go.
    private func nextBatch() -> [Job] {
        guard let firstBulk = waiting.firstIndex(where: \.bulk) else {
            let count = min(waiting.count, Self.maximumBatch)
            let batch = Array(waiting.prefix(count))
            waiting.removeFirst(count)
            return batch
        }
        let others = waiting.indices.filter { !waiting[$0].bulk }.prefix(Self.maximumBatch)
        if others.isEmpty || bulkSkipped >= Self.bulkPatience {
            bulkSkipped = 0
            return [waiting.remove(at: firstBulk)]
        }
        bulkSkipped += 1
        let batch = others.map { waiting[$0] }
        let taken = Set(others)
        waiting = waiting.indices.filter { !taken.contains($0) }.map { waiting[$0] }
        return batch
    }
}
