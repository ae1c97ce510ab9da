import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Linux's scheduling classes for the background threads (`BackgroundThreads`) and the programs they start.
///
/// Why the idle class first: a thread in it is preempted the moment a normal thread wakes on its core, so a meal
/// save never waits behind a scan or a photo (at nice 10 half a per cent of the wake-ups waited 1–5 ms, up to one
/// 4 ms tick: docs/benchmarks.md "Mechanism check"). Why only first: idle work gets no CPU at all while requests keep
/// both cores busy, so a pool whose work is starved moves to the normal class at its nice value until its line
/// empties (`IdleFirstWatch`). Leaving the idle class needs `CAP_SYS_NICE` or an `RLIMIT_NICE` of at least
/// 20 − nice (Linux counts the idle class as nice 20); a process without either keeps its pools at nice only.
enum SchedulingClass {
    /// `SCHED_OTHER`, the normal class.
    static let normal: Int32 = 0
    /// `SCHED_IDLE` (Glibc's module does not export it).
    static let idle: Int32 = 5

    /// The calling thread's kernel id (`/proc/thread-self` is `<pid>/task/<tid>`); nil where there is none.
    static func currentThreadId() -> Int32? {
        #if os(Linux)
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self"),
              let last = target.split(separator: "/").last else { return nil }
        return Int32(last)
        #else
        return nil
        #endif
    }

    /// Moves a thread or process (`task` 0: the calling thread) to `policy`, keeping its nice value. Whether it
    /// took effect.
    @discardableResult
    static func set(_ policy: Int32, task: Int32) -> Bool {
        #if os(Linux)
        var parameter = sched_param(sched_priority: 0)
        return sched_setscheduler(task, policy, &parameter) == 0
        #else
        return false
        #endif
    }

    /// A task's class (`sched_getscheduler`), nil when it is gone.
    static func policy(task: Int32) -> Int32? {
        #if os(Linux)
        let policy = sched_getscheduler(task)
        return policy < 0 ? nil : policy
        #else
        return nil
        #endif
    }

    /// Whether this process may move a thread at nice `niceness` out of the idle class again. Tried once, on a
    /// thread of its own (the soft `RLIMIT_NICE` is raised to the hard one first, which needs no privilege).
    static func mayLeaveIdleClass(niceness: Int32) -> Bool {
        #if os(Linux)
        let resource = __rlimit_resource_t(13) // RLIMIT_NICE
        var limit = rlimit()
        if getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(resource, &limit)
        }
        let answer = ThreadAnswer()
        let thread = Thread {
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
            answer.set(set(idle, task: 0) && set(normal, task: 0))
        }
        thread.start()
        return answer.wait()
        #else
        return false
        #endif
    }

    /// The idle class is tried once per process for nice 10, the pools' value.
    static let mayLeaveIdleClassAtNice10 = mayLeaveIdleClass(niceness: 10)

    /// The threads of idle-first pools (`BackgroundThreads`), which belong in the idle class.
    private static let poolThreads = Mutex<Set<Int32>>([])

    static func registerPoolThread(_ thread: Int32) {
        poolThreads.withLock { _ = $0.insert(thread) }
    }

    /// Moves every other thread of this process that is in the idle class back to the normal class; answers how many.
    /// A thread inherits its creator's class, and the pools' threads make threads that are not theirs: Dispatch
    /// starts a worker from the thread that queues work when its workers are busy (a GRDB write, a task resumed on
    /// the cooperative pool), and such a worker would then run meal saves' work in the idle class for the rest of
    /// the process's life.
    @discardableResult
    static func returnStrayThreads() -> Int {
        #if os(Linux)
        let pool = poolThreads.withLock { $0 }
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        var returned = 0
        for thread in threads.compactMap({ Int32($0) }) where !pool.contains(thread) && policy(task: thread) == idle {
            if set(normal, task: thread) { returned += 1 }
        }
        return returned
        #else
        return 0
        #endif
    }

    /// Every thread of every process descended from the threads `threadIds` of this process (vips, started by a
    /// scan or an upload), as `(process, thread)`; read from `/proc/…/task/…/children`.
    static func descendantTasks(of threadIds: [Int32]) -> [TaskId] {
        #if os(Linux)
        var found: [TaskId] = []
        var frontier = threadIds.map { TaskId(process: getpid(), thread: $0) }
        while let task = frontier.popLast() {
            let text = (try? String(contentsOfFile: "/proc/\(task.process)/task/\(task.thread)/children", encoding: .utf8)) ?? ""
            for child in text.split(separator: " ").compactMap({ Int32($0) }) {
                let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(child)/task")) ?? []
                for thread in threads.compactMap({ Int32($0) }) {
                    let descendant = TaskId(process: child, thread: thread)
                    found.append(descendant)
                    frontier.append(descendant)
                }
            }
        }
        return found
        #else
        return []
        #endif
    }

    /// A task's time on a CPU and time waiting for one, in nanoseconds (`/proc/…/schedstat`); nil when it is gone.
    static func cpuTimes(of task: TaskId) -> CPUTimes? {
        guard let text = try? String(contentsOfFile: "/proc/\(task.process)/task/\(task.thread)/schedstat", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count >= 2, let ran = UInt64(fields[0]), let waited = UInt64(fields[1]) else { return nil }
        return CPUTimes(ran: ran, waited: waited)
    }

    struct TaskId: Hashable, Sendable {
        var process: Int32
        var thread: Int32
    }

    struct CPUTimes: Equatable, Sendable {
        var ran: UInt64
        var waited: UInt64
    }
}

/// When idle-class work counts as starved: over one look (`BackgroundThreads` looks every half second while it has
/// work), its threads and programs waited for a CPU at least half the look's length and longer than they ran; after
/// `looksToPromote` such looks in a row the pool leaves the idle class. Work that only waits for its input, or that
/// runs more than it waits (meal saves take a share of the cores, not all of them), is not starved.
struct IdleFirstWatch: Sendable {
    var looksToPromote = 2
    private(set) var starvedInARow = 0

    /// One look's figures, in nanoseconds: answers whether the pool should leave the idle class now.
    mutating func observe(waited: UInt64, ran: UInt64, length: UInt64) -> Bool {
        let starved = waited >= length / 2 && waited > ran
        starvedInARow = starved ? starvedInARow + 1 : 0
        return starvedInARow >= looksToPromote
    }

    mutating func reset() {
        starvedInARow = 0
    }
}

/// The answer of a thread started to try something, waited for by its starter.
private final class ThreadAnswer: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Bool?

    func set(_ value: Bool) {
        condition.withLock {
            self.value = value
            condition.signal()
        }
    }

    func wait() -> Bool {
        condition.withLock {
            while value == nil { condition.wait() }
            return value ?? false
        }
    }
}
