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

/// Media that no row names any more (docs/media.md "Media no row names"): a journal entry deleted for good, a
/// challenge photo replaced, an upload never saved with a row. `wdiet serve`'s sweep (`DeletedRowSweeper`) deletes
/// them after a grace period.
public enum MediaRetention {
    /// An item no row names is deleted this long after the sweep first found it so (or after its upload, when no row
    /// ever named it): 7 days, time for a client that uploads first and saves the row later (offline for a week), and
    /// for an entry that is edited to drop a photo and then put back.
    public static let grace: TimeInterval = 7 * 86_400
    /// A deleted row names its media as long as it can come back (an undo, a late push): `DeletedRows.retention`
    /// (30 days) after its deletion. Then its content is scrubbed (or would be), and it names nothing.
    public static let deletedRowNames: TimeInterval = DeletedRows.retention
    /// Items examined per transaction.
    public static let batchSize = 500
    /// The collections whose rows name media: a journal entry's `mediaIds`, a challenge photo's `mediaId`.
    public static let namingCollections = ["journal", "challenge_photo"]
}

/// Where a sweep of the media store goes on: items are examined in (user, id) order.
public struct MediaSweepCursor: Equatable, Sendable {
    public var userId: UUID
    public var id: UUID

    public init(userId: UUID, id: UUID) {
        self.userId = userId
        self.id = id
    }
}

/// What one batch of the media sweep did.
public struct MediaSweepBatch: Equatable, Sendable {
    /// Items examined (at most the limit; fewer: the sweep reached the end).
    public var examined: Int
    /// Items no row names that were not marked before: marked now, deleted after `MediaRetention.grace`.
    public var marked: Int
    /// Marked items that a row names again: unmarked.
    public var unmarked: Int
    /// Items no row has named for the grace period: deleted.
    public var deleted: Int
    /// The last item examined: where the next batch starts.
    public var last: MediaSweepCursor?

    public init(examined: Int = 0, marked: Int = 0, unmarked: Int = 0, deleted: Int = 0, last: MediaSweepCursor? = nil) {
        self.examined = examined
        self.marked = marked
        self.unmarked = unmarked
        self.deleted = deleted
        self.last = last
    }
}

/// The sweep of media no row names, across all users (a maintenance task of `wdiet serve`).
public protocol UnreferencedMediaStore: Sendable {
    /// One bounded batch: at most `limit` items after `cursor` (from the start when nil), in (user, id) order. An item
    /// is named when one of its user's rows of `MediaRetention.namingCollections` names it and is live or was deleted
    /// less than `MediaRetention.deletedRowNames` before `now`. A named item is unmarked; an item no row names is
    /// marked `now` unless it is marked already (an upload is marked at its upload); one marked at or before
    /// `now − MediaRetention.grace` is deleted. Idempotent, and safe with several processes at once.
    func sweepUnreferencedMedia(after cursor: MediaSweepCursor?, now: Date, limit: Int) async throws -> MediaSweepBatch
}
