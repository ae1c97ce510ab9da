import Foundation

/// The ids of once-only analytics events (`EventRecorder.stableId`) this process has already seen stored, so a
/// moment noticed on every dashboard load of its day costs the database one write, not a transaction per load:
/// on PostgreSQL the check that finds it recorded was three round trips (BEGIN, SELECT, COMMIT) on every load of
/// a phase-switch day. The store still records an id once on its own, so forgetting (another process, a restart,
/// the bound below) only costs that check again.
final class RecordedMoments: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Set<UUID> = []
    private var previous: Set<UUID> = []
    /// Ids kept per generation; two generations are kept, so an id seen in the last `capacity` records stays known.
    let capacity: Int

    init(capacity: Int = 50_000) {
        self.capacity = capacity
    }

    func contains(_ id: UUID) -> Bool {
        lock.withLock { current.contains(id) || previous.contains(id) }
    }

    func insert(_ id: UUID) {
        lock.withLock {
            if current.count >= capacity {
                previous = current
                current = []
            }
            current.insert(id)
        }
    }
}
