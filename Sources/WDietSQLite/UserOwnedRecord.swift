import Foundation
import GRDB
import WDietStore

/// A row that belongs to one user and syncs: meals, weights and profiles share their write rules through this.
/// The stored columns are spelled as `AppDatabase+CoachColumns` describes.
protocol UserOwnedRecord: Codable, Equatable, FetchableRecord, PersistableRecord, Sendable {
    /// How messages name the row: "Meal not found".
    static var displayName: String { get }

    var id: String { get }
    var userId: String { get }
    var createdAt: String { get set }
    var updatedAt: String { get set }
    var version: Int64 { get set }
    var deletedAt: String? { get set }

    /// Inserts this row. GRDB's `insert` by default; a record written on every request overrides it with a cached
    /// statement (`insert` encodes the record through `Encodable` and spells its SQL anew on every call).
    func insertRow(_ db: Database) throws
    /// Writes every column of this row over the stored one; GRDB's `update` by default, a cached statement for
    /// the rows a sync push edits by the thousand (meals, weights).
    func updateRow(_ db: Database) throws
}

extension UserOwnedRecord {
    func insertRow(_ db: Database) throws {
        try insert(db)
    }

    func updateRow(_ db: Database) throws {
        try update(db)
    }
}

extension UserOwnedRecord {
    /// Inserts the record, or updates the same user's record with its id, under a new version.
    static func save(_ record: Self, in db: Database, now: String) throws -> Self {
        let existing = try fetchOne(db, id: record.id)
        if let existing {
            // Another user's id is refused without touching or revealing that row.
            guard existing.userId == record.userId else { throw StoreError.conflict("This id is already in use") }
            // A deleted row stays deleted: an edit made offline does not bring back what another device removed.
            guard existing.deletedAt == nil else { throw StoreError.notFound("\(displayName) not found") }
        }
        return try write(record, over: existing, in: db, now: now)
    }

    /// The row with this id, whoever's it is, through a cached statement: `fetchOne(db, key:)` builds and
    /// authorizes its SQL anew on every call, which showed in profiles of meal saves.
    static func fetchOne(_ db: Database, id: String) throws -> Self? {
        let statement = try db.cachedStatement(sql: "SELECT * FROM \(databaseTableName) WHERE id = ?")
        return try fetchOne(statement, arguments: [id])
    }

    /// Writes `record` in place of `existing` (the same row, already checked to be the user's) or as a new row.
    /// An identical write keeps the stored row and its version, so a retried upload is not a change.
    static func write(_ record: Self, over existing: Self?, in db: Database, now: String) throws -> Self {
        var record = record
        record.deletedAt = nil
        guard let existing else {
            record.createdAt = now
            record.updatedAt = now
            record.version = try AppDatabase.nextVersion(db)
            try record.insertRow(db)
            return record
        }
        record.createdAt = existing.createdAt
        record.updatedAt = existing.updatedAt
        record.version = existing.version
        if record == existing { return existing }
        record.updatedAt = now
        record.version = try AppDatabase.nextVersion(db)
        try record.updateRow(db)
        return record
    }

    /// Clears the user's tombstone under a new version; a live record is returned as it is.
    static func restore(userId: String, id: String, in db: Database, now: String) throws -> Self {
        guard var record = try fetchOne(db, id: id), record.userId == userId else {
            throw StoreError.notFound("\(displayName) not found")
        }
        guard let deletedAt = record.deletedAt else { return record }
        // Past the undo window the content is scrubbed (or about to be): answered as a missing row.
        if DeletedRows.isPastUndo(deletedAt: try AppDatabase.instant(fromStoredText: deletedAt), now: try AppDatabase.instant(fromStoredText: now)) {
            throw StoreError.notFound("\(displayName) not found")
        }
        record.deletedAt = nil
        record.updatedAt = now
        record.version = try AppDatabase.nextVersion(db)
        try record.updateRow(db)
        return record
    }

    /// Marks the user's record deleted under a new version; a tombstone is returned as it is.
    static func tombstone(userId: String, id: String, in db: Database, now: String) throws -> Self {
        guard var record = try fetchOne(db, id: id), record.userId == userId else {
            throw StoreError.notFound("\(displayName) not found")
        }
        guard record.deletedAt == nil else { return record }
        record.deletedAt = now
        record.updatedAt = now
        record.version = try AppDatabase.nextVersion(db)
        try record.updateRow(db)
        return record
    }
}
