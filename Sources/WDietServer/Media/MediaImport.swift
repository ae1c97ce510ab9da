import Foundation
import Logging
import WDietCore
import WDietStorage
import WDietStore

/// The photos and recordings of an import (docs/media.md "Export and import"): each file of an export zip is checked
/// as an upload is (`MediaUpload.restore`) and stored under its own id, and rows that name media neither in the
/// import nor already the user's lose that reference (`dropMissingReferences`).
struct MediaImport: Sendable {
    let upload: MediaUpload

    /// Why an item of the zip is refused: the import is refused (422) naming `media.N`, nothing kept.
    struct Refused: Error {
        var index: Int
        var message: String
    }

    /// Stores the zip's items for the user, in order; answers the ids of the items the import created (an id the user
    /// has already is left as it is: the client made it, and it is the same item). On a refusal the items created so
    /// far are deleted again and `Refused` is thrown.
    func restore(
        _ items: [ExportDocument.MediaDocument], from zip: ExportZip, userId: UUID, logger: Logger
    ) async throws -> (created: [UUID], all: Set<UUID>) {
        var created: [UUID] = []
        var all = Set<UUID>()
        do {
            for (index, item) in items.enumerated() {
                do {
                    guard let id = WireFormat.uuid(item.id) else { throw Refused(index: index, message: Strings.current("api.uuid")) }
                    let data: Data?
                    do {
                        data = try zip.file(item.file, limit: MediaUpload.maxBytes(item.kind))
                    } catch .tooLarge {
                        throw MediaRefusal.tooLarge(item.kind)
                    } catch {
                        throw Refused(index: index, message: Strings.current("media.importFileDamaged", ["file": item.file]))
                    }
                    guard let data else {
                        throw Refused(index: index, message: Strings.current("media.importFileMissing", ["file": item.file]))
                    }
                    let (stored, new) = try await upload.restore(data, kind: item.kind, id: id, userId: userId, logger: logger)
                    if new { created.append(stored.id) }
                    all.insert(stored.id)
                } catch let refusal as MediaRefusal {
                    switch refusal {
                    case .processingUnavailable, .processingTimedOut: throw refusal
                    default: throw Refused(index: index, message: APIError(refusal).message)
                    }
                }
            }
        } catch {
            await deleteCreated(created, userId: userId, logger: logger)
            throw error
        }
        return (created, all)
    }

    /// Deletes what an import stored when the import does not go through.
    func deleteCreated(_ ids: [UUID], userId: UUID, logger: Logger) async {
        for id in ids {
            do {
                _ = try await upload.store.deleteMedia(id: id, userId: userId)
            } catch {
                logger.warning("media: an item of a failed import could not be deleted", metadata: ["error": "\(String(reflecting: error))"])
            }
        }
    }

    /// `rows` with every media reference that is not in `available` taken out: a journal entry keeps its words
    /// without the id in `mediaIds`, a challenge photo (nothing without its picture) is left out. Answers how many
    /// references went.
    static func dropMissingReferences(
        _ rows: [UserDataExport.Row], available: Set<UUID>
    ) -> (rows: [UserDataExport.Row], dropped: Int) {
        var dropped = 0
        var kept: [UserDataExport.Row] = []
        kept.reserveCapacity(rows.count)
        for var row in rows {
            guard case .object(var members) = row.data else {
                kept.append(row)
                continue
            }
            switch row.collection {
            case JournalEntry.collection:
                if case .array(let ids) = members["mediaIds"] {
                    let present = ids.filter { value in
                        guard case .string(let text) = value, let id = WireFormat.uuid(text) else { return true }
                        return available.contains(id)
                    }
                    if present.count != ids.count {
                        dropped += ids.count - present.count
                        members["mediaIds"] = .array(present)
                        row.data = .object(members)
                    }
                }
            case ChallengePhoto.collection:
                if case .string(let text) = members["mediaId"], let id = WireFormat.uuid(text), !available.contains(id) {
                    dropped += 1
                    continue
                }
            default:
                break
            }
            kept.append(row)
        }
        return (kept, dropped)
    }
}

extension MediaUpload {
    /// An item of an import stored under `id` as an upload would be: the same size limits and the kind told by its
    /// bytes; a photo that is already a display JPEG without metadata (what the export holds) is verified by vips and
    /// kept byte for byte (`MediaProcessing.verifyDisplayJPEG`), any other photo processed as an upload (re-encoded,
    /// its metadata stripped). `created` false when the user has an item with this id already (it is kept as it is).
    func restore(
        _ data: Data, kind: MediaKind, id: UUID, userId: UUID, logger: Logger
    ) async throws -> (media: StoredMedia, created: Bool) {
        if let existing = try await store.media(id: id, userId: userId) { return (existing, false) }
        guard !data.isEmpty else { throw MediaRefusal.empty }
        guard data.count <= Self.maxBytes(kind) else { throw MediaRefusal.tooLarge(kind) }
        guard let format = MediaFormat.sniff(data), format.kind == kind else { throw MediaRefusal.notOfKind(kind) }
        let digest = Self.digest(data)
        let media = try await newMedia(id: id, format: format, data: data, digest: digest) { data throws(MediaProcessing.Failure) in
            if let kept = try await processing.verifyDisplayJPEG(data, logger: logger) { return kept }
            return try await processing.processPhoto(data, logger: logger)
        }
        let outcome = try await store.saveMedia(media, userId: userId)
        if case .created(let stored) = outcome { return (stored, true) }
        return (outcome.media, false)
    }
}

/// Whether a JPEG carries nothing but the picture: from SOI to EOI only quantisation and Huffman tables, frame and
/// scan headers, restart intervals and the scans' data — no APPn segment (EXIF with GPS, XMP, ICC, IPTC, JFIF), no
/// comment, nothing after EOI. What `vipsthumbnail … [strip]` writes; an import's photo that is not such a JPEG is
/// processed as an upload.
enum BareJPEG {
    static func isBare(_ data: Data) -> Bool {
        let bytes = [UInt8](data)
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return false }
        var i = 2
        while i + 1 < bytes.count {
            guard bytes[i] == 0xFF else { return false }
            var marker = bytes[i + 1]
            // Fill bytes before a marker.
            while marker == 0xFF, i + 2 < bytes.count {
                i += 1
                marker = bytes[i + 1]
            }
            i += 2
            switch marker {
            case 0xD9:
                return i == bytes.count
            case 0xD0...0xD7:
                continue
            // DQT, DHT, DRI, DAC, SOF0–SOF15 (not DHT's C4 or DAC's CC as frames, but they are tables: all allowed).
            case 0xDB, 0xC4, 0xDD, 0xCC, 0xC0...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF, 0xDA:
                guard i + 1 < bytes.count else { return false }
                let length = Int(bytes[i]) << 8 | Int(bytes[i + 1])
                guard length >= 2, i + length <= bytes.count else { return false }
                i += length
                if marker == 0xDA {
                    // The scan's entropy-coded data: up to the next marker that is not a stuffed 0x00 or a restart.
                    while i + 1 < bytes.count {
                        if bytes[i] == 0xFF, bytes[i + 1] != 0x00, !(0xD0...0xD7).contains(bytes[i + 1]) { break }
                        i += 1
                    }
                }
            default:
                // APP0–APP15, COM, DNL, DHP, EXP, JPG extensions: not what a stripped JPEG holds.
                return false
            }
        }
        return false
    }
}
