import Foundation

/// Blocking work (a child process, a socket read) for async tests, on a thread of its own. Waiting in
/// `waitUntilExit` or `readDataToEndOfFile` on a Swift concurrency thread holds one of the cooperative pool's threads
/// (two on a two-core machine), which every suite of the run shares; in-process servers answering other tests then
/// starve, and their timers (an SMTP greeting, a session) run out.
public enum OwnThread {
    public static func run<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }
}
