import Foundation

/// A value kept per user by a process (a day's dashboard inputs, a profile), at most `capacity` users; the least
/// recently stored go first. Each entry is tagged with the user's generation when its read began (SQLite:
/// `UserDataChanges`; PostgreSQL: the user's `last_version` as the session lookup read it), so an entry is used only
/// while nothing it was read from has been written since — and a write during the read leaves the entry behind,
/// never ahead.
public final class UserGenerationCache<Value: Sendable>: @unchecked Sendable {
    private struct Entry {
        var value: Value
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

    public func value(forUser userId: String, generation: UInt64) -> Value? {
        lock.withLock {
            guard let entry = entries[userId], entry.generation == generation else { return nil }
            return entry.value
        }
    }

    /// The user's entry whatever its generation (a writer that can tell what its own write changed brings it
    /// forward: `ChallengeService`'s day saves); nil when there is none.
    public func entry(forUser userId: String) -> (value: Value, generation: UInt64)? {
        lock.withLock { entries[userId].map { ($0.value, $0.generation) } }
    }

    public func store(_ value: Value, forUser userId: String, generation: UInt64) {
        lock.withLock {
            clock &+= 1
            entries[userId] = Entry(value: value, generation: generation, stamp: clock)
            if entries.count > capacity {
                // Rare: drop the oldest quarter in one go rather than tracking an order on every store.
                let cutoff = entries.values.map(\.stamp).sorted()[capacity / 4]
                entries = entries.filter { $0.value.stamp > cutoff }
            }
        }
    }

    public var count: Int { lock.withLock { entries.count } }
}

/// The dashboard's inputs of a user's day (`DashboardStore`).
public typealias DashboardInputsCache = UserGenerationCache<DashboardInputs>
