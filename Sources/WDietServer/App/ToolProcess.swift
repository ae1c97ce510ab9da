import Foundation

/// Command-line tools (libvips' `vips`, librsvg's `rsvg-convert`) run as child processes on files in a private
/// temporary folder, stopped at a time limit. The server links no image or drawing library, so a machine without
/// the tool builds and runs, and the feature that needs it answers 503. `run` is the one way the server waits for a
/// tool, here and in the media store's photo pipeline (which reads the tools' output and runs them under `nice`).
enum ToolProcess {
    /// `PATH`, then the usual places.
    static var searchPath: [String] {
        (ProcessInfo.processInfo.environment["PATH"].map { $0.split(separator: ":").map(String.init) } ?? []) + ["/usr/bin", "/usr/local/bin"]
    }

    /// The first executable called `name` on `searchPath`, or nil.
    static func find(_ name: String, in searchPath: [String] = Self.searchPath) -> String? {
        for folder in searchPath where !folder.isEmpty {
            let path = (folder as NSString).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// Writes `inputs` (file name, bytes; in order) into a new folder only this user can read, runs `tool` with the
    /// arguments `arguments` makes from the folder, and answers the bytes of the file `output` there. Nil when the
    /// folder or a file cannot be written, the tool fails or crashes, runs past `timeLimit`, or writes nothing. The
    /// folder is removed afterwards.
    static func convert(
        tool: String, inputs: [(name: String, data: Data)], output: String, timeLimit: Duration,
        arguments: (URL) -> [String]
    ) async -> Data? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-tool-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        } catch {
            return nil
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        for input in inputs {
            guard (try? input.data.write(to: folder.appendingPathComponent(input.name))) != nil else { return nil }
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments(folder)
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = folder.path
        process.environment = environment
        process.currentDirectoryURL = folder
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard await run(process, timeLimit: timeLimit).status == 0, let data = try? Data(contentsOf: folder.appendingPathComponent(output)), !data.isEmpty else { return nil }
        return data
    }
}

extension ToolProcess {
    /// The time limits' timers. A queue of their own is served by a thread of its own even when Dispatch's shared
    /// queues are busy (their threads are as many as the cores), so a limit is kept on a loaded machine.
    private static let limitTimers = DispatchQueue(label: "wdiet.tool-time-limits")

    /// How a run ended: the exit status (nil when the process could not start, or the time limit stopped it) and
    /// whether the time limit stopped it.
    struct Ending: Sendable, Equatable {
        var status: Int32?
        var timedOut: Bool
    }

    /// Starts `process` (configured, not yet run) and waits for its end, stopping it at `timeLimit`. `startFailed`
    /// hears why it could not start, `timedOut` that the limit stopped it (both for the caller's log).
    static func run(
        _ process: Process, timeLimit: Duration,
        startFailed: @escaping @Sendable (any Error) -> Void = { _ in }, timedOut: @escaping @Sendable () -> Void = {}
    ) async -> Ending {
        await withCheckedContinuation { continuation in
            let once = ToolProcessFinish(continuation)
            process.terminationHandler = { once.resume(Ending(status: $0.terminationStatus, timedOut: false)) }
            do {
                try process.run()
            } catch {
                startFailed(error)
                once.resume(Ending(status: nil, timedOut: false))
                return
            }
            let (seconds, attoseconds) = timeLimit.components
            let nanoseconds = Int(min(seconds, 86_400)) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
            // A Dispatch timer rather than a sleeping task: on a busy cooperative pool (many uploads, a loaded
            // machine) a task wakes long after the limit.
            limitTimers.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
                once.resume(Ending(status: nil, timedOut: true)) {
                    timedOut()
                    // SIGKILL, not `terminate()`'s SIGTERM: a child started from a thread that blocks signals (the
                    // cooperative pool's, and threads made from them) keeps the mask, and SIGTERM would wait for ever.
                    kill(process.processIdentifier, SIGKILL)
                }
            }
        }
    }
}

/// Resumes a continuation once, whichever comes first: the process's end, its failure to start, or its time limit.
private final class ToolProcessFinish: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<ToolProcess.Ending, Never>?

    init(_ continuation: CheckedContinuation<ToolProcess.Ending, Never>) { self.continuation = continuation }

    /// Answers `ending`, after `first`, unless the run had ended already (then neither happens). `first` runs before
    /// the waiting task goes on, so what it does (a log line, the kill) has happened when `run` returns.
    func resume(_ ending: ToolProcess.Ending, first: () -> Void = {}) {
        let waiting: CheckedContinuation<ToolProcess.Ending, Never>? = lock.withLock {
            defer { continuation = nil }
            return continuation
        }
        guard let waiting else { return }
        first()
        waiting.resume(returning: ending)
    }
}
