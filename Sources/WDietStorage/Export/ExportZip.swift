import Foundation
import ZIPFoundation

/// An export zip read back for an import (`POST /api/v1/import` with `Content-Type: application/zip`): its
/// `export.json` and the files its `media` members name. Only entries asked for by name are read, into memory and
/// never onto the disk, each with a limit on its size as it is inflated (a zip's own size fields are not trusted).
public struct ExportZip {
    public enum ReadError: Error, Equatable {
        /// Not a zip archive.
        case notZip
        /// No `export.json` in it.
        case noDocument
        /// The entry inflates to more than the limit.
        case tooLarge(String)
        /// The entry could not be read (damaged, or its checksum is wrong).
        case damaged(String)
    }

    let archive: Archive

    /// The zip at `url` (a file the server wrote the request's body to).
    public init(url: URL) throws(ReadError) {
        do {
            archive = try Archive(url: url, accessMode: .read)
        } catch {
            throw .notZip
        }
    }

    /// `export.json`, at most `limit` bytes.
    public func document(limit: Int) throws(ReadError) -> Data {
        guard let data = try file(ExportCSV.jsonName, limit: limit) else { throw .noDocument }
        return data
    }

    /// The file at `path` (an entry of the zip, not a path on the disk), at most `limit` bytes; nil when the zip has
    /// no such file.
    public func file(_ path: String, limit: Int) throws(ReadError) -> Data? {
        guard let entry = archive[path], entry.type == .file else { return nil }
        guard entry.uncompressedSize <= UInt64(limit) else { throw .tooLarge(path) }
        var data = Data()
        struct OverLimit: Error {}
        do {
            _ = try archive.extract(entry) { chunk in
                guard data.count + chunk.count <= limit else { throw OverLimit() }
                data.append(chunk)
            }
        } catch is OverLimit {
            throw .tooLarge(path)
        } catch {
            throw .damaged(path)
        }
        return data
    }
}
