import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How far heavy work (label scans, photo processing, imports) steps back for requests such as meal saves.
///
/// `niceness` lowers the work's share of a busy core. `idle` puts it in Linux's idle class (`SCHED_IDLE`): a request
/// thread that wakes takes the core from it, and the scheduler counts a core that runs only idle-class work as free
/// when it places the waking thread. Measured on this project's 2-core machine (docs/benchmarks.md, session 11) the
/// idle class and nice 10 kept meal saves alike while scans ran, and the idle class left a little less of a rise
/// while photos were processed; it costs the work nothing while the cores are free, and when requests keep both cores
/// busy the work waits — the bounded lines (`WorkLine`) and the tools' time limits say "busy, try again" then. Both
/// are the calling thread's own on Linux, and a thread or process it starts inherits them (see
/// `startProcessWatchers`).
struct BackgroundPriority: Sendable, Equatable {
    /// The nice value (0 normal, 19 the lowest).
    var niceness: Int32
    /// Linux's `SCHED_IDLE` on top of the nice value.
    var idle: Bool = false

    /// Whether heavy work goes into the idle class: yes unless `WDIET_BACKGROUND_IDLE=0`, which keeps nice alone
    /// (to compare the two in a benchmark with one build).
    static var idleByDefault: Bool { idle(in: ProcessInfo.processInfo.environment) }

    /// The rule of `idleByDefault` for a given environment: the idle class unless `WDIET_BACKGROUND_IDLE` is `0`.
    static func idle(in environment: [String: String]) -> Bool { environment["WDIET_BACKGROUND_IDLE"] != "0" }

    /// `SCHED_IDLE` in `<linux/sched.h>`; Glibc's Swift module does not export it (it needs `_GNU_SOURCE`).
    static let schedIdle: Int32 = 5

    /// Lowers the calling thread (Linux: `setpriority` and `sched_setscheduler` with `who` / `pid` 0 act on the calling
    /// thread, not the process). Answers whether every part took effect; elsewhere nothing is changed.
    @discardableResult
    func applyToCallingThread() -> Bool {
        #if canImport(Glibc)
        var applied = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness) == 0
        if idle {
            var parameters = sched_param()
            parameters.sched_priority = 0
            applied = sched_setscheduler(0, Self.schedIdle, &parameters) == 0 && applied
        }
        return applied
        #else
        return false
        #endif
    }

    /// Foundation starts the threads that watch child processes (`Process`: its run loop thread and CFSocket's) on
    /// the first `run()`, as children of the calling thread — which inherit that thread's class and nice value. Made
    /// from a scan thread they were idle too (seen with `ps -L` after a scan), and would then pass on the exit of every
    /// later child (vips for photos, rsvg-convert for PDFs) only when the cores are free. `BackgroundThreads` calls this
    /// on the normal thread that makes them, before any job runs: one `/bin/true`, once per process.
    static func startProcessWatchers() {
        _ = processWatchersStarted
    }

    private static let processWatchersStarted: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        do {
            try process.run()
            process.waitUntilExit()
            return true
        } catch {
            return false
        }
    }()

    /// The prefix that starts a command at this priority, given where `chrt` and `nice` are (nil: not installed):
    /// `chrt --idle 0` for the idle class (the nice value counts for nothing there), or `nice -n 19` when `chrt` is
    /// missing; `nice -n N` otherwise; nothing at nice 0.
    func launcher(chrt: String?, nice: String?) -> [String] {
        if idle, let chrt { return [chrt, "--idle", "0"] }
        let effective = idle ? 19 : niceness
        guard effective != 0, let nice else { return [] }
        return [nice, "-n", "\(effective)"]
    }
}
