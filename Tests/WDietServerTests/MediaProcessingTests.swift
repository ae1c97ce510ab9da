import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
import WDietCore
import WDietSQLite
import WDietStore
import WDietTestSupport

@testable import WDietServer

/// How photo processing runs (docs/media.md "Photos"): which vips modules a tool may load, at which priority it
/// starts, and which thread does an upload's own work.
@Suite("Media: how photos are processed")
struct MediaProcessingTests {
    @Test("a tool is brought to nice 10 from its starting thread's own nice value, never above its caller")
    func launcher() {
        let ten = BackgroundPriority(niceness: 10)
        #expect(MediaProcessing.launcher(for: ten, fromNice: 0, nice: "/usr/bin/nice") == ["/usr/bin/nice", "-n", "10"])
        #expect(MediaProcessing.launcher(for: ten, fromNice: 4, nice: "/usr/bin/nice") == ["/usr/bin/nice", "-n", "6"])
        // The upload thread is at nice 10: `nice -n 10` there would put the tool at 19.
        #expect(MediaProcessing.launcher(for: ten, fromNice: 10, nice: "/usr/bin/nice") == [])
        // An import thread at nice 15: the tool stays at 15.
        #expect(MediaProcessing.launcher(for: ten, fromNice: 15, nice: "/usr/bin/nice") == [])
        #expect(MediaProcessing.launcher(for: nil, fromNice: 0, nice: "/usr/bin/nice") == [])
        #expect(MediaProcessing.launcher(for: ten, fromNice: 0, nice: nil) == [])
    }

    @Test("the tools' environment: vips' own loaders, one thread, temporary files in the folder; no modules unless asked")
    func environment() {
        let folder = URL(fileURLWithPath: "/tmp/wdiet-media-x")
        let inherited = ["PATH": "/usr/bin", "VIPSHOME": "/opt/vips", "VIPS_CONCURRENCY": "8"]
        let without = MediaProcessing.toolEnvironment(inherited, modules: .none, folder: folder)
        #expect(without["VIPSHOME"] == "/tmp/wdiet-media-x/vips-home")
        #expect(without["VIPS_BLOCK_UNTRUSTED"] == "1")
        #expect(without["VIPS_CONCURRENCY"] == "1")
        #expect(without["TMPDIR"] == "/tmp/wdiet-media-x")
        #expect(without["PATH"] == "/usr/bin")
        // With modules vips finds its own (an inherited VIPSHOME could point anywhere).
        let with = MediaProcessing.toolEnvironment(inherited, modules: .all, folder: folder)
        #expect(with["VIPSHOME"] == nil)
        #expect(with["VIPS_CONCURRENCY"] == "1")
    }

    @Test("without modules vips reads a JPEG but not a HEIC (its loader is a module: none was loaded); with them both")
    func modulesNotLoaded() async throws {
        let folder = try MediaFixtures.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("vips-home"), withIntermediateDirectories: false)
        let jpeg = folder.appendingPathComponent("photo.jpg")
        let heic = folder.appendingPathComponent("photo.heic")
        try await MediaFixtures.photo(width: 64, height: 48, metadata: false).write(to: jpeg)
        try await MediaFixtures.photo(width: 64, height: 48, format: "heic").write(to: heic)
        let base = ProcessInfo.processInfo.environment
        func header(_ file: URL, _ modules: MediaProcessing.VipsModules) throws -> Int32 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try #require(ToolProcess.find("vipsheader")))
            process.arguments = [file.path]
            process.environment = MediaProcessing.toolEnvironment(base, modules: modules, folder: folder)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        #expect(try header(jpeg, .none) == 0)
        #expect(try header(heic, .all) == 0)
        // Debian builds libvips' HEIF support as a module (vips-modules-8.14/vips-heif.so).
        #expect(try header(heic, .none) != 0)
    }

    @Test("a JPEG's size comes from its frame header (no vipsheader run), a PNG's from vipsheader; a JPEG with broken data is still refused")
    func jpegSizeWithoutVipsheader() async throws {
        let folder = try MediaFixtures.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A `vipsheader` ahead of the real one notes each run.
        let runs = folder.appendingPathComponent("vipsheader-runs")
        let realHeader = try #require(ToolProcess.find("vipsheader"))
        let wrapper = folder.appendingPathComponent("vipsheader")
        try "#!/bin/sh\necho ran >> '\(runs.path)'\nexec '\(realHeader)' \"$@\"\n".write(to: wrapper, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)
        var processing = MediaProcessing()
        processing.searchPath = [folder.path] + ToolProcess.searchPath
        func headerRuns() -> Int {
            ((try? String(contentsOf: runs, encoding: .utf8)) ?? "").split(separator: "\n").count
        }

        let jpeg = try await MediaFixtures.photo(width: 64, height: 48)
        let fromJPEG = try await processing.processPhoto(jpeg, logger: Logger(label: "test"))
        #expect((fromJPEG.width, fromJPEG.height) == (64, 48))
        #expect(headerRuns() == 0)

        let png = try await MediaFixtures.photo(width: 64, height: 48, format: "png")
        let fromPNG = try await processing.processPhoto(png, logger: Logger(label: "test"))
        #expect((fromPNG.width, fromPNG.height) == (64, 48))
        #expect(headerRuns() == 1)

        // A frame header (64×48, 3 components) and nothing else — no tables, no scan: vipsthumbnail cannot read it.
        let broken = Data([0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x30, 0x00, 0x40, 0x03,
                           0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01, 0xFF, 0xD9])
        let frame = try #require(JPEGFrame.read(broken))
        #expect(frame.width == 64)
        #expect(frame.height == 48)
        #expect(frame.components == 3)
        #expect(frame.precision == 8)
        #expect(frame.marker == 0xC0)
        await #expect(throws: MediaProcessing.Failure.undecodable) {
            _ = try await processing.processPhoto(broken, logger: Logger(label: "test"))
        }
    }

    @Test("an upload's own work runs on the upload thread, whose tools start at its nice 10 without `nice`; called from elsewhere through `nice`")
    func uploadThread() async throws {
        let folder = try MediaFixtures.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A `nice` and a `vipsthumbnail` ahead of the real ones: each notes that it ran (vipsthumbnail its own stat line).
        let niceNote = folder.appendingPathComponent("nice-ran")
        let statNote = folder.appendingPathComponent("vipsthumbnail-stat")
        let realNice = try #require(ToolProcess.find("nice"))
        let realThumbnail = try #require(ToolProcess.find("vipsthumbnail"))
        for (name, script) in [
            ("nice", "#!/bin/sh\ntouch '\(niceNote.path)'\nexec '\(realNice)' \"$@\"\n"),
            ("vipsthumbnail", "#!/bin/sh\ncat /proc/$$/stat > '\(statNote.path)'\nexec '\(realThumbnail)' \"$@\"\n"),
        ] {
            let wrapper = folder.appendingPathComponent(name)
            try script.write(to: wrapper, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)
        }
        let sqlite = AppServices(database: try AppDatabase.inMemory())
        let spy = ThreadNotingMediaStore(sqlite.media)
        var services = AppServices(
            users: sqlite.users, profiles: sqlite.profiles, meals: sqlite.meals, weights: sqlite.weights, loggedDays: sqlite.loggedDays,
            analytics: sqlite.analytics, dashboards: sqlite.dashboards, foods: sqlite.foods, accounts: sqlite.accounts, tips: sqlite.tips,
            rateLimits: sqlite.rateLimits, loginThrottle: sqlite.loginThrottle, identities: sqlite.identities, passwords: sqlite.passwords,
            userData: sqlite.userData, sync: sqlite.sync, journal: sqlite.journal, media: spy, database: sqlite.database)
        services.mediaProcessing.searchPath = [folder.path] + ToolProcess.searchPath
        let photo = try await MediaFixtures.photo(width: 64, height: 48)

        try await MediaAPITests.withApp(services) { client in
            let ana = try await client.signInAsGuest()
            let response = try await MediaAPITests.put(client, MediaAPITests.newId(), photo, type: "image/jpeg", ana)
            #expect(response.status == .created, "\(response.text)")
        }
        // The store was asked (the retry check, the save) from the upload thread.
        #expect(spy.calls == [true, true])
        #expect(!FileManager.default.fileExists(atPath: niceNote.path))
        #expect(BackgroundPriorityTests.classAndNice(try String(contentsOf: statNote, encoding: .utf8)).nice == 10)

        // From a normal thread (here the test's): through `nice -n 10`, again at nice 10.
        try FileManager.default.removeItem(at: statNote)
        let processed = try await services.mediaProcessing.processPhoto(photo, logger: Logger(label: "test"))
        #expect(processed.width == 64)
        #expect(FileManager.default.fileExists(atPath: niceNote.path))
        #expect(BackgroundPriorityTests.classAndNice(try String(contentsOf: statNote, encoding: .utf8)).nice == 10)
    }
}

/// A media store that notes, for each retry check and save, whether it was called on the upload thread.
private final class ThreadNotingMediaStore: MediaStore, @unchecked Sendable {
    private let store: any MediaStore
    private let lock = NSLock()
    private var noted: [Bool] = []

    init(_ store: any MediaStore) {
        self.store = store
    }

    var calls: [Bool] { lock.withLock { noted } }

    private func note() {
        let onUploadThread = MediaAPI.threads.isCurrent
        lock.withLock { noted.append(onUploadThread) }
    }

    func saveMedia(_ media: NewMedia, userId: UUID) async throws -> MediaSaveOutcome {
        note()
        return try await store.saveMedia(media, userId: userId)
    }

    func media(id: UUID, userId: UUID) async throws -> StoredMedia? {
        note()
        return try await store.media(id: id, userId: userId)
    }

    func mediaContent(id: UUID, userId: UUID, variant: MediaVariant) async throws -> Data? {
        try await store.mediaContent(id: id, userId: userId, variant: variant)
    }

    func deleteMedia(id: UUID, userId: UUID) async throws -> Bool {
        try await store.deleteMedia(id: id, userId: userId)
    }

    func allMedia(userId: UUID) async throws -> [StoredMedia] {
        try await store.allMedia(userId: userId)
    }

    func deleteAllMedia(userId: UUID) async throws -> Int {
        try await store.deleteAllMedia(userId: userId)
    }
}
