import Foundation
import GRDB
import WDietStore

/// `MediaStore` on SQLite: the media database beside the main file (`MediaDatabase`).
///
/// Unlike the coach's stores, reads and writes take GRDB's asynchronous path (its own dispatch queues): a photo's
/// write takes milliseconds and uploads may queue for the media writer, and a Swift cooperative thread blocked there
/// would be one of the two that meal saves need.
public struct SQLiteMediaStore: MediaStore {
    let slot: MediaDatabaseSlot
    /// The main database: its rows say which items are named (`sweepUnreferencedMedia`).
    let main: AppDatabase
    let now: @Sendable () -> Date

    /// The media of `database` (its media file, opened on first use); `now` stamps `createdAt`.
    public init(database: AppDatabase, now: @escaping @Sendable () -> Date = Date.init) {
        slot = database.media
        main = database
        self.now = now
    }

    static let columns = "id, userId, kind, contentType, bytes, thumbnailBytes, width, height, uploadDigest, createdAt"

    public func saveMedia(_ media: NewMedia, userId: UUID) async throws -> MediaSaveOutcome {
        let createdAt = WireFormat.instantText(now())
        return try await write { db in
            if let existing = try Self.media(db, id: media.id, userId: userId) { return .existing(existing) }
            try db.execute(
                sql: """
                    INSERT INTO media (userId, id, kind, contentType, bytes, thumbnailBytes, width, height, uploadDigest,
                        createdAt, unreferencedSince, data, thumbnail)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    WireFormat.idText(userId), WireFormat.idText(media.id), media.kind.rawValue, media.contentType,
                    media.data.count, media.thumbnail?.count, media.width, media.height, media.uploadDigest, createdAt,
                    // No row names an upload yet: the sweep deletes it a grace period later unless one does.
                    createdAt, media.data, media.thumbnail,
                ])
            guard let stored = try Self.media(db, id: media.id, userId: userId) else {
                throw StoreError.unavailable("The media item was not stored")
            }
            return .created(stored)
        }
    }

    public func media(id: UUID, userId: UUID) async throws -> StoredMedia? {
        try await read { db in try Self.media(db, id: id, userId: userId) }
    }

    public func mediaContent(id: UUID, userId: UUID, variant: MediaVariant) async throws -> Data? {
        let column = variant == .display ? "data" : "thumbnail"
        return try await read { db in
            try Data.fetchOne(
                db, sql: "SELECT \(column) FROM media WHERE userId = ? AND id = ?",
                arguments: [WireFormat.idText(userId), WireFormat.idText(id)])
        }
    }

    public func deleteMedia(id: UUID, userId: UUID) async throws -> Bool {
        try await write { db in
            try db.execute(
                sql: "DELETE FROM media WHERE userId = ? AND id = ?", arguments: [WireFormat.idText(userId), WireFormat.idText(id)])
            return db.changesCount > 0
        }
    }

    public func allMedia(userId: UUID) async throws -> [StoredMedia] {
        try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT \(Self.columns) FROM media WHERE userId = ? ORDER BY createdAt, id",
                arguments: [WireFormat.idText(userId)]
            ).map(Self.stored)
        }
    }

    @discardableResult
    public func deleteAllMedia(userId: UUID) async throws -> Int {
        let deleted = try await write { db in
            try db.execute(sql: "DELETE FROM media WHERE userId = ?", arguments: [WireFormat.idText(userId)])
            return db.changesCount
        }
        // An erasure: the photos' pages out of the WAL too (`secure_delete` zeroed them in the file).
        if deleted > 0 { _ = await AppDatabase.truncateWriteAheadLog(try slot.database().writer) }
        return deleted
    }

    static func media(_ db: Database, id: UUID, userId: UUID) throws -> StoredMedia? {
        try Row.fetchOne(
            db, sql: "SELECT \(columns) FROM media WHERE userId = ? AND id = ?",
            arguments: [WireFormat.idText(userId), WireFormat.idText(id)]
        ).map(stored)
    }

    static func stored(_ row: Row) throws -> StoredMedia {
        guard let id = WireFormat.uuid(row["id"]), let userId = WireFormat.uuid(row["userId"]),
            let kind = MediaKind(rawValue: row["kind"]), let createdAt = WireFormat.instant(from: row["createdAt"])
        else { throw StoreError.unavailable("A stored media item could not be read") }
        return StoredMedia(
            id: id, userId: userId, kind: kind, contentType: row["contentType"], bytes: row["bytes"],
            thumbnailBytes: row["thumbnailBytes"], width: row["width"], height: row["height"],
            uploadDigest: row["uploadDigest"], createdAt: createdAt)
    }

    private func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await slot.database().writer.read(value)
        } catch {
            throw AppDatabase.storeError(from: error)
        }
    }

    private func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await slot.database().writer.write(updates)
        } catch {
            throw AppDatabase.storeError(from: error)
        }
    }
}

extension SQLiteMediaStore {
    /// Deletes the media of users the main database no longer has: an account deleted while its media were not
    /// (the process died between the two, or the media file failed). The server runs it at start; answers how many
    /// items went. It opens no media file that is not there.
    public func deleteMediaOfMissingUsers(in main: AppDatabase) async throws -> Int {
        guard let media = try slot.databaseIfPresent() else { return 0 }
        do {
            let owners = try await media.writer.read { db in try String.fetchAll(db, sql: "SELECT DISTINCT userId FROM media") }
            let missing = try owners.filter { owner in
                try main.writer.read { db in
                    try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM users WHERE id = ?)", arguments: [owner]) != true
                }
            }
            guard !missing.isEmpty else { return 0 }
            return try await media.writer.write { db in
                var deleted = 0
                for owner in missing {
                    try db.execute(sql: "DELETE FROM media WHERE userId = ?", arguments: [owner])
                    deleted += db.changesCount
                }
                return deleted
            }
        } catch {
            throw AppDatabase.storeError(from: error)
        }
    }
}

extension SQLiteMediaStore: UnreferencedMediaStore {
    public func sweepUnreferencedMedia(after cursor: MediaSweepCursor?, now: Date, limit: Int) async throws -> MediaSweepBatch {
        guard let media = try slot.databaseIfPresent() else { return MediaSweepBatch() }
        let stamp = WireFormat.instantText(now)
        let due = WireFormat.instantText(now.addingTimeInterval(-MediaRetention.grace))
        let deletedAfter = WireFormat.instantText(now.addingTimeInterval(-MediaRetention.deletedRowNames))
        do {
            // The batch, from the media file.
            let items = try await media.writer.read { db in
                try Row.fetchAll(
                    db, sql: """
                        SELECT userId, id, unreferencedSince FROM media
                        WHERE ? IS NULL OR (userId, id) > (?, ?) ORDER BY userId, id LIMIT ?
                        """,
                    arguments: [cursor == nil ? nil : 1, cursor.map { WireFormat.idText($0.userId) }, cursor.map { WireFormat.idText($0.id) }, limit]
                ).map { row -> (userId: String, id: String, since: String?) in (row["userId"], row["id"], row["unreferencedSince"]) }
            }
            guard let lastItem = items.last else { return MediaSweepBatch() }
            // What the batch's users' rows name, from the main file (ids as lowercase text, as the media file keeps them).
            let users = Array(Set(items.map(\.userId)))
            let named: Set<String> = try await main.writer.read { db in
                var named = Set<String>()
                for user in users {
                    let ids = try String.fetchAll(
                        db, sql: """
                            SELECT lower(j.value) FROM syncRows r, json_each(r.data, '$.mediaIds') j
                            WHERE r.userId = ? AND r.collection = 'journal' AND (r.deletedAt IS NULL OR r.deletedAt >= ?)
                                AND j.type = 'text'
                            UNION
                            SELECT lower(json_extract(r.data, '$.mediaId')) FROM syncRows r
                            WHERE r.userId = ? AND r.collection = 'challenge_photo' AND (r.deletedAt IS NULL OR r.deletedAt >= ?)
                                AND json_type(r.data, '$.mediaId') = 'text'
                            """,
                        arguments: [user, deletedAfter, user, deletedAfter])
                    named.formUnion(ids.map { user + "/" + $0 })
                }
                return named
            }
            var batch = try await media.writer.write { db -> MediaSweepBatch in
                var batch = MediaSweepBatch(examined: items.count)
                for item in items {
                    if named.contains(item.userId + "/" + item.id) {
                        guard item.since != nil else { continue }
                        try db.execute(
                            sql: "UPDATE media SET unreferencedSince = NULL WHERE userId = ? AND id = ? AND unreferencedSince IS NOT NULL",
                            arguments: [item.userId, item.id])
                        batch.unmarked += db.changesCount
                    } else if let since = item.since {
                        guard since <= due else { continue }
                        // Only if still marked as read (another process may have found it named meanwhile).
                        try db.execute(
                            sql: "DELETE FROM media WHERE userId = ? AND id = ? AND unreferencedSince <= ?",
                            arguments: [item.userId, item.id, due])
                        batch.deleted += db.changesCount
                    } else {
                        try db.execute(
                            sql: "UPDATE media SET unreferencedSince = ? WHERE userId = ? AND id = ? AND unreferencedSince IS NULL",
                            arguments: [stamp, item.userId, item.id])
                        batch.marked += db.changesCount
                    }
                }
                return batch
            }
            if let userId = WireFormat.uuid(lastItem.userId), let id = WireFormat.uuid(lastItem.id) {
                batch.last = MediaSweepCursor(userId: userId, id: id)
            }
            return batch
        } catch {
            throw AppDatabase.storeError(from: error)
        }
    }
}
