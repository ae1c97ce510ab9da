import Foundation
import Hummingbird
import Logging
import NIOCore
import WDietCore
import WDietStorage
import WDietStore

/// An import with its photos and recordings (docs/media.md "Export and import"): `POST /import` with the export zip
/// (`Content-Type: application/zip`, or a body that starts as a zip does) reads its `export.json` and restores each
/// item it lists from `media/`; a JSON import restores none. Either way a row that names a media id neither in the
/// import nor already the user's loses that reference (`MediaImport.dropMissingReferences`).
enum ImportMedia {
    /// An export zip may hold a year or more of photos (a display JPEG is ~300 KB) and recordings: up to 1 GiB,
    /// written to a private temporary file as it arrives (never held in memory: five may wait in the line).
    static let maxZipBytes = 1_024 * 1_024 * 1_024

    /// True when the body is a zip: by its type, or its first bytes when the type says nothing more specific.
    static func isZip(_ request: Request) -> Bool {
        let type = request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        return type == "application/zip" || type == "application/x-zip-compressed"
    }

    /// The body in a new private folder (`import.zip`, mode 0600 in a 0700 folder), at most `maxZipBytes` (else 413);
    /// the caller removes the folder.
    static func saveBody(_ request: Request) async throws -> URL {
        let folder = try MediaProcessing.makePrivateFolder()
        do {
            let url = folder.appendingPathComponent("import.zip")
            guard FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteUnknown)
            }
            let handle = try FileHandle(forWritingTo: url)
            defer { try? handle.close() }
            var total = 0
            for try await buffer in request.body {
                total += buffer.readableBytes
                guard total <= maxZipBytes else {
                    throw APIError(
                        .contentTooLarge, code: "too_large",
                        message: Strings.current("export.zipTooLarge", ["megabytes": "\(maxZipBytes / 1_024 / 1_024)"]))
                }
                try handle.write(contentsOf: buffer.readableBytesView)
            }
            guard total > 0 else { throw APIError.badRequest(APIInput.Message.emptyBody) }
            return folder
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    /// The document and the store's value of the zip in `folder` (`saveBody`), or the 4xx that says what is wrong.
    static func read(zipIn folder: URL, userId: UUID) throws -> (zip: ExportZip, document: ExportDocument, data: UserDataExport) {
        let zip: ExportZip
        let json: Data
        do throws(ExportZip.ReadError) {
            zip = try ExportZip(url: folder.appendingPathComponent("import.zip"))
            json = try zip.document(limit: UserDataAPI.maxImportBytes)
        } catch {
            switch error {
            case .notZip, .damaged:
                throw APIError.invalid(Strings.current("export.zipInvalid"))
            case .noDocument:
                throw APIError.invalid(Strings.current("export.zipNoDocument"))
            case .tooLarge:
                throw APIError(.contentTooLarge, code: "too_large", message: Strings.current("export.importTooLarge"))
            }
        }
        let (document, data) = try UserDataAPI.readImport(ByteBuffer(data: json), userId: userId)
        return (zip, document, data)
    }

    /// Imports `data` into the user's account with the zip's media (nil: a JSON import, no media): the items first
    /// (each checked as an upload), then the rows without references to media the user does not have; when the rows
    /// are refused the items this import stored are deleted again. Answers the summary, how many items the import
    /// holds and how many references it dropped.
    static func run(
        _ data: UserDataExport, document: ExportDocument, zip: ExportZip?, userId: UUID, services: AppServices, logger: Logger
    ) async throws -> (summary: UserDataImportSummary, media: Int, droppedReferences: Int) {
        let media = MediaImport(upload: MediaUpload(store: services.media, processing: services.mediaProcessing))
        var created: [UUID] = []
        var available = Set<UUID>()
        if let zip, let items = document.media, !items.isEmpty {
            do {
                (created, available) = try await media.restore(items, from: zip, userId: userId, logger: logger)
            } catch let refused as MediaImport.Refused {
                throw APIError.invalid(Strings.current("export.cannotImport", count: 1), fields: ["media.\(refused.index)": refused.message])
            } catch let refusal as MediaRefusal {
                throw APIError(refusal)
            }
        }
        let restored = available.count
        var value = data
        var dropped = 0
        // Rows that name media at all (with none available every reference counts as one to drop).
        if MediaImport.dropMissingReferences(data.rows, available: []).dropped > 0 {
            // The user's own items count too (uploaded before the import, or by an earlier try of it).
            available.formUnion(try await services.media.allMedia(userId: userId).map(\.id))
            (value.rows, dropped) = MediaImport.dropMissingReferences(data.rows, available: available)
        }
        do {
            let summary = try await services.userData.importUserData(value, into: userId)
            return (summary, restored, dropped)
        } catch {
            await media.deleteCreated(created, userId: userId, logger: logger)
            throw error
        }
    }
}
