import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A bounded line for heavy work that must not hold up meal saves and dashboards — label scans (issue 19,
/// `LabelScanService`) and data imports (issue 21, `ImportLine`): at most `maxRunning` jobs at once, at most
/// `maxWaiting` more waiting for a turn, and anyone beyond that told "busy, try again" at once rather than piling up.
/// Each job runs on `BackgroundThreads` (threads of their own, at a lower priority), never on the event loops.
///
/// A waiting job whose request goes away (the person closed the page) leaves the line; a turn is handed straight
/// to the next in line, so no job can overtake one that waits.
final class WorkLine: @unchecked Sendable {
    /// The line is full: the caller answers 503 (`label_scan_busy`, `import_busy`) with
    /// `Retry-After: retryAfterSeconds`.
    struct Busy: Error, Equatable {
        var retryAfterSeconds: Int
    }

    let maxRunning: Int
    let maxWaiting: Int
    let threads: BackgroundThreads

    private let lock = NSLock()
    private var running = 0
    private var waiting: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
    private var nextId: UInt64 = 0

    /// One scan at a time per two cores (at least one), and a line of four per running scan: on this project's
    /// two-core machine one scan runs and four wait, so a burst of five is served and the sixth told to come back.
    init(maxRunning: Int = WorkLine.defaultRunning, maxWaiting: Int? = nil, threads: BackgroundThreads = .shared) {
        self.maxRunning = max(1, maxRunning)
        self.maxWaiting = max(0, maxWaiting ?? 4 * max(1, maxRunning))
        self.threads = threads
    }

    static var defaultRunning: Int {
        if let text = ProcessInfo.processInfo.environment["WDIET_LABEL_SCANS"], let value = Int(text), value > 0 { return value }
        return max(1, ProcessInfo.processInfo.activeProcessorCount / 2)
    }

    /// Scans running and waiting now (for tests and the logs).
    var load: (running: Int, waiting: Int) {
        lock.withLock { (running, waiting.count) }
    }

    /// How long a refused client should wait: about one scan's time per scan ahead of it.
    var retryAfterSeconds: Int { max(2, (maxWaiting + maxRunning) / maxRunning) }

    /// Runs `work` on the scan threads when its turn comes; throws `Busy` when the line is full, and
    /// `CancellationError` when the caller's task is cancelled while it waits.
    func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        try await acquire()
        defer { release() }
        return try await threads.run(work)
    }

    private func acquire() async throws {
        let ticket: UInt64? = try lock.withLock {
            if running < maxRunning {
                running += 1
                return nil
            }
            guard waiting.count < maxWaiting else { throw Busy(retryAfterSeconds: retryAfterSeconds) }
            nextId += 1
            return nextId
        }
        guard let ticket else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let cancelled: Bool = lock.withLock {
                    if Task.isCancelled { return true }
                    waiting.append((ticket, continuation))
                    return false
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let continuation: CheckedContinuation<Void, any Error>? = lock.withLock {
                guard let index = waiting.firstIndex(where: { $0.id == ticket }) else { return nil }
                return waiting.remove(at: index).continuation
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// The turn goes to the first in line, or the slot is freed.
    private func release() {
        let next: CheckedContinuation<Void, any Error>? = lock.withLock {
            if waiting.isEmpty {
                running -= 1
                return nil
            }
            return waiting.removeFirst().continuation
        }
        next?.resume()
    }
}

/// Threads of their own for heavy work (label scans; imports have their own, `ImportLine`): Tesseract and the parser
/// are seconds of CPU each, which on the event
/// loops (the server's global executor, `ServerExecutor`) would hold up every request behind them. A scan's task
/// prefers this executor (`withTaskExecutorPreference`), so its synchronous work runs here; the threads run at a
/// lower priority (`BackgroundPriority`; the programs the scanner starts, vips, inherit it), so a request that needs
/// the CPU while scans run gets it first.
///
/// Idle first (`BackgroundPriority.idleFirst`, where the process may leave the idle class): the threads wait in the
/// idle class. While work is under way (`run`), every half second the pool adds up how long its threads and the
/// programs they started ran and waited for a CPU (`IdleFirstWatch`); once starved, they all move to the normal class
/// at the nice value until no work is left, and then back to the idle class.
final class BackgroundThreads: TaskExecutor, @unchecked Sendable {
    /// The process's label-scan threads, started when first used: idle first, then nice 10 (`BackgroundPriority`),
    /// so a meal save that needs a core while scans run gets it (docs/label-scan.md "The scan queue").
    static let shared = BackgroundThreads(count: max(2, ProcessInfo.processInfo.activeProcessorCount), priority: BackgroundPriority(niceness: 10, idleFirst: true))

    /// How often a pool with work looks whether the work is starved.
    static let lookInterval: Duration = .milliseconds(500)
    /// How often a pool with work returns threads its threads made to the normal class.
    static let sweepInterval: Duration = .milliseconds(100)

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var members: [pthread_t] = []

    let priority: BackgroundPriority
    /// Whether these threads start their work in the idle class (`priority.usesIdleClass`, decided once).
    let usesIdleClass: Bool

    // The idle-first state, under `stateLock`.
    private let stateLock = NSLock()
    private var threadIds: [Int32] = []
    private var working = 0
    private var watch = IdleFirstWatch()
    private let lookWake = NSCondition()
    private var lastLook: (at: ContinuousClock.Instant, times: [SchedulingClass.TaskId: SchedulingClass.CPUTimes])?
    private var promoted = false
    private var promotionCount = 0

    /// `name`: the threads' names (`name-0`, …); the import line (`ImportLine`) runs on threads of this kind too.
    init(count: Int, priority: BackgroundPriority, name: String = "label-scan") { // catalog-exempt: a thread name
        self.priority = priority
        self.usesIdleClass = priority.usesIdleClass
        BackgroundPriority.startProcessWatchers()
        let started = DispatchGroup()
        for index in 0..<max(1, count) {
            started.enter()
            let thread = Thread { [usesIdleClass] in
                priority.applyToCallingThread()
                let threadId = SchedulingClass.currentThreadId()
                if usesIdleClass, let threadId {
                    SchedulingClass.registerPoolThread(threadId)
                    SchedulingClass.set(SchedulingClass.idle, task: 0)
                }
                self.condition.withLock { self.members.append(pthread_self()) }
                self.stateLock.withLock { if let threadId { self.threadIds.append(threadId) } }
                started.leave()
                self.work()
            }
            thread.name = "\(name)-\(index)" // catalog-exempt: a thread name
            thread.start()
        }
        // The threads are known before any work comes, so the first look sees them all.
        started.wait()
        if usesIdleClass {
            // Holds the pool for ever: pools live as long as the process (static), and a test's few pools are left.
            let looker = Thread { self.keepLooking() }
            looker.name = "\(name)-look" // catalog-exempt: a thread name
            looker.start()
        }
    }

    /// Runs `work` preferring these threads: its synchronous parts run here, its waits (I/O, child processes)
    /// suspend without holding a thread.
    func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        began()
        defer { ended() }
        return try await withTaskExecutorPreference(self) {
            // The preference takes effect at the task's next suspension: this one moves the task onto these threads.
            await Task.yield()
            return try await work()
        }
    }

    /// Whether the calling thread is one of these (for tests).
    var isCurrent: Bool {
        let current = pthread_self()
        return condition.withLock { members.contains { pthread_equal($0, current) != 0 } }
    }

    /// The threads' kernel ids (for tests).
    var kernelThreadIds: [Int32] { stateLock.withLock { threadIds } }

    /// How many times the pool's work was starved and moved to the normal class (for tests and the logs).
    var promotions: Int { stateLock.withLock { promotionCount } }

    /// Whether the work is in the normal class now because it was starved (for tests).
    var isPromoted: Bool { stateLock.withLock { promoted } }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    // MARK: idle first

    private func began() {
        guard usesIdleClass else { return }
        // The baseline of the first look is taken by the looking thread (`look`), not here on the request's thread.
        stateLock.withLock { working += 1 }
        lookWake.withLock { lookWake.signal() }
    }

    private func ended() {
        guard usesIdleClass else { return }
        stateLock.withLock {
            working -= 1
            guard working == 0 else { return }
            lastLook = nil
            watch.reset()
            if promoted {
                promoted = false
                for thread in threadIds { SchedulingClass.set(SchedulingClass.idle, task: thread) }
            }
        }
    }

    /// The looking thread's loop: asleep while there is no work; while there is, every `sweepInterval` it returns
    /// threads the pool's threads made to the normal class (`SchedulingClass.returnStrayThreads`), and every
    /// `lookInterval` it looks whether the work is starved — and once more when the work is done. A thread of its own
    /// in the normal class, not a Dispatch timer: with both cores busy, Dispatch starts no worker for a timer for many
    /// seconds (seen with normal threads spinning on every core), and that is when a look is needed.
    private func keepLooking() {
        let sweep = Double(Self.sweepInterval / .milliseconds(1)) / 1000
        let sweepsPerLook = max(1, Int(Self.lookInterval / Self.sweepInterval))
        while true {
            lookWake.withLock {
                while stateLock.withLock({ working == 0 }) { lookWake.wait() }
            }
            look()  // the baseline
            var sweeps = 0
            while stateLock.withLock({ working > 0 }) {
                Thread.sleep(forTimeInterval: sweep)
                SchedulingClass.returnStrayThreads()
                sweeps += 1
                if sweeps % sweepsPerLook == 0 { look() }
            }
            // Threads made in the last moments of the work.
            SchedulingClass.returnStrayThreads()
        }
    }

    /// Every half second while there is work: moves it out of the idle class once starved, and keeps anything it
    /// started since in the normal class too.
    private func look() {
        stateLock.withLock {
            guard working > 0 else { return }
            let now = ContinuousClock.now
            let times = currentTimes()
            defer { lastLook = (now, times) }
            guard let last = lastLook else { return }
            if promoted {
                promote()
                return
            }
            var waited: UInt64 = 0
            var ran: UInt64 = 0
            for (task, time) in times {
                let before = last.times[task] ?? SchedulingClass.CPUTimes(ran: 0, waited: 0)
                waited += time.waited &- min(before.waited, time.waited)
                ran += time.ran &- min(before.ran, time.ran)
            }
            let length = UInt64(max(0, (now - last.at) / .nanoseconds(1)))
            if watch.observe(waited: waited, ran: ran, length: length) {
                promoted = true
                promotionCount += 1
                promote()
            }
        }
    }

    /// The pool's threads and everything they started, in the normal class at the nice value they have.
    private func promote() {
        for thread in threadIds { SchedulingClass.set(SchedulingClass.normal, task: thread) }
        for task in SchedulingClass.descendantTasks(of: threadIds) where SchedulingClass.policy(task: task.thread) == SchedulingClass.idle {
            SchedulingClass.set(SchedulingClass.normal, task: task.thread)
        }
    }

    private func currentTimes() -> [SchedulingClass.TaskId: SchedulingClass.CPUTimes] {
        let own = threadIds.map { SchedulingClass.TaskId(process: getpid(), thread: $0) }
        var times: [SchedulingClass.TaskId: SchedulingClass.CPUTimes] = [:]
        for task in own + SchedulingClass.descendantTasks(of: threadIds) {
            if let time = SchedulingClass.cpuTimes(of: task) { times[task] = time }
        }
        return times
    }
}
