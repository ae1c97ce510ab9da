import Foundation
import Logging
import Testing

@testable import WDietServer

@Suite("Background work's CPU priority (label scans, photo processing)")
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

    #if os(Linux)
    @Test("label scans, and a program a scan starts, run in the normal class at nice 10")
    func scanThreadsAreNice() async throws {
        #expect(BackgroundThreads.shared.priority == BackgroundPriority(niceness: 10))
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
        // A `vipsheader` ahead of the real one on the path notes its own stat line, then runs the real one.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-priority-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let note = folder.appendingPathComponent("stat")
        let wrapper = folder.appendingPathComponent("vipsheader")
        let real = try #require(ToolProcess.find("vipsheader"))
        try "#!/bin/sh\ncat /proc/$$/stat > '\(note.path)'\nexec '\(real)' \"$@\"\n".write(to: wrapper, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)
        let photo = try MediaFixtures.photo(width: 64, height: 48)

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
