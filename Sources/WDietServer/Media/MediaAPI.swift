import Foundation
import Hummingbird
import Logging
import WDietSQLite
import WDietCore
import WDietStore

/// The signed-in user's photos and recordings (docs/media.md):
///
/// - `PUT /media/{id}` — the raw bytes (`Content-Type` image/jpeg|png|webp|heic|heif or
///   audio/mp4|aac|mpeg|webm|ogg|wav), under an id the client made → 201 with `MediaJSON`; 200 when the user has
///   the id with the same bytes already (a retry); 409 with other bytes; 413 over the size limit; 415 for another
///   type, bytes that are not of the announced kind, or a photo that cannot be read; 503 without libvips' tools.
/// - `GET /media/{id}` — a photo's display JPEG or the recording as recorded; `?size=thumb` a photo's thumbnail.
/// - `DELETE /media/{id}` → 204.
///
/// Another user's id is 404, as an unknown one is; every answer is `Cache-Control: private, no-store`.
struct MediaAPI: Sendable {
    let services: AppServices

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.put("media/{id}", use: upload)
        group.get("media/{id}", use: read)
        group.delete("media/{id}", use: delete)
    }

    static let cacheControl = "private, no-store"

    /// The thread an upload's own work runs on, at nice 10 (`BackgroundPriority`): gathering the body into one
    /// buffer, its SHA-256, the private copy for vips, starting the tools and reading what they made — about 25 ms of CPU
    /// for a 12-megapixel photo, in pieces of several ms that on the threads running the request handlers (Swift's
    /// cooperative pool, two threads on two cores; or the event loops with `--executor event-loops`) would hold up
    /// the handlers queued behind them, meal saves among them. One
    /// thread: the work waits for vips most of the time, and photos are processed one at a time anyway
    /// (`MediaProcessing.slots`). The tools it starts inherit its nice 10 (`MediaProcessing.launcher`).
    static let threads = BackgroundThreads(count: 1, priority: BackgroundPriority(niceness: 10, idleFirst: true), name: "media-upload") // catalog-exempt: a thread name

    @Sendable func upload(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        do {
            let id = try APIInput.uuid(path: "id", of: context)
            guard let kind = MediaFormat.announcedKind(request.headers[.contentType]) else { throw MediaRefusal.unsupportedType }
            let body = request.body
            let upload = MediaUpload(store: services.media, processing: services.mediaProcessing)
            let (userId, logger) = (context.userId, context.logger)
            let (media, created) = try await Self.threads.run {
                let buffer: ByteBuffer
                do {
                    buffer = try await body.collect(upTo: MediaUpload.maxBytes(kind))
                } catch {
                    throw MediaRefusal.tooLarge(kind)
                }
                return try await upload.upload(Data(buffer: buffer), announcedKind: kind, id: id, userId: userId, logger: logger)
            }
            var response = try MediaJSON(media).response(from: request, context: context)
            response.status = created ? .created : .ok
            response.headers[.cacheControl] = Self.cacheControl
            if created { response.headers[.location] = "/api/v1/media/\(media.id.apiText)" }
            return response
        } catch let refusal as MediaRefusal {
            throw APIError(refusal)
        } catch var error as APIError {
            error.headers[.cacheControl] = Self.cacheControl
            throw error
        }
    }

    @Sendable func read(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try APIInput.uuid(path: "id", of: context)
        let variant: MediaVariant
        switch request.uri.queryParameters.get("size") {
        case nil: variant = .display
        case "thumb": variant = .thumbnail
        default:
            throw APIError.badRequest(Strings.current("media.sizeInvalid"), fields: ["size": Strings.current("media.sizeExpected")])
        }
        guard let media = try await services.media.media(id: id, userId: context.userId),
            let data = try await services.media.mediaContent(id: id, userId: context.userId, variant: variant)
        else { throw APIError.mediaNotFound }
        return Response(
            status: .ok,
            headers: [
                .contentType: variant == .thumbnail ? "image/jpeg" : media.contentType,
                .cacheControl: Self.cacheControl,
                .contentDisposition: "inline",
            ],
            body: .init(byteBuffer: ByteBuffer(data: data)))
    }

    @Sendable func delete(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try APIInput.uuid(path: "id", of: context)
        guard try await services.media.deleteMedia(id: id, userId: context.userId) else { throw APIError.mediaNotFound }
        return Response(status: .noContent, headers: [.cacheControl: Self.cacheControl])
    }
}

/// A stored photo or recording as the API answers it: `{"id","kind","contentType","bytes","width","height",
/// "createdAt"}`, width and height null for a recording.
struct MediaJSON: ResponseEncodable, Sendable, Equatable {
    var id: String
    var kind: MediaKind
    var contentType: String
    var bytes: Int
    var width: Int?
    var height: Int?
    var createdAt: Date

    init(_ media: StoredMedia) {
        id = media.id.apiText
        kind = media.kind
        contentType = media.contentType
        bytes = media.bytes
        width = media.width
        height = media.height
        createdAt = media.createdAt
    }

    enum CodingKeys: String, CodingKey { case id, kind, contentType, bytes, width, height, createdAt }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(kind, forKey: .kind)
        try container.encode(contentType, forKey: .contentType)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(createdAt, forKey: .createdAt)
    }
}

extension APIError {
    static var mediaNotFound: APIError {
        APIError(.notFound, code: "not_found", message: Strings.current("media.notFound"), headers: [.cacheControl: MediaAPI.cacheControl])
    }

    /// What each refused upload answers.
    init(_ refusal: MediaRefusal) {
        let strings = Strings.current
        switch refusal {
        case .unsupportedType:
            self.init(.unsupportedMediaType, code: "unsupported_media_type", message: strings("media.unsupportedType"))
        case .tooLarge(let kind):
            let limit = MediaUpload.maxBytes(kind) / (1_024 * 1_024)
            self.init(
                .contentTooLarge, code: "too_large",
                message: strings(kind == .photo ? "media.photoTooLarge" : "media.audioTooLarge", ["megabytes": "\(limit)"]))
        case .tooManyPixels:
            self.init(.contentTooLarge, code: "too_many_pixels", message: strings("media.tooManyPixels"))
        case .notOfKind(let kind):
            self.init(
                .unsupportedMediaType, code: kind == .photo ? "not_an_image" : "not_audio",
                message: strings(kind == .photo ? "media.notAnImage" : "media.notAudio"))
        case .undecodable:
            self.init(.unsupportedMediaType, code: "image_undecodable", message: strings("media.undecodable"))
        case .conflict:
            self.init(.conflict, code: "media_conflict", message: strings("media.conflict"))
        case .processingUnavailable:
            self.init(.serviceUnavailable, code: "media_processing_unavailable", message: strings("media.processingUnavailable"))
        case .processingTimedOut:
            self.init(.serviceUnavailable, code: "media_processing_busy", message: strings("media.processingTimedOut"), headers: [.retryAfter: "10"])
        case .empty:
            self.init(.badRequest, code: "bad_request", message: strings("media.empty"))
        }
        headers[.cacheControl] = MediaAPI.cacheControl
    }
}

/// SQLite at start: media whose account is gone (deleted while its media were not: docs/media.md) are deleted.
func deleteMediaOfDeletedAccounts(_ database: AppDatabase, logger: Logger) async {
    do {
        let deleted = try await SQLiteMediaStore(database: database).deleteMediaOfMissingUsers(in: database)
        if deleted > 0 { logger.info("Media of deleted accounts deleted", metadata: ["items": "\(deleted)"]) }
    } catch {
        logger.warning("Media of deleted accounts could not be checked", metadata: ["error": "\(String(reflecting: error))"])
    }
}
