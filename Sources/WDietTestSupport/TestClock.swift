import Foundation

/// A clock a test sets and moves, handed to stores as their `now`.
public final class TestClock: @unchecked Sendable {
    // A lock rather than `Mutex`: `Mutex` needs macOS 15 and the package still builds for macOS 14.
    private let lock = NSLock()
    private var current: Date

    public init(_ start: Date) {
        current = start
    }

    public var now: Date {
        lock.withLock { current }
    }

    public func set(_ date: Date) {
        lock.withLock { current = date }
    }

    public func advance(seconds: TimeInterval) {
        lock.withLock { current += seconds }
    }

    /// What a store's `now:` parameter takes.
    public var closure: @Sendable () -> Date {
        { [self] in now }
    }
}
