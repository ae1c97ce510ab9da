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
                    created_at, unreferenced_since, data, thumbnail)
                VALUES (\(userId), \(media.id), \(media.kind.rawValue), \(media.contentType), \(Int32(media.data.count)),
                    \(thumbnailBytes), \(width), \(height), \(media.uploadDigest), \(createdAt), \(createdAt), \(media.data),
                    \(media.thumbnail))
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

extension PostgresMediaStore: UnreferencedMediaStore {
    /// One statement: the batch is taken `FOR UPDATE SKIP LOCKED` (another process sweeping at once skips these
    /// items and takes the next), judged against its users' rows, and its items unmarked, marked or deleted.
    public func sweepUnreferencedMedia(after cursor: MediaSweepCursor?, now: Date, limit: Int) async throws -> MediaSweepBatch {
        let stamp = PostgresInstant(now)
        let due = PostgresInstant(now.addingTimeInterval(-MediaRetention.grace))
        let deletedAfter = PostgresInstant(now.addingTimeInterval(-MediaRetention.deletedRowNames))
        let limit = Int64(max(0, limit))
        // The zero UUID sorts first: a sweep from the start.
        let startUser = cursor?.userId ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        let startId = cursor?.id ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        let from = cursor == nil ? "(user_id, id) >= " : "(user_id, id) > "
        return try await access.run { client in
            let rows = try await client.query("""
                WITH batch AS (
                    SELECT user_id, id, unreferenced_since FROM media
                    WHERE \(unescaped: from) (\(startUser), \(startId))
                    ORDER BY user_id, id LIMIT \(limit) FOR UPDATE SKIP LOCKED
                ), named AS (
                    SELECT r.user_id, lower(x.value) AS id FROM sync_rows r
                        CROSS JOIN LATERAL jsonb_array_elements_text(CASE WHEN jsonb_typeof(r.data::jsonb -> 'mediaIds') = 'array'
                            THEN r.data::jsonb -> 'mediaIds' ELSE '[]'::jsonb END) AS x(value)
                    WHERE r.user_id IN (SELECT user_id FROM batch) AND r.collection = 'journal'
                        AND (r.deleted_at IS NULL OR r.deleted_at >= \(deletedAfter))
                    UNION
                    SELECT r.user_id, lower(r.data::jsonb ->> 'mediaId') FROM sync_rows r
                    WHERE r.user_id IN (SELECT user_id FROM batch) AND r.collection = 'challenge_photo'
                        AND (r.deleted_at IS NULL OR r.deleted_at >= \(deletedAfter))
                        AND jsonb_typeof(r.data::jsonb -> 'mediaId') = 'string'
                ), judged AS (
                    SELECT b.user_id, b.id, b.unreferenced_since,
                        EXISTS (SELECT 1 FROM named n WHERE n.user_id = b.user_id AND n.id = b.id::text) AS named
                    FROM batch b
                ), unmarked AS (
                    UPDATE media m SET unreferenced_since = NULL FROM judged j
                    WHERE m.user_id = j.user_id AND m.id = j.id AND j.named AND j.unreferenced_since IS NOT NULL
                    RETURNING 1
                ), marked AS (
                    UPDATE media m SET unreferenced_since = \(stamp) FROM judged j
                    WHERE m.user_id = j.user_id AND m.id = j.id AND NOT j.named AND j.unreferenced_since IS NULL
                    RETURNING 1
                ), deleted AS (
                    DELETE FROM media m USING judged j
                    WHERE m.user_id = j.user_id AND m.id = j.id AND NOT j.named AND j.unreferenced_since <= \(due)
                    RETURNING 1
                ), last AS (
                    SELECT user_id, id FROM batch ORDER BY user_id DESC, id DESC LIMIT 1
                )
                SELECT (SELECT count(*) FROM batch), (SELECT count(*) FROM marked), (SELECT count(*) FROM unmarked),
                    (SELECT count(*) FROM deleted), (SELECT user_id FROM last), (SELECT id FROM last)
                """, logger: access.logger)
            var batch = MediaSweepBatch()
            for try await (examined, marked, unmarked, deleted, lastUser, lastId) in rows.decode((Int64, Int64, Int64, Int64, UUID?, UUID?).self) {
                batch = MediaSweepBatch(
                    examined: Int(examined), marked: Int(marked), unmarked: Int(unmarked), deleted: Int(deleted),
                    last: lastUser.flatMap { user in lastId.map { MediaSweepCursor(userId: user, id: $0) } })
            }
            return batch
        }
    }
}
