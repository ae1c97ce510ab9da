import Foundation

/// The recap's share card as a PNG, drawn from its SVG by libvips' command-line tool (`vips copy card.svg card.png`,
/// its SVG loader is librsvg's): 1080 × 1080, for apps that do not take SVG. The SVG is the server's own (every text
/// escaped), so vips' "untrusted" SVG loader is fine here. Without `vips` on the machine the card stays SVG only
/// (nil; the route answers 503).
enum JournalRecapCardPNG {
    static let timeLimit: Duration = .seconds(10)

    static var tool: String? {
        ["/usr/bin/vips", "/usr/local/bin/vips", "/opt/homebrew/bin/vips"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func render(svg: String) async -> Data? {
        guard let tool else { return nil }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-card-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        } catch {
            return nil
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("card.svg"), output = folder.appendingPathComponent("card.png")
        guard (try? Data(svg.utf8).write(to: input)) != nil else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["copy", input.path, output.path]
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = folder.path
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let status: Int32? = await withCheckedContinuation { continuation in
            let once = CardProcessFinish(continuation)
            process.terminationHandler = { once.resume($0.terminationStatus) }
            do { try process.run() } catch { once.resume(nil); return }
            Task {
                try? await Task.sleep(for: timeLimit)
                if once.isPending { process.terminate() }
            }
        }
        guard status == 0 else { return nil }
        return try? Data(contentsOf: output)
    }
}

/// Resumes a continuation once, whichever comes first: the process's end or its failure to start.
private final class CardProcessFinish: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Int32?, Never>?

    init(_ continuation: CheckedContinuation<Int32?, Never>) { self.continuation = continuation }

    var isPending: Bool { lock.withLock { continuation != nil } }

    func resume(_ status: Int32?) {
        let waiting: CheckedContinuation<Int32?, Never>? = lock.withLock {
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(returning: status)
    }
}
