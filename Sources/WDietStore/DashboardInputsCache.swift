import Foundation

/// The kept dashboard inputs of a process, at most `capacity` users; the least recently stored go first. Each entry
/// is tagged with the user's data generation when its read began (SQLite: `UserDataChanges`; PostgreSQL: the
/// user's `last_version` as the session lookup read it), so an entry is used only while nothing of the user's has
/// been written since — and a write during the read leaves the entry behind, never ahead.
public final class DashboardInputsCache: @unchecked Sendable {
    private struct Entry {
        var inputs: DashboardInputs
        var generation: UInt64
        var stamp: UInt64
    }

    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    private var clock: UInt64 = 0
    public let capacity: Int

    public init(capacity: Int = 8_192) {
        self.capacity = capacity
    }

    public func inputs(forUser userId: String, generation: UInt64) -> DashboardInputs? {
        lock.withLock {
            guard let entry = entries[userId], entry.generation == generation else { return nil }
            return entry.inputs
        }
    }

    public func store(_ inputs: DashboardInputs, forUser userId: String, generation: UInt64) {
        lock.withLock {
            clock &+= 1
            entries[userId] = Entry(inputs: inputs, generation: generation, stamp: clock)
            if entries.count > capacity {
                // Rare: drop the oldest quarter in one go rather than tracking an order on every store.
                let cutoff = entries.values.map(\.stamp).sorted()[capacity / 4]
                entries = entries.filter { $0.value.stamp > cutoff }
            }
        }
    }

    public var count: Int { lock.withLock { entries.count } }
}
