import NIOCore
import NIOPosix

/// Where Swift concurrency runs the server's request handlers.
///
/// Hummingbird reads and writes each connection on one of NIO's event loops, and by default runs the handler of
/// each request on Swift's own cooperative pool: every request then crosses between the two sets of threads and
/// back (a queue hand-off and a futex wake-up each way). With NIO's event loops installed as Swift's global
/// executor, a handler runs on the event loop thread that read its request, and the continuation of a store
/// write resumes on an event loop. What runs on the pool's threads now runs on the event loops' (as many as
/// there are cores): store reads are synchronous on the calling thread in both cases, bcrypt stays on NIO's
/// thread pool, and the store's writes on their own queue.
public enum ServerExecutor {
    /// Call once, before the process starts any task it cares about (at the start of `main`). False when the
    /// runtime has no hook for it, or another executor is already installed.
    public static func installEventLoopsAsGlobalExecutor() -> Bool {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }
}
