import Foundation

/// A value the tests share that takes long to make (an SR28 import: seconds in a debug build), made once on a
/// thread of its own and awaited by every test that needs it.
///
/// Why not a `static let`: Swift makes one inside `swift_once`, which blocks the thread making it and every thread
/// that touches it meanwhile. Tests run on Swift's cooperative threads — two on a 2-core machine — so the whole
/// suite could stall while a catalog was imported (`gdb` on a full run showed a test's thread waiting in
/// `swift_once` for such an import, in a run where a new task once waited 48 s for a thread). Here the work runs on
/// a plain thread, and the tests waiting for it suspend instead of blocking.
public final class SharedTestValue<Value: Sendable>: Sendable {
    private let making: Task<Value, any Error>

    /// Starts making the value at once, on a new thread.
    public init(_ make: @escaping @Sendable () throws -> Value) {
        making = Task {
            try await withCheckedThrowingContinuation { continuation in
                Thread { continuation.resume(with: Result { try make() }) }.start()
            }
        }
    }

    /// The value, or the error making it threw (every caller gets the same outcome).
    public var value: Value {
        get async throws { try await making.value }
    }
}
