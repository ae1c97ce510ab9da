import Foundation

/// The line imports wait in (issue 21 item 3): one import is parsed, checked and written at a time in a process, on
/// a thread of its own at the lowest useful priority (nice 15), with at most `maxWaiting` more waiting; beyond that
/// `POST /import` answers 503 `import_busy` with Retry-After. Four 8 MB imports at once used to parse on the
/// server's two event-loop threads side by side and make another user's meal save wait (P95 280 ms); now the
/// saves get the CPU first and each import's chunks commit alone, after the saves waiting (`GroupCommit`, bulk).
///
/// The line is the label scans' (`WorkLine`: first come first served, a waiting request that goes away leaves
/// it); the thread is the process's one import thread. Across processes: on SQLite one process serves a file (the
/// serve lock), on PostgreSQL each process has its own line, and an import locks only its own account's rows.
enum ImportLine {
    /// One import at a time, four waiting: 5 × 32 MB bodies in memory at most.
    static let maxWaiting = 4

    /// The process's import thread, started when first used.
    static let threads = BackgroundThreads(count: 1, priority: BackgroundPriority(niceness: 15), name: "import") // catalog-exempt: a thread name

    /// A line for one server (tests start many in one process; they share the thread).
    static func make() -> WorkLine {
        WorkLine(maxRunning: 1, maxWaiting: maxWaiting, threads: threads)
    }
}
