import Foundation
import Logging
import Testing

@testable import WDietServer

// Serialized: the test that keeps every core busy would starve (and so promote) the others' idle-first work.
@Suite("Background work's CPU priority (label scans, photo processing)", .serialized)
struct BackgroundPriorityTests {
    /// Fields of a `/proc/…/stat` line from field 3 on (after the command name in parentheses).
    static func statFields(_ stat: String) -> [Substring] {
        guard let close = stat.lastIndex(of: ")") else { return [] }
        return stat[stat.index(after: close)...].split(separator: " ")
    }

    /// Scheduling class (field 41: 0 normal, 3 batch, 5 idle) and nice value (field 19) of a stat line.
    static func classAndNice(_ stat: String) -> (policy: Int?, nice: Int?) {
        let fields = statFields(stat)
        guard fields.count > 38 else { return (nil, nil) }
        return (Int(fields[38]), Int(fields[16]))
    }

    static func callingThread() -> (policy: Int?, nice: Int?) {
        classAndNice((try? String(contentsOfFile: "/proc/thread-self/stat", encoding: .utf8)) ?? "")
    }

    /// A child process's own stat line (`cat` reading its own), started from the calling thread as the scanner starts vips.
    static func childStat() throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/cat")
        process.arguments = ["/proc/self/stat"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test("the launcher: nice -n N, nothing at nice 0 or without nice")
    func launcher() {
        #expect(BackgroundPriority(niceness: 15).launcher(nice: "/bin/nice") == ["/bin/nice", "-n", "15"])
        #expect(BackgroundPriority(niceness: 10).launcher(nice: nil) == [])
        #expect(BackgroundPriority(niceness: 0).launcher(nice: "/bin/nice") == [])
    }

    @Test("idle-first work is starved when it waited half a look and longer than it ran, twice in a row")
    func starvationRule() {
        let look: UInt64 = 500_000_000 // half a second, in nanoseconds
        var watch = IdleFirstWatch()
        // Both cores kept busy by requests: 480 ms waited, 5 ms ran — starved; the second such look promotes.
        #expect(watch.observe(waited: 480_000_000, ran: 5_000_000, length: look) == false)
        #expect(watch.observe(waited: 480_000_000, ran: 5_000_000, length: look) == true)
        watch.reset()
        // Meal saves at 200/s take a share of the cores: 150 ms waited, 330 ms ran — not starved, however long.
        for _ in 0..<10 { #expect(watch.observe(waited: 150_000_000, ran: 330_000_000, length: look) == false) }
        // Waited exactly half the look but ran as long: progressing, not starved.
        #expect(watch.observe(waited: 250_000_000, ran: 250_000_000, length: look) == false)
        // Waiting for its input (an upload's body, a child process): neither waited for a CPU nor ran.
        #expect(watch.observe(waited: 0, ran: 0, length: look) == false)
        // A starved look, then one that ran: the count starts over.
        #expect(watch.observe(waited: 300_000_000, ran: 10_000_000, length: look) == false)
        #expect(watch.observe(waited: 100_000_000, ran: 390_000_000, length: look) == false)
        #expect(watch.observe(waited: 300_000_000, ran: 10_000_000, length: look) == false)
        #expect(watch.starvedInARow == 1)
    }

    #if os(Linux)
    @Test("label scans and photos are idle first at nice 10; the import line nice 15 only")
    func poolsPriorities() {
        #expect(BackgroundThreads.shared.priority == BackgroundPriority(niceness: 10, idleFirst: true))
        #expect(MediaAPI.threads.priority == BackgroundPriority(niceness: 10, idleFirst: true))
        #expect(ImportLine.threads.priority == BackgroundPriority(niceness: 15))
    }

    @Test("idle-first work, and a program it starts, wait in the idle class at nice 10 where the process may leave it again")
    func scanThreadsStartIdle() async throws {
        let threads = BackgroundThreads(count: 1, priority: BackgroundPriority(niceness: 10, idleFirst: true), name: "idle-test") // catalog-exempt: a thread name
        let queue = WorkLine(maxRunning: 1, maxWaiting: 1, threads: threads)
        let (promotionsBefore, thread, child, promotionsAfter) = try await queue.run {
            (threads.promotions, Self.callingThread(), Self.classAndNice(try Self.childStat()), threads.promotions)
        }
        #expect(threads.usesIdleClass == SchedulingClass.mayLeaveIdleClassAtNice10)
        #expect(thread.nice == 10)
        #expect(child.nice == 10)
        // scripts/test.sh runs as root (CAP_SYS_NICE): the idle class — unless the cores were so busy meanwhile (the
        // other suites run beside this one) that the work was starved and moved to the normal class, which the pool
        // counts; when that happened while the classes were read, only the child's inheritance is certain. Without
        // the right to leave the idle class, nice alone.
        if !SchedulingClass.mayLeaveIdleClassAtNice10 || promotionsBefore > 0 {
            #expect(thread.policy == 0)
            #expect(child.policy == 0)
        } else if promotionsAfter == 0 {
            #expect(thread.policy == 5)
            #expect(child.policy == 5)
        }
    }

    @Test("starved idle-first work moves to nice 10 with the program it started, and back to the idle class when done")
    func starvedWorkIsPromoted() async throws {
        try #require(SchedulingClass.mayLeaveIdleClassAtNice10, "needs CAP_SYS_NICE or RLIMIT_NICE ≥ 10 (scripts/test.sh runs as root)")
        let threads = BackgroundThreads(count: 1, priority: BackgroundPriority(niceness: 10, idleFirst: true), name: "starve-test") // catalog-exempt: a thread name
        let threadId = try #require(threads.kernelThreadIds.first)
        #expect(SchedulingClass.policy(task: threadId) == SchedulingClass.idle)
        // Made here, on a normal thread: threads made from the work's thread would inherit its idle class.
        let spinners = Spinners(count: ProcessInfo.processInfo.activeProcessorCount)
        defer { spinners.stop() }  // also when something throws
        let (childBefore, promotedBefore, childAfter, promotedWhileRunning, took) = try await threads.run {
            let child = Process()
            child.executableURL = URL(fileURLWithPath: "/bin/sleep")
            child.arguments = ["30"]
            let ended = ChildEnd()
            child.terminationHandler = { _ in ended.signal() }
            try child.run()
            defer { kill(child.processIdentifier, SIGKILL) }  // also when something throws
            let before = SchedulingClass.policy(task: child.processIdentifier)
            let promotedBefore = threads.isPromoted  // by the other tests' load, before the spinners
            // Normal threads spinning on every core: in the idle class the work would get ~0.3 % of a core (weight 3
            // of 1024), so its 50 ms of CPU would take ~15 s; at nice 10 about a tenth of a core, half a second.
            spinners.start()
            let began = ContinuousClock.now
            Self.burnThreadCPU(milliseconds: 50)
            let took = ContinuousClock.now - began
            spinners.stop()
            let after = SchedulingClass.policy(task: child.processIdentifier)
            let promoted = threads.isPromoted
            kill(child.processIdentifier, SIGKILL)
            await ended.wait()
            return (before, promotedBefore, after, promoted, took)
        }
        #expect(took < .seconds(8), "starved for \(took)")
        #expect(threads.promotions == 1)
        #expect(promotedWhileRunning)
        #expect(childBefore == (promotedBefore ? SchedulingClass.normal : SchedulingClass.idle))
        #expect(childAfter == SchedulingClass.normal)
        // The line is empty: the thread waits in the idle class again.
        #expect(threads.isPromoted == false)
        #expect(SchedulingClass.policy(task: threadId) == SchedulingClass.idle)
    }

    @Test("a thread idle-first work makes (as Dispatch makes its workers) goes back to the normal class; the pool's stay idle")
    func strayThreadsAreReturned() async throws {
        try #require(SchedulingClass.mayLeaveIdleClassAtNice10, "needs CAP_SYS_NICE or RLIMIT_NICE ≥ 10 (scripts/test.sh runs as root)")
        let threads = BackgroundThreads(count: 1, priority: BackgroundPriority(niceness: 10, idleFirst: true), name: "stray-test") // catalog-exempt: a thread name
        let poolThread = try #require(threads.kernelThreadIds.first)
        let (later, poolThreadLater, promoted) = try await threads.run {
            let stray = StrayThread()
            var later = SchedulingClass.policy(task: stray.threadId)
            let began = ContinuousClock.now
            while later == SchedulingClass.idle && ContinuousClock.now - began < .seconds(5) {
                try await Task.sleep(for: .milliseconds(20))
                later = SchedulingClass.policy(task: stray.threadId)
            }
            stray.end()
            return (later, SchedulingClass.policy(task: poolThread), threads.isPromoted)
        }
        // Not asserted: the class the thread started in. It is its maker's (that a child inherits the idle class is
        // `scanThreadsStartIdle`'s), but under the other suites' load an idle thread may not even run before the
        // sweep has returned it. Without the sweep it would stay idle: `later` checks that.
        #expect(later == SchedulingClass.normal)
        if !promoted { #expect(poolThreadLater == SchedulingClass.idle) }
    }

    /// A thread that notes its kernel id as it starts, then waits until told to end.
    final class StrayThread: @unchecked Sendable {
        private let condition = NSCondition()
        private var started: Int32?
        private var ending = false

        init() {
            Thread { [self] in
                let thread = SchedulingClass.currentThreadId() ?? 0
                condition.withLock {
                    started = thread
                    condition.broadcast()
                    while !ending { condition.wait() }
                }
            }.start()
        }

        var threadId: Int32 {
            condition.withLock {
                while started == nil { condition.wait() }
                return started ?? 0
            }
        }

        func end() {
            condition.withLock {
                ending = true
                condition.broadcast()
            }
        }
    }

    @Test("a tool past its time limit is stopped, though it inherited a thread's blocked SIGTERM")
    func toolPastItsLimitIsStopped() async throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-limit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: pidFile) }
        let output = await ToolProcess.convert(tool: "/bin/sh", inputs: [], output: "never", timeLimit: .milliseconds(300)) { _ in
            ["-c", "echo $$ > '\(pidFile.path)'; exec sleep 30"]
        }
        #expect(output == nil)
        let pid = try #require(Int32(try String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        // Gone (or a zombie until Foundation reaps it) once `convert` has given up, not after sleep's 30 s.
        let gaveUp = ContinuousClock.now
        var state: Character? = "S"
        while ContinuousClock.now - gaveUp < .seconds(5) {
            state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)).flatMap { Self.statFields($0).first?.first }
            if state == nil || state == "Z" { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(state == nil || state == "Z", "the tool still runs: state \(String(describing: state))")
    }

    /// Spends `milliseconds` of the calling thread's own CPU time.
    static func burnThreadCPU(milliseconds: Int) {
        func cpu() -> Int {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return time.tv_sec * 1_000 + time.tv_nsec / 1_000_000
        }
        let start = cpu()
        var sink = 0
        while cpu() - start < milliseconds {
            for index in 0..<10_000 { sink &+= index }
        }
        precondition(sink != 1)
    }

    /// A child's end, awaited without polling (`waitUntilExit` polls the run loop every 50 ms: work that can starve).
    final class ChildEnd: @unchecked Sendable {
        private let lock = NSLock()
        private var ended = false
        private var waiter: CheckedContinuation<Void, Never>?

        func signal() {
            let waiter: CheckedContinuation<Void, Never>? = lock.withLock {
                ended = true
                defer { self.waiter = nil }
                return self.waiter
            }
            waiter?.resume()
        }

        func wait() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now: Bool = lock.withLock {
                    if ended { return true }
                    waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        }
    }

    /// Threads that keep every core busy from `start()` until `stop()`, in the class of the thread that made them; one
    /// pinned to each CPU, so that the balancer cannot leave a core to the idle work for a while.
    final class Spinners: @unchecked Sendable {
        private let condition = NSCondition()
        private var state = 0  // 0 made, 1 spinning, 2 stopped
        private let done = DispatchGroup()

        init(count: Int) {
            for cpu in 0..<count {
                done.enter()
                Thread { [self] in
                    // util-linux's taskset (Glibc's module has no sched_setaffinity).
                    if let thread = SchedulingClass.currentThreadId() {
                        let pin = Process()
                        pin.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
                        pin.arguments = ["-p", "-c", "\(cpu)", "\(thread)"]
                        pin.standardOutput = FileHandle.nullDevice
                        try? pin.run()
                        pin.waitUntilExit()
                    }
                    condition.withLock { while state == 0 { condition.wait() } }
                    var sink = 0
                    while condition.withLock({ state == 1 }) {
                        for index in 0..<100_000 { sink &+= index }
                    }
                    precondition(sink != 1)
                    done.leave()
                }.start()
            }
        }

        func start() {
            condition.withLock {
                if state == 0 { state = 1 }
                condition.broadcast()
            }
        }

        func stop() {
            condition.withLock {
                state = 2
                condition.broadcast()
            }
            done.wait()
        }
    }

    @Test("a pool that is not idle first, and a program it starts, run in the normal class at nice 10")
    func scanThreadsAreNice() async throws {
        let threads = BackgroundThreads(count: 1, priority: BackgroundPriority(niceness: 10), name: "nice-test") // catalog-exempt: a thread name
        let queue = WorkLine(maxRunning: 1, maxWaiting: 1, threads: threads)
        let (thread, child) = try await queue.run { (Self.callingThread(), Self.classAndNice(try Self.childStat())) }
        #expect(thread.policy == 0)
        #expect(thread.nice == 10)
        #expect(child.policy == 0)
        #expect(child.nice == 10)
    }

    @Test("the import thread stays in the normal class at nice 15")
    func importThreadIsNiceOnly() async throws {
        let (policy, nice) = try await ImportLine.make().run { Self.callingThread() }
        #expect(policy == 0)
        #expect(nice == 15)
    }

    @Test("a photo's vips tools run at nice 10 (through nice)")
    func mediaToolsAreNice() async throws {
        // scripts/test.sh installs the vips tools; nice is coreutils'. Without them this test fails, never passes empty.
        try #require(ToolProcess.find("nice") != nil)
        #expect(MediaProcessing().priority == BackgroundPriority(niceness: 10))
        // A `vipsthumbnail` ahead of the real one on the path notes its own stat line, then runs the real one.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-priority-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let note = folder.appendingPathComponent("stat")
        let wrapper = folder.appendingPathComponent("vipsthumbnail")
        let real = try #require(ToolProcess.find("vipsthumbnail"))
        try "#!/bin/sh\ncat /proc/$$/stat > '\(note.path)'\nexec '\(real)' \"$@\"\n".write(to: wrapper, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)
        let photo = try await MediaFixtures.photo(width: 64, height: 48)

        var processing = MediaProcessing()
        processing.searchPath = [folder.path] + ToolProcess.searchPath
        let processed = try await processing.processPhoto(photo, logger: Logger(label: "test"))
        #expect(processed.width == 64)
        let tool = Self.classAndNice(try String(contentsOf: note, encoding: .utf8))
        #expect(tool.policy == 0)
        #expect(tool.nice == 10)
    }
    #endif
}
