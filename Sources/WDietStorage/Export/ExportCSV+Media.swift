import Foundation
import WDietStore
import ZIPFoundation

extension ExportCSV {
    /// The zip with the user's photos and recordings as well, when there are any: `media.csv` (one row per item:
    /// `id, kind, contentType, bytes, width, height, createdAt, file`) and each item's bytes under `media/` — a
    /// photo as the display JPEG the app shows (`media/<id>.jpg`, its metadata already stripped), a recording as
    /// recorded (`media/<id>.webm`, `.m4a`, …). The files are stored, not deflated: JPEG and recordings do not
    /// compress. The items are the document's `media` (`ExportDocument(_:exportedAt:media:)`); `export.json` beside
    /// them is what `POST /import` reads back.
    ///
    /// Written to the file at `url` (made, must not exist) one entry at a time, each item read from the store only
    /// when its turn comes: an account with a gigabyte of photos never holds more than one item in memory
    /// (`GET /export?format=csv` streams the file, docs/media.md "Export and import").
    public static func writeZip(_ document: ExportDocument, media: any MediaStore, userId: UUID, to url: URL) async throws {
        let archive = try Archive(url: url, accessMode: .create)
        try await fill(archive, document: document, media: media, userId: userId)
    }

    private static func fill(_ archive: Archive, document: ExportDocument, media: any MediaStore, userId: UUID) async throws {
        for table in try tables(document) {
            try add(csv(table.rows), named: table.name, to: archive, modified: document.exportedAt, deflate: true)
        }
        var rows = [["id", "kind", "contentType", "bytes", "width", "height", "createdAt", "file"]]
        var written: [ExportDocument.MediaDocument] = []
        for item in document.media ?? [] {
            // An item deleted while the export runs is left out (of export.json too).
            guard let id = WireFormat.uuid(item.id),
                let data = try await media.mediaContent(id: id, userId: userId, variant: .display)
            else { continue }
            try add(data, named: item.file, to: archive, modified: item.createdAt, deflate: false)
            written.append(item)
            rows.append([
                item.id, item.kind.rawValue, item.contentType, String(item.bytes),
                item.width.map(String.init) ?? "", item.height.map(String.init) ?? "", instant(item.createdAt), item.file,
            ])
        }
        if !(document.media ?? []).isEmpty {
            try add(csv(rows), named: "media.csv", to: archive, modified: document.exportedAt, deflate: true)
        }
        var json = document
        json.media = written.isEmpty ? nil : written
        try add(try json.jsonData(), named: jsonName, to: archive, modified: document.exportedAt, deflate: true)
    }

    /// The file name extension of a stored type.
    static func fileExtension(_ contentType: String) -> String {
        switch contentType {
        case "image/jpeg": "jpg"
        case "audio/mp4": "m4a"
        case "audio/aac": "aac"
        case "audio/mpeg": "mp3"
        case "audio/webm": "webm"
        case "audio/ogg": "ogg"
        case "audio/wav": "wav"
        default: "bin"
        }
    }

    static func add(_ data: Data, named name: String, to archive: Archive, modified: Date, deflate: Bool) throws {
        try archive.addEntry(
            with: name, type: .file, uncompressedSize: Int64(data.count), modificationDate: modified,
            compressionMethod: deflate ? .deflate : .none
        ) { position, size in
            data.subdata(in: Int(position)..<Int(position) + size)
        }
    }
}
