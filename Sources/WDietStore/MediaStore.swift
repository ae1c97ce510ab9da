import Foundation

/// What a media item is: a photo (stored as re-encoded JPEGs, a display size and a thumbnail) or a recording (kept as
/// recorded).
public enum MediaKind: String, Sendable, Codable, CaseIterable {
    case photo
    case audio
}

/// Which bytes of a media item: the photo at display size or the recording as recorded; or a photo's thumbnail.
public enum MediaVariant: String, Sendable, CaseIterable {
    case display
    case thumbnail
}

/// A processed upload, ready to store: the bytes the owner will be served (never the bytes as uploaded, for a
/// photo) and the SHA-256 of the upload, which says whether a second upload under the same id is the same one.
public struct NewMedia: Sendable, Equatable {
    public var id: UUID
    public var kind: MediaKind
    /// The type of `data`: `image/jpeg` for a photo, the sniffed type of a recording.
    public var contentType: String
    public var data: Data
    /// A photo's thumbnail (JPEG); nil for a recording.
    public var thumbnail: Data?
    /// A photo's display size in pixels, after its orientation was applied; nil for a recording.
    public var width: Int?
    public var height: Int?
    /// SHA-256 of the bytes as uploaded, lowercase hex.
    public var uploadDigest: String

    public init(
        id: UUID, kind: MediaKind, contentType: String, data: Data, thumbnail: Data?, width: Int?, height: Int?,
        uploadDigest: String
    ) {
        self.id = id
        self.kind = kind
        self.contentType = contentType
        self.data = data
        self.thumbnail = thumbnail
        self.width = width
        self.height = height
        self.uploadDigest = uploadDigest
    }
}

/// A stored media item without its bytes.
public struct StoredMedia: Sendable, Equatable {
    public var id: UUID
    public var userId: UUID
    public var kind: MediaKind
    public var contentType: String
    /// The size of the display bytes (a photo's display JPEG, a recording as recorded).
    public var bytes: Int
    /// The size of a photo's thumbnail; nil for a recording.
    public var thumbnailBytes: Int?
    public var width: Int?
    public var height: Int?
    public var uploadDigest: String
    public var createdAt: Date

    public init(
        id: UUID, userId: UUID, kind: MediaKind, contentType: String, bytes: Int, thumbnailBytes: Int?, width: Int?,
        height: Int?, uploadDigest: String, createdAt: Date
    ) {
        self.id = id
        self.userId = userId
        self.kind = kind
        self.contentType = contentType
        self.bytes = bytes
        self.thumbnailBytes = thumbnailBytes
        self.width = width
        self.height = height
        self.uploadDigest = uploadDigest
        self.createdAt = createdAt
    }
}

/// What `saveMedia` did: stored the item, or found one of the user's under that id already and changed nothing
/// (the caller compares `uploadDigest` to tell a retry from a different upload).
public enum MediaSaveOutcome: Sendable, Equatable {
    case created(StoredMedia)
    case existing(StoredMedia)

    public var media: StoredMedia {
        switch self {
        case .created(let media), .existing(let media): media
        }
    }
}

/// Photos and recordings of a user (the Journal's now; the Challenge's weekly photos and the label scan next), kept
/// apart from the coach's rows so that a burst of uploads does not slow meal saves (docs/media.md): on SQLite in a
/// database file of its own beside the main one, on PostgreSQL in its own table. Every read and write is scoped to
/// the user: another user's id is simply not there. Items are not synced and have no versions; a delete is a hard
/// delete (the bytes are what a person asks to be gone).
public protocol MediaStore: Sendable {
    /// Stores `media` for the user unless the user already has an item with its id; then answers that one,
    /// unchanged. Two saves of one id at once store one of them.
    func saveMedia(_ media: NewMedia, userId: UUID) async throws -> MediaSaveOutcome
    /// The user's item with this id, or nil.
    func media(id: UUID, userId: UUID) async throws -> StoredMedia?
    /// The bytes of the user's item with this id, or nil (no such item; a recording has no thumbnail).
    func mediaContent(id: UUID, userId: UUID, variant: MediaVariant) async throws -> Data?
    /// Deletes the user's item; false when there was none.
    func deleteMedia(id: UUID, userId: UUID) async throws -> Bool
    /// Every item of the user, oldest first (the export).
    func allMedia(userId: UUID) async throws -> [StoredMedia]
    /// Deletes every item of the user (account deletion); answers how many.
    @discardableResult
    func deleteAllMedia(userId: UUID) async throws -> Int
}
