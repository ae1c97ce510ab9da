import Foundation
import GRDB
import Synchronization

/// Copies the WAL into the database file from a connection and thread of its own, every `interval`, so that no
/// save pays for a checkpoint (the copy and its fsync) while the saves queued behind it wait: with SQLite's
/// automatic checkpoint, the save that crosses 1,000 WAL pages did that work, and it was the meal save's tail
/// even without load. The writer's automatic checkpoint is off while this runs (`AppDatabase.open`).
///
/// Passive checkpoints never block the writer or readers; one that finds frames still in use copies what it can
/// and the next one goes on. Durability is unchanged: a commit is in the WAL before it is acknowledged.
final class WALCheckpointer: Sendable {
    static let interval: TimeInterval = 0.25

    private let connection: DatabaseQueue
    private let queue = DispatchQueue(label: "wdiet.wal-checkpoint", qos: .utility)
    private let stopped = Mutex(false)

    init(path: String) throws {
        connection = try DatabaseQueue(path: path)
    }

    func start() {
        queue.asyncAfter(deadline: .now() + Self.interval) { [weak self] in
            guard let self, !self.stopped.withLock({ $0 }) else { return }
            // Busy (another checkpoint, a closing connection) is fine: the next round tries again.
            _ = try? self.connection.writeWithoutTransaction { db in
                try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(PASSIVE)")
            }
            self.start()
        }
    }

    func stop() {
        stopped.withLock { $0 = true }
    }
}
