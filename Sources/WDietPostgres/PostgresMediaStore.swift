import Foundation
import PostgresNIO
import WDietStore

/// `MediaStore` on PostgreSQL: the `media` table (`PostgresMediaSchema`), keyed by (user, id).
public struct PostgresMediaStore: MediaStore {
    let access: PostgresStoreAccess
    let now: @Sendable () -> Date

    /// `now` stamps `created_at`; tests pass a fixed clock.
    public init(client: PostgresClient, now: @escaping @Sendable () -> Date = Date.init) {
        access = PostgresStoreAccess(client: client, label: "wdiet.postgres.media")
        self.now = now
    }

    static let columns = "id, user_id, kind, content_type, bytes, thumbnail_bytes, width, height, upload_digest, created_at"
    typealias Row = (UUID, UUID, String, String, Int32, Int32?, Int32?, Int32?, String, PostgresInstant)

    public func saveMedia(_ media: NewMedia, userId: UUID) async throws -> MediaSaveOutcome {
        let createdAt = PostgresInstant(now())
        let width = media.width.map(Int32.init)
        let height = media.height.map(Int32.init)
        let thumbnailBytes = media.thumbnail.map { Int32($0.count) }
        return try await access.run { client in
            // One statement: a second save of the id (a retry racing the first) inserts nothing and reads the first.
            let inserted = try await client.query("""
                INSERT INTO media (user_id, id, kind, content_type, bytes, thumbnail_bytes, width, height, upload_digest,
                    created_at, data, thumbnail)
                VALUES (\(userId), \(media.id), \(media.kind.rawValue), \(media.contentType), \(Int32(media.data.count)),
                    \(thumbnailBytes), \(width), \(height), \(media.uploadDigest), \(createdAt), \(media.data), \(media.thumbnail))
                ON CONFLICT (user_id, id) DO NOTHING
                RETURNING \(unescaped: Self.columns)
                """, logger: access.logger)
            var created: StoredMedia?
            for try await row in inserted.decode(Row.self) { created = try Self.stored(row) }
            if let created { return .created(created) }
            guard let existing = try await Self.media(client, id: media.id, userId: userId, logger: access.logger) else {
                throw StoreError.unavailable("The media item was not stored")
            }
            return .existing(existing)
        }
    }

    public func media(id: UUID, userId: UUID) async throws -> StoredMedia? {
        try await access.run { client in try await Self.media(client, id: id, userId: userId, logger: access.logger) }
    }

    public func mediaContent(id: UUID, userId: UUID, variant: MediaVariant) async throws -> Data? {
        try await access.run { client in
            let rows = variant == .display
                ? try await client.query("SELECT data FROM media WHERE user_id = \(userId) AND id = \(id)", logger: access.logger)
                : try await client.query("SELECT thumbnail FROM media WHERE user_id = \(userId) AND id = \(id)", logger: access.logger)
            var found: Data?
            for try await data in rows.decode(Data?.self) { found = data }
            return found
        }
    }

    public func deleteMedia(id: UUID, userId: UUID) async throws -> Bool {
        try await access.run { client in
            let rows = try await client.query(
                "DELETE FROM media WHERE user_id = \(userId) AND id = \(id) RETURNING 1", logger: access.logger)
            var deleted = false
            for try await _ in rows.decode(Int32.self) { deleted = true }
            return deleted
        }
    }

    public func allMedia(userId: UUID) async throws -> [StoredMedia] {
        try await access.run { client in
            let rows = try await client.query(
                "SELECT \(unescaped: Self.columns) FROM media WHERE user_id = \(userId) ORDER BY created_at, id",
                logger: access.logger)
            var all: [StoredMedia] = []
            for try await row in rows.decode(Row.self) { all.append(try Self.stored(row)) }
            return all
        }
    }

    @discardableResult
    public func deleteAllMedia(userId: UUID) async throws -> Int {
        try await access.run { client in
            let rows = try await client.query("DELETE FROM media WHERE user_id = \(userId) RETURNING 1", logger: access.logger)
            var count = 0
            for try await _ in rows.decode(Int32.self) { count += 1 }
            return count
        }
    }

    static func media(_ client: PostgresClient, id: UUID, userId: UUID, logger: Logger) async throws -> StoredMedia? {
        let rows = try await client.query(
            "SELECT \(unescaped: columns) FROM media WHERE user_id = \(userId) AND id = \(id)", logger: logger)
        var found: StoredMedia?
        for try await row in rows.decode(Row.self) { found = try stored(row) }
        return found
    }

    static func stored(_ row: Row) throws -> StoredMedia {
        guard let kind = MediaKind(rawValue: row.2) else { throw StoreError.unavailable("A stored media item could not be read") }
        return StoredMedia(
            id: row.0, userId: row.1, kind: kind, contentType: row.3, bytes: Int(row.4), thumbnailBytes: row.5.map(Int.init),
            width: row.6.map(Int.init), height: row.7.map(Int.init), uploadDigest: row.8, createdAt: row.9.date)
    }
}
