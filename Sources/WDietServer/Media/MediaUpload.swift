import Crypto
import Foundation
import Logging
import WDietCore
import WDietStore

/// Why an upload is refused; `MediaAPI` answers each with its status (`MediaRefusal+HTTP`).
enum MediaRefusal: Error, Equatable {
    /// No `Content-Type`, or one the API does not take.
    case unsupportedType
    /// Larger than the kind's limit (bytes).
    case tooLarge(MediaKind)
    /// A picture of more than `MediaProcessing.maxPixels`.
    case tooManyPixels
    /// The bytes are not of the announced kind, or of no format w-diet takes.
    case notOfKind(MediaKind)
    /// A photo the tools could not read.
    case undecodable
    /// The id is the user's already, with other bytes.
    case conflict
    /// The vips tools are not installed.
    case processingUnavailable
    /// Processing the photo took too long (a busy server).
    case processingTimedOut
    case empty
}

/// Uploading a photo or a recording (`PUT /api/v1/media/{id}`): the type checked by its bytes, a photo re-encoded
/// without metadata (`MediaProcessing`), a recording kept as recorded, the same id with the same bytes answered as
/// the first time (a retry), with other bytes refused.
struct MediaUpload: Sendable {
    let store: any MediaStore
    let processing: MediaProcessing

    /// At most 30 MiB for a photo (a 48-megapixel HEIC or a large PNG), 25 MiB for a recording (over an hour of
    /// speech in AAC or Opus).
    static let maxPhotoBytes = 30 * 1_024 * 1_024
    static let maxAudioBytes = 25 * 1_024 * 1_024

    static func maxBytes(_ kind: MediaKind) -> Int { kind == .photo ? maxPhotoBytes : maxAudioBytes }

    /// The upload's SHA-256, lowercase hex.
    static func digest(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    /// Stores `upload` under `id` for the user: `created` false when the user had it already (the same bytes).
    func upload(
        _ upload: Data, announcedKind: MediaKind, id: UUID, userId: UUID, logger: Logger
    ) async throws -> (media: StoredMedia, created: Bool) {
        guard !upload.isEmpty else { throw MediaRefusal.empty }
        guard upload.count <= Self.maxBytes(announcedKind) else { throw MediaRefusal.tooLarge(announcedKind) }
        let digest = Self.digest(upload)
        // A retry needs no second decode.
        if let existing = try await store.media(id: id, userId: userId) {
            guard existing.uploadDigest == digest else { throw MediaRefusal.conflict }
            return (existing, false)
        }
        guard let format = MediaFormat.sniff(upload), format.kind == announcedKind else {
            throw MediaRefusal.notOfKind(announcedKind)
        }
        let media = try await newMedia(id: id, format: format, data: upload, digest: digest) { data throws(MediaProcessing.Failure) in
            try await processing.processPhoto(data, logger: logger)
        }
        switch try await store.saveMedia(media, userId: userId) {
        case .created(let stored):
            return (stored, true)
        case .existing(let stored):
            // Another upload of the id finished first.
            guard stored.uploadDigest == digest else { throw MediaRefusal.conflict }
            return (stored, false)
        }
    }
}

extension MediaUpload {
    /// What is stored for `data` of `format`: a photo as `photo` makes it (a display JPEG and a thumbnail), a
    /// recording as recorded. A processing failure becomes the refusal the person is told.
    func newMedia(
        id: UUID, format: MediaFormat, data: Data, digest: String,
        photo: (Data) async throws(MediaProcessing.Failure) -> MediaProcessing.Photo
    ) async throws(MediaRefusal) -> NewMedia {
        switch format.kind {
        case .photo:
            let processed: MediaProcessing.Photo
            do {
                processed = try await photo(data)
            } catch {
                switch error {
                case .toolsMissing: throw .processingUnavailable
                case .undecodable: throw .undecodable
                case .tooManyPixels: throw .tooManyPixels
                case .timedOut: throw .processingTimedOut
                }
            }
            return NewMedia(
                id: id, kind: .photo, contentType: "image/jpeg", data: processed.display, thumbnail: processed.thumbnail,
                width: processed.width, height: processed.height, uploadDigest: digest)
        case .audio:
            return NewMedia(
                id: id, kind: .audio, contentType: format.contentType, data: data, thumbnail: nil, width: nil, height: nil,
                uploadDigest: digest)
        }
    }
}
