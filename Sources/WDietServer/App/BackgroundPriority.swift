import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How far heavy work (label scans, photo processing, imports) steps back for requests such as meal saves: a nice
/// value, which lowers the work's share of a busy core (nice 10: about a tenth of a core beside a busy request thread),
/// and for scans and photos Linux's idle class first (`idleFirst`, `SchedulingClass`).
///
/// Nice alone still let a woken request wait behind the work for up to a 4 ms tick, which moved meal saves' P95 and
/// P99 while scans ran or photos were processed; the idle class does not (the kernel preempts idle work at once for
/// normal work), but idle work gets no CPU at all while requests keep both cores busy — the clean-clone CI run of
/// 2026-11-27 had a `vipsthumbnail` stopped by its 30 s limit that way. So a pool starts its work in the idle class
/// and moves it to this nice value in the normal class while it is starved (`IdleFirstWatch`): a server under a long
/// load spike still finishes uploads and scans, only later. A process that may not leave the idle class again (no
/// `CAP_SYS_NICE`, `RLIMIT_NICE` under 10; `WDIET_IDLE_FIRST=0` too) uses nice alone.
/// The nice value is the calling thread's own on Linux, and a thread or process it starts inherits it and the class (see
/// `startProcessWatchers`).
struct BackgroundPriority: Sendable, Equatable {
    /// The nice value (0 normal, 19 the lowest).
    var niceness: Int32
    /// Whether the work starts in the idle class (where the process may leave it again).
    var idleFirst = false

    /// Whether this process runs idle-first work in the idle class: allowed to leave it again, and not switched off.
    var usesIdleClass: Bool {
        guard idleFirst, ProcessInfo.processInfo.environment["WDIET_IDLE_FIRST"] != "0" else { return false }
        return niceness == 10 ? SchedulingClass.mayLeaveIdleClassAtNice10 : SchedulingClass.mayLeaveIdleClass(niceness: niceness)
    }

    /// Lowers the calling thread (Linux: `setpriority` with `who` 0 acts on the calling thread, not the process).
    /// Answers whether it took effect; elsewhere nothing is changed.
    @discardableResult
    func applyToCallingThread() -> Bool {
        #if canImport(Glibc)
        return setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness) == 0
        #else
        return false
        #endif
    }

    /// Foundation starts the threads that watch child processes (`Process`: its run loop thread and CFSocket's) on
    /// the first `run()`, as children of the calling thread — which inherit that thread's nice value. Made from a scan
    /// thread they would pass on the exit of every later child (vips for photos, rsvg-convert for PDFs) at the scan's
    /// priority. `BackgroundThreads` calls this on the normal thread that makes them, before any job runs: one
    /// `/bin/true`, once per process.
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

    /// The prefix that starts a command at this priority, given where `nice` is (nil: not installed): `nice -n N`, or
    /// nothing at nice 0.
    func launcher(nice: String?) -> [String] {
        guard niceness != 0, let nice else { return [] }
        return [nice, "-n", "\(niceness)"]
    }
}
