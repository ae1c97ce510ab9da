import Foundation

/// Waits for a piece of async work for a bounded time, without cancelling it.
///
/// Why: stopping a `PostgresClient` (cancel its `run()`, await it) has, rarely, never ended — seen in the full test
/// suite, a scratch database's client stopped after minutes idle, with no connection open and every thread idle.
/// Awaiting such a task directly (or in a task group, which awaits all its children) would wait forever; here the
/// caller goes on after `limit`, and the work, if it ever ends, ends on its own.
public enum BoundedWait {
    /// True when `work` finished within `limit`, false when the limit came first.
    public static func finishes(within limit: Duration, _ work: @escaping @Sendable () async -> Void) async -> Bool {
        await withCheckedContinuation { continuation in
            let outcome = FirstOutcome(continuation)
            let timer = Task {
                try? await Task.sleep(for: limit)
                outcome.settle(false)
            }
            Task {
                await work()
                outcome.settle(true)
                timer.cancel()
            }
        }
    }

    /// Resumes the continuation once, with whichever outcome comes first.
    private final class FirstOutcome: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Bool, Never>?

        init(_ continuation: CheckedContinuation<Bool, Never>) {
            self.continuation = continuation
        }

        func settle(_ outcome: Bool) {
            let first = lock.withLock { () -> CheckedContinuation<Bool, Never>? in
                defer { continuation = nil }
                return continuation
            }
            first?.resume(returning: outcome)
        }
    }
}
