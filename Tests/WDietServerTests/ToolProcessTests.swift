import Foundation
import Synchronization
import Testing

@testable import WDietServer

/// `ToolProcess.run`, the one way the server waits for a tool: how each kind of ending is told apart. (The stopped
/// tool being really gone is `BackgroundPriorityTests`' "a tool past its time limit is stopped".)
@Suite("Running a tool")
struct ToolProcessTests {
    static func shell(_ script: String) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        return process
    }

    @Test("a tool that ends answers its exit status, and the limit says nothing")
    func endsWithItsStatus() async {
        let timedOut = Mutex(false)
        let ending = await ToolProcess.run(Self.shell("exit 3"), timeLimit: .seconds(30), timedOut: { timedOut.withLock { $0 = true } })
        #expect(ending == ToolProcess.Ending(status: 3, timedOut: false))
        #expect(await ToolProcess.run(Self.shell("true"), timeLimit: .seconds(30)) == ToolProcess.Ending(status: 0, timedOut: false))
        #expect(!timedOut.withLock { $0 })
    }

    @Test("a tool that cannot start answers no status, and says why")
    func cannotStart() async {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/nonexistent/wdiet-no-such-tool")
        let why = Mutex<String?>(nil)
        let ending = await ToolProcess.run(process, timeLimit: .seconds(30), startFailed: { error in why.withLock { $0 = "\(error)" } })
        #expect(ending == ToolProcess.Ending(status: nil, timedOut: false))
        #expect(why.withLock { $0 } != nil)
    }

    @Test("a tool past its limit answers no status and that the limit stopped it, at the limit and not at its end")
    func stoppedAtItsLimit() async {
        let stops = Mutex<[ContinuousClock.Instant]>([])
        let began = ContinuousClock.now
        let ending = await ToolProcess.run(Self.shell("exec sleep 30"), timeLimit: .milliseconds(200), timedOut: { stops.withLock { $0.append(.now) } })
        #expect(ending == ToolProcess.Ending(status: nil, timedOut: true))
        let stoppedAt = stops.withLock { $0 }
        #expect(stoppedAt.count == 1)
        // When the limit stopped it, not when this test's task ran again: in the full run the test's own wake-up on the
        // cooperative pool (two threads here, shared with every suite) came 13 s after the limit.
        #expect(stoppedAt.allSatisfy { $0 - began < .seconds(10) })
    }
}
