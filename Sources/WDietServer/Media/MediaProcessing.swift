import Foundation
import Logging
import WDietCore
#if canImport(Glibc)
import Glibc
#endif

/// Photos decoded and re-encoded by libvips' command-line tools (`vipsheader`, `vipsthumbnail`; Debian
/// `libvips-tools`), run as child processes: the server links no image library, so `swift run wdiet serve` builds
/// and runs on a machine without libvips, where photo uploads answer 503 and everything else works.
///
/// For each photo: the upload is written to a private folder (mode 0700, removed afterwards); `vipsheader` reads
/// its size (not a picture vips reads: 415; over `maxPixels`: 413); `vipsthumbnail` makes the display JPEG — the
/// orientation applied (EXIF orientation, HEIF's rotation), converted to sRGB, at most `displaySize` on its longer
/// side, every metadata stripped (EXIF with GPS, XMP, IPTC, ICC profile, comments) — and then the thumbnail from
/// the display JPEG. Each run has a time limit; at most `slots` photos are processed at once (others wait), at nice 10
/// (`nice -n 10`: `BackgroundPriority`), so that a burst of uploads leaves the CPU to requests such as meal saves.
struct MediaProcessing: Sendable {
    /// The longer side of the display JPEG, in pixels.
    var displaySize = 1600
    /// The longer side of the thumbnail.
    var thumbnailSize = 320
    var displayQuality = 82
    var thumbnailQuality = 75
    /// Larger pictures are refused (413) before they are decoded: 200 megapixels is above any phone's camera.
    var maxPixels = 200_000_000
    /// The time one tool may take before it is stopped (the upload then answers 503: try again).
    var timeLimit: Duration = .seconds(30)
    /// The tools' CPU priority (nil: the server's own): nice 10, so a meal save that needs a core gets most of it from
    /// a vips tool (docs/media.md).
    var priority: BackgroundPriority? = BackgroundPriority(niceness: 10)
    /// Where the tools are looked for: `$PATH`.
    var searchPath: [String] = ProcessInfo.processInfo.environment["PATH"].map { $0.split(separator: ":").map(String.init) }
        ?? ["/usr/local/bin", "/usr/bin", "/bin"]

    /// A processed photo.
    struct Photo: Sendable, Equatable {
        var display: Data
        var thumbnail: Data
        var width: Int
        var height: Int
    }

    enum Failure: Error, Equatable {
        /// `vipsthumbnail` or `vipsheader` is not installed.
        case toolsMissing
        /// The bytes are no picture the tools could read (or reading it took too long).
        case undecodable
        /// More than `maxPixels`.
        case tooManyPixels
        /// A tool ran out of `timeLimit` (a busy machine, or a picture that is very slow to decode).
        case timedOut
    }

    /// The paths of `vipsheader`, `vipsthumbnail` and `nice` (nil when not installed), or nil when the vips tools
    /// are missing.
    func tools() -> Tools? {
        func find(_ name: String) -> String? { ToolProcess.find(name, in: searchPath) }
        guard let header = find("vipsheader"), let thumbnail = find("vipsthumbnail") else { return nil }
        return (header, thumbnail, find("nice"))
    }

    /// The command that brings a tool started from a thread at nice `current` to `priority`: a child inherits its
    /// starting thread's nice value, and `nice -n N` adds N to it. From a normal thread `nice -n 10`; from the upload
    /// threads (`MediaAPI.threads`, nice 10) nothing, the tool is at nice 10 already (`nice -n 10` there would make
    /// it 19); from a lower thread (imports at nice 15) nothing either: a tool never runs above its caller.
    static func launcher(for priority: BackgroundPriority?, fromNice current: Int32, nice: String?) -> [String] {
        guard let priority, priority.niceness > current else { return [] }
        return BackgroundPriority(niceness: priority.niceness - current).launcher(nice: nice)
    }

    /// The calling thread's nice value (Linux: `getpriority` with `who` 0 is the calling thread's), 0 elsewhere.
    static func callingThreadNice() -> Int32 {
        #if canImport(Glibc)
        errno = 0
        let value = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        return errno == 0 ? value : 0
        #else
        return 0
        #endif
    }

    /// `upload` (JPEG, PNG, WebP or HEIC bytes) as a display JPEG and a thumbnail, without metadata.
    func processPhoto(_ upload: Data, logger: Logger) async throws(Failure) -> Photo {
        // libvips reads JPEG, PNG and WebP itself; HEIF is a module of its own (Debian: vips-modules-8.14/vips-heif.so).
        let format = MediaFormat.sniff(upload)
        let modules: VipsModules = format == .heic ? .all : .none
        let jpegFrame = format == .jpeg ? JPEGFrame.read(upload) : nil
        return try await withPrivateCopy(of: upload, named: "upload", logger: logger) { tools, folder, input throws(Failure) in
            try await makeDisplayAndThumbnail(of: input, jpegFrame: jpegFrame, modules: modules, tools: tools, in: folder, logger: logger)
        }
    }

    private func makeDisplayAndThumbnail(
        of input: URL, jpegFrame: JPEGFrame?, modules: VipsModules, tools: Tools, in folder: URL, logger: Logger
    ) async throws(Failure) -> Photo {
        let display = folder.appendingPathComponent("display.jpg")
        let thumbnail = folder.appendingPathComponent("thumbnail.jpg")
        let width: Int, height: Int
        if let frame = jpegFrame {
            // A JPEG's size is in its frame header: no `vipsheader` run (a process start, ~30 ms of CPU). A JPEG
            // whose data is broken fails in `vipsthumbnail` instead, with the same answer.
            (width, height) = (frame.width, frame.height)
        } else {
            let header = try await run(tools.header, [input.path], modules: modules, tools: tools, in: folder, logger: logger)
            guard let size = Self.size(fromHeader: header) else { throw .undecodable }
            (width, height) = size
        }
        guard width * height <= maxPixels else { throw .tooManyPixels }

        _ = try await run(tools.thumbnail, [
            input.path, "--size", "\(displaySize)x\(displaySize)>",
            // An embedded profile (Display P3, Adobe RGB) is converted to sRGB before the profile is stripped; a picture
            // without one is taken as sRGB (vips' default fallback profile shifted colours: near-black red 1 became 49).
            "--import-profile", "srgb", "--export-profile", "srgb",
            "-o", display.path + "[Q=\(displayQuality),strip,optimize_coding]",
        ], modules: modules, tools: tools, in: folder, logger: logger)
        _ = try await run(tools.thumbnail, [
            display.path, "--size", "\(thumbnailSize)x\(thumbnailSize)>",
            "-o", thumbnail.path + "[Q=\(thumbnailQuality),strip,optimize_coding]",
        ], modules: .none, tools: tools, in: folder, logger: logger)
        guard let displayData = try? Data(contentsOf: display), let thumbnailData = try? Data(contentsOf: thumbnail),
            let displaySize = JPEGFrame.read(displayData)
        else { throw .undecodable }
        return Photo(display: displayData, thumbnail: thumbnailData, width: displaySize.width, height: displaySize.height)
    }

    /// A photo of an import (`MediaImport`) that is already what `processPhoto` makes — a JPEG without metadata
    /// segments (`BareJPEG`), at most `displaySize` on its longer side — kept byte for byte: `vipsheader` reads its
    /// size (which must be the frame header's) and `vipsthumbnail` decodes it whole for the thumbnail. Nil when it
    /// is not such a JPEG (the caller then processes it as an upload); `.undecodable` when vips cannot read it.
    func verifyDisplayJPEG(_ data: Data, logger: Logger) async throws(Failure) -> Photo? {
        guard BareJPEG.isBare(data), let frame = JPEGFrame.read(data), max(frame.width, frame.height) <= displaySize else { return nil }
        return try await withPrivateCopy(of: data, named: "display.jpg", logger: logger) { tools, folder, input throws(Failure) in
            let thumbnail = folder.appendingPathComponent("thumbnail.jpg")
            let header = try await run(tools.header, [input.path], modules: .none, tools: tools, in: folder, logger: logger)
            guard let (width, height) = Self.size(fromHeader: header), width == frame.width, height == frame.height else {
                throw .undecodable
            }
            _ = try await run(tools.thumbnail, [
                input.path, "--size", "\(thumbnailSize)x\(thumbnailSize)>",
                "-o", thumbnail.path + "[Q=\(thumbnailQuality),strip,optimize_coding]",
            ], modules: .none, tools: tools, in: folder, logger: logger)
            guard let thumbnailData = try? Data(contentsOf: thumbnail) else { throw .undecodable }
            return Photo(display: data, thumbnail: thumbnailData, width: width, height: height)
        }
    }

    typealias Tools = (header: String, thumbnail: String, nice: String?)

    /// Which of libvips' loadable modules a tool may load. Each tool run loads libvips; with its modules (Debian:
    /// HEIF, JPEG XL, ImageMagick, OpenSlide, Poppler and the libraries they pull in) a `vipsheader` took 58-77 ms
    /// of CPU, without them 30-41 ms (`perf stat -r 10`, docs/benchmarks.md "Media"), and a photo takes three runs.
    /// A JPEG, PNG or WebP needs no module, nor does the thumbnail made from the display JPEG; none of them can then
    /// reach ImageMagick or Poppler at all.
    enum VipsModules: Sendable, Equatable {
        case all, none
    }

    /// The environment a tool runs with: vips' own loaders only (`VIPS_BLOCK_UNTRUSTED`), one thread, temporary
    /// files in `folder`; with `.none`, `VIPSHOME` names an empty folder in it, where libvips finds no modules to load.
    static func toolEnvironment(_ base: [String: String], modules: VipsModules, folder: URL) -> [String: String] {
        var environment = base
        // Only vips' own, well-tested loaders (no ImageMagick, no matio…), and no vips cache files in $HOME.
        environment["VIPS_BLOCK_UNTRUSTED"] = "1"
        // One thread per tool: with `slots` tools at once, photos never take more than all cores but one. (libheif
        // decodes a grid HEIC's tiles on threads of its own regardless: docs/media.md.)
        environment["VIPS_CONCURRENCY"] = "1"
        environment["TMPDIR"] = folder.path
        switch modules {
        case .all: environment["VIPSHOME"] = nil
        case .none: environment["VIPSHOME"] = folder.appendingPathComponent("vips-home").path
        }
        return environment
    }

    /// Runs `work` on `data` written to a private folder (removed afterwards), holding one of the processing
    /// `slots`; `.toolsMissing` without the vips tools, `.undecodable` when the folder or the file cannot be made.
    private func withPrivateCopy<Result>(
        of data: Data, named name: String, logger: Logger,
        _ work: (Tools, URL, URL) async throws(Failure) -> Result
    ) async throws(Failure) -> Result {
        guard let tools = tools() else { throw .toolsMissing }
        await Self.slots.acquire()
        defer { Task { await Self.slots.release() } }
        let folder: URL
        do {
            folder = try Self.makePrivateFolder()
        } catch {
            logger.error("media: no private temporary folder", metadata: ["error": "\(error)"])
            throw .undecodable
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        // Empty: `VIPSHOME` for tools that load no modules (`toolEnvironment`).
        try? FileManager.default.createDirectory(at: folder.appendingPathComponent("vips-home"), withIntermediateDirectories: false)
        let input = folder.appendingPathComponent(name)
        do {
            try data.write(to: input)
        } catch {
            logger.error("media: the photo could not be written", metadata: ["error": "\(error)"])
            throw .undecodable
        }
        return try await work(tools, folder, input)
    }

    /// Runs one tool and answers its standard output; a failure, a crash or the time limit is `.undecodable` (what
    /// the tool said goes to the log at debug level: it may name the temporary path).
    private func run(
        _ tool: String, _ arguments: [String], modules: VipsModules, tools: Tools, in folder: URL, logger: Logger
    ) async throws(Failure) -> String {
        // Here, on the thread that starts the tool: the tool inherits this thread's nice value.
        let launcher = Self.launcher(for: priority, fromNice: Self.callingThreadNice(), nice: tools.nice)
        let command = launcher + [tool] + arguments
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.environment = Self.toolEnvironment(ProcessInfo.processInfo.environment, modules: modules, folder: folder)
        process.currentDirectoryURL = folder
        let outputURL = folder.appendingPathComponent("stdout-\(UUID().uuidString)")
        let errorURL = folder.appendingPathComponent("stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        guard let output = FileHandle(forWritingAtPath: outputURL.path), let errors = FileHandle(forWritingAtPath: errorURL.path) else {
            throw .undecodable
        }
        defer {
            try? output.close()
            try? errors.close()
        }
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice

        let ending = await ToolProcess.run(
            process, timeLimit: timeLimit,
            startFailed: { error in
                logger.error("media: a vips tool could not be started", metadata: ["tool": "\(tool)", "error": "\(error)"])
            },
            timedOut: { logger.warning("media: a vips tool ran out of time and was stopped", metadata: ["tool": "\(tool)"]) })
        if ending.timedOut { throw .timedOut }
        let status = ending.status
        guard status == 0 else {
            let said = (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
            logger.debug("media: a vips tool failed", metadata: ["tool": "\(tool)", "status": "\(status.map(String.init) ?? "-")", "stderr": "\(said.prefix(500))"])
            throw .undecodable
        }
        return (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
    }

    /// `vipsheader`'s line, `/path/upload: 4032x3024 uchar, 3 bands, srgb, jpegload`, as its width and height.
    static func size(fromHeader line: String) -> (Int, Int)? {
        guard let colon = line.range(of: ": ", options: .backwards) else { return nil }
        let dimensions = line[colon.upperBound...].prefix { $0 != " " }
        let parts = dimensions.split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else { return nil }
        return (width, height)
    }

    /// A folder only this process's user can read, under the system's temporary folder.
    static func makePrivateFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-media-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        return folder
    }

    /// Photos being processed at once, process-wide: one fewer than the machine's cores (at least one), each tool on
    /// one thread (`VIPS_CONCURRENCY`), so that a burst of uploads always leaves a core to requests such as meal saves
    /// (with both cores taken, a meal save's P95 went from 2.4 to 5.7 ms on 2 cores; `nice` alone does not give the
    /// core back fast enough).
    static let slots = AsyncSlots(max(1, ProcessInfo.processInfo.activeProcessorCount - 1))
}

/// A counting semaphore for async callers: at most `count` holders; the others wait in order.
actor AsyncSlots {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ count: Int) {
        free = count
    }

    func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
