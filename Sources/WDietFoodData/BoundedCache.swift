import Foundation

/// A thread-safe memo that forgets everything when full. Searches rank the same food names over and over;
/// splitting and stemming a name once instead of on every query keeps the ranking within its time budget.
/// Forgetting all at once is crude, but it bounds memory with no bookkeeping on the hot path.
public final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Key: Value] = [:]
    private let capacity: Int

    public init(capacity: Int) {
        self.capacity = capacity
    }

    public func value(for key: Key, orMake make: () -> Value) -> Value {
        lock.lock()
        let cached = storage[key]
        lock.unlock()
        if let cached { return cached }
        let made = make()
        lock.lock()
        if storage.count >= capacity { storage.removeAll(keepingCapacity: true) }
        storage[key] = made
        lock.unlock()
        return made
    }
}
