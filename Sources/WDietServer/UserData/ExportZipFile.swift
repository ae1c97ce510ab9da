import Foundation
import Hummingbird
import NIOCore
import WDietStorage
import WDietStore

/// The export zip (`GET /export?format=csv`) as a private temporary file, `export.zip` (mode 0600) in a folder of
/// its own (0700), sent in chunks and removed when the body is sent (or fails): an account with a gigabyte of photos
/// costs a gigabyte of disk for the length of the download, and one item plus a chunk of memory.
struct ExportZipFile: Sendable {
    let folder: URL
    var url: URL { folder.appendingPathComponent(Self.fileName) }

    static let fileName = "export.zip"
    /// The temporary folders' names start with this (tests look for them).
    static let folderPrefix = "wdiet-export-"
    /// Bytes read from the file and written to the connection at a time.
    static let chunkBytes = 256 * 1_024

    /// Writes the zip of `document` with the user's media in a new folder under `root` (the system's temporary
    /// folder; tests give their own); the folder is removed again when writing fails.
    static func write(
        _ document: ExportDocument, media: any MediaStore, userId: UUID, in root: URL = FileManager.default.temporaryDirectory
    ) async throws -> ExportZipFile {
        let folder = root.appendingPathComponent(folderPrefix + UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let file = ExportZipFile(folder: folder)
        do {
            // Private by its folder from the start, and by its own mode once written.
            try await ExportCSV.writeZip(document, media: media, userId: userId, to: file.url)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.url.path)
            return file
        } catch {
            file.remove()
            throw error
        }
    }

    /// The file as a response body of known length, read in chunks off the event loops; the folder goes when the
    /// body is written or its writing fails (a client that hangs up).
    func body(context: some RequestContext) async throws -> ResponseBody {
        let size = try (FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
        let file = try await FileIO().loadFile(path: url.path, context: context, chunkLength: Self.chunkBytes)
        return ResponseBody(contentLength: size) { [self] writer in
            defer { remove() }
            try await file.write(writer)
        }
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    /// A download that never started (the client gone before its body was written) leaves its folder: folders of
    /// this kind under `root` last changed more than `maxAge` before `now` are removed (by the hourly sweep).
    /// Answers how many.
    @discardableResult
    static func removeStale(
        in root: URL = FileManager.default.temporaryDirectory, now: Date, maxAge: TimeInterval = 86_400
    ) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        var removed = 0
        for name in names where name.hasPrefix(folderPrefix) {
            let folder = root.appendingPathComponent(name)
            guard let changed = (try? FileManager.default.attributesOfItem(atPath: folder.path))?[.modificationDate] as? Date,
                now.timeIntervalSince(changed) > maxAge
            else { continue }
            if (try? FileManager.default.removeItem(at: folder)) != nil { removed += 1 }
        }
        return removed
    }
}
