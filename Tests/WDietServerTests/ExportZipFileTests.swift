import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietStorage
import WDietStore
import WDietTestSupport
import ZIPFoundation

@testable import WDietServer

/// The export zip is made in a private temporary file and streamed from it (`ExportZipFile`), so an account with a
/// gigabyte of photos does not hold a gigabyte in memory: shown by what is on the disk while the zip is made.
@Suite("Export zip: made in a private temporary file, then streamed")
struct ExportZipFileTests {
    /// 2 MiB per item: 24 items are 48 MiB, more than any one buffer of the export.
    static let itemBytes = 2 * 1_024 * 1_024
    static let items = 24

    /// Bytes that do not compress and differ per item (a linear congruential sequence from the item's number).
    static func content(_ index: Int) -> Data {
        var state = UInt64(index + 1) &* 6_364_136_223_846_793_005
        var data = Data(count: itemBytes)
        data.withUnsafeMutableBytes { raw in
            let words = raw.bindMemory(to: UInt64.self)
            for i in words.indices {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                words[i] = state
            }
        }
        return data
    }

    /// Stores `items` recordings for the user straight in the store (their bytes as they are), a second apart.
    static func storeItems(_ t: TestApp, userId: UUID) async throws -> [UUID: Data] {
        var stored: [UUID: Data] = [:]
        for index in 0..<items {
            let id = UUID()
            let data = content(index)
            _ = try await t.services.media.saveMedia(
                NewMedia(id: id, kind: .audio, contentType: "audio/webm", data: data, thumbnail: nil, width: nil, height: nil, uploadDigest: "test"),
                userId: userId)
            stored[id] = data
            t.clock.advance(seconds: 1)
        }
        return stored
    }

    static func files(in archive: Archive) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for entry in archive {
            var data = Data()
            // ZIPFoundation checks each entry's CRC-32 as it extracts it.
            _ = try archive.extract(entry) { data.append($0) }
            files[entry.path] = data
        }
        return files
    }

    @Test("48 MiB of recordings: each is on the disk before the next is read, the file is private, every byte is right", arguments: StoreBackend.allCases)
    func writtenAsItGoes(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let ana = try await client.signInAsGuest()
            let stored = try await Self.storeItems(t, userId: ana.userId)
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-export-test-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: false)
            defer { try? FileManager.default.removeItem(at: root) }

            let watching = DiskWatchingMediaStore(inner: t.services.media, root: root)
            let data = try await t.services.userData.exportUserData(userId: ana.userId)
            let document = ExportDocument(data, exportedAt: t.services.now(), media: try await t.services.media.allMedia(userId: ana.userId))
            let file = try await ExportZipFile.write(document, media: watching, userId: ana.userId, in: root)

            // When item k (from 0) was read, the k items before it were already in the file: 23 × 2 MiB = 48,234,496
            // bytes on the disk when the last was read. (Less up to 64 KiB the writer may still hold in its buffer.)
            let sizes = watching.sizesOnDisk()
            #expect(sizes.count == Self.items)
            for (k, size) in sizes.enumerated() {
                #expect(size >= k * Self.itemBytes - 64 * 1_024, "item \(k): \(size) bytes on the disk")
            }
            #expect(sizes.last.map { $0 >= 48_234_496 - 65_536 } == true)

            let attributes = try FileManager.default.attributesOfItem(atPath: file.url.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let folder = try FileManager.default.attributesOfItem(atPath: file.folder.path)
            #expect((folder[.posixPermissions] as? NSNumber)?.intValue == 0o700)
            #expect(((attributes[.size] as? NSNumber)?.intValue ?? 0) > Self.items * Self.itemBytes)

            let files = try Self.files(in: try Archive(url: file.url, accessMode: .read))
            for (id, data) in stored {
                #expect(files["media/\(id.uuidString.lowercased()).webm"] == data)
            }
            let exportJSON = try #require(files["export.json"])
            let json = try #require(JSONSerialization.jsonObject(with: exportJSON) as? [String: Any])
            #expect((json["media"] as? [Any])?.count == Self.items)

            file.remove()
            #expect(!FileManager.default.fileExists(atPath: file.folder.path))
        }
    }

    @Test("GET /export?format=csv streams 48 MiB of recordings: its length announced, every item byte-identical", arguments: StoreBackend.allCases)
    func streamedByTheAPI(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend) { t, client in
            let ana = try await client.signInAsGuest()
            let stored = try await Self.storeItems(t, userId: ana.userId)
            let response = try await client.api(.get, "/api/v1/export?format=csv", ana)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/zip")
            #expect(response.headers[.cacheControl] == "no-store")
            #expect(response.body.readableBytes > Self.items * Self.itemBytes)
            let files = try Self.files(in: try Archive(data: Data(buffer: response.body), accessMode: .read))
            #expect(files.keys.filter { $0.hasPrefix("media/") }.count == Self.items)
            for (id, data) in stored {
                #expect(files["media/\(id.uuidString.lowercased()).webm"] == data)
            }
            let csv = String(decoding: try #require(files["media.csv"]), as: UTF8.self)
            #expect(csv.split(separator: "\r\n").count == 1 + Self.items)
        }
    }
}

@Suite("Export zip: folders left by downloads that never started")
struct ExportZipFileStaleTests {
    @Test("the sweep removes export folders last changed over a day ago (25 h), keeps younger ones (23 h) and others")
    func staleFolders() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-export-stale-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: root) }
        let now = Fixtures.utc("2026-03-02T09:00:00Z")
        func folder(_ name: String, changedHoursBefore hours: Double) throws -> URL {
            let url = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
            try Data("zip".utf8).write(to: url.appendingPathComponent(ExportZipFile.fileName))
            try FileManager.default.setAttributes([.modificationDate: now.addingTimeInterval(-hours * 3_600)], ofItemAtPath: url.path)
            return url
        }
        let old = try folder(ExportZipFile.folderPrefix + "old", changedHoursBefore: 25)
        let young = try folder(ExportZipFile.folderPrefix + "young", changedHoursBefore: 23)
        let other = try folder("wdiet-media-old", changedHoursBefore: 48)
        #expect(ExportZipFile.removeStale(in: root, now: now) == 1)
        #expect(!FileManager.default.fileExists(atPath: old.path))
        #expect(FileManager.default.fileExists(atPath: young.path))
        #expect(FileManager.default.fileExists(atPath: other.path))
    }
}

/// The store, noting how large the export's zip file under `root` is each time an item's bytes are read.
final class DiskWatchingMediaStore: MediaStore, @unchecked Sendable {
    let inner: any MediaStore
    let root: URL
    private let lock = NSLock()
    private var sizes: [Int] = []

    init(inner: any MediaStore, root: URL) {
        self.inner = inner
        self.root = root
    }

    func sizesOnDisk() -> [Int] { lock.withLock { sizes } }

    private func zipSize() -> Int {
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return folders.compactMap { folder in
            let path = root.appendingPathComponent(folder).appendingPathComponent(ExportZipFile.fileName).path
            return (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
        }.reduce(0, +)
    }

    func mediaContent(id: UUID, userId: UUID, variant: MediaVariant) async throws -> Data? {
        let size = zipSize()
        lock.withLock { sizes.append(size) }
        return try await inner.mediaContent(id: id, userId: userId, variant: variant)
    }

    func saveMedia(_ media: NewMedia, userId: UUID) async throws -> MediaSaveOutcome { try await inner.saveMedia(media, userId: userId) }
    func media(id: UUID, userId: UUID) async throws -> StoredMedia? { try await inner.media(id: id, userId: userId) }
    func deleteMedia(id: UUID, userId: UUID) async throws -> Bool { try await inner.deleteMedia(id: id, userId: userId) }
    func allMedia(userId: UUID) async throws -> [StoredMedia] { try await inner.allMedia(userId: userId) }
    func deleteAllMedia(userId: UUID) async throws -> Int { try await inner.deleteAllMedia(userId: userId) }
}
