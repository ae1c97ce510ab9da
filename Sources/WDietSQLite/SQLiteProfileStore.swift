import Foundation
import GRDB
import WDietCore
import WDietStore

/// `ProfileStore` on the SQLite gatekeeper.
public struct SQLiteProfileStore: ProfileStore {
    let database: AppDatabase
    let now: @Sendable () -> Date

    /// `now` stamps `createdAt` and `updatedAt` and says which local day a profile change was made on (so when
    /// it applies); tests pass a fixed clock.
    public init(database: AppDatabase, now: @escaping @Sendable () -> Date = Date.init) {
        self.database = database
        self.now = now
    }

    /// Answered from the kept profiles while the user's profile generation holds: every meal save reads the
    /// profile (its time zone and eating window), and under a stream of writes each read transaction costs far more
    /// than its one row — SQLite drops the connection's page cache and memory map whenever anything was committed
    /// since its last read (alternating runs: 0.15–0.2 ms of CPU per meal save). A missing profile is not kept.
    public func profile(userId: UUID) async throws -> StoredProfile? {
        let key = AppDatabase.idText(userId)
        // Taken before the read starts: a profile written during the read leaves the entry behind, never ahead.
        let generation = database.userDataChanges.profileGeneration(ofUser: key)
        if let kept = database.profiles.value(forUser: key, generation: generation) { return kept }
        let stored = try await database.storeRead { db in try Self.profile(userId: userId, in: db) }
        if let stored { database.profiles.store(stored, forUser: key, generation: generation) }
        return stored
    }

    /// The read itself, for callers that combine several reads in one snapshot.
    static func profile(userId: UUID, in db: Database) throws -> StoredProfile? {
        let statement = try db.cachedStatement(sql: "SELECT * FROM profiles WHERE userId = ? AND deletedAt IS NULL")
        return try ProfileRecord.fetchOne(statement, arguments: [AppDatabase.idText(userId)])?.stored()
    }

    public func saveProfile(_ profile: Profile, userId: UUID, expectedVersion: Int64?) async throws -> StoredProfile {
        try StoreValidation.validate(profile)
        let instant = now()
        let now = AppDatabase.instantText(instant)
        let newId = AppDatabase.idText(UUID())
        return try await database.storeWrite { db in
            // Deleted or not: a user has one profile row, and saving over a deleted one restores it.
            let existing = try Self.record(userId: userId, in: db)
            if let expectedVersion, expectedVersion != existing?.version {
                throw StoreError.conflict("Your profile was changed on another device")
            }
            return try Self.write(profile, over: existing, newId: newId, userId: userId, at: instant, now: now, in: db)
        }
    }

    /// The user's profile row, deleted or not.
    static func record(userId: UUID, in db: Database) throws -> ProfileRecord? {
        try ProfileRecord.filter(ProfileRecord.Columns.userId == AppDatabase.idText(userId)).fetchOne(db)
    }

    /// Writes the profile over the user's row (already checked against the edit's base), with "changes apply
    /// tomorrow"; the sync push writes through here too.
    static func write(
        _ profile: Profile, over existing: ProfileRecord?, newId: String, userId: UUID, at instant: Date, now: String, in db: Database
    ) throws -> StoredProfile {
        // A restored profile is a first profile again: there is no plan in force to keep until midnight.
        let live = try existing.flatMap { $0.deletedAt == nil ? try $0.stored() : nil }
        let history = PlanHistory.afterSaving(profile, over: live?.profile, history: live?.planHistory ?? PlanHistory(), at: instant)
        let record = try ProfileRecord(profile, planHistory: history, id: existing?.id ?? newId, userId: userId)
        return try ProfileRecord.write(record, over: existing, in: db, now: now).stored()
    }
}
