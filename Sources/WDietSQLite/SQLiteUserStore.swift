import Foundation
import GRDB
import WDietStore

/// `UserStore` on the SQLite gatekeeper.
public struct SQLiteUserStore: UserStore {
    let database: AppDatabase
    let now: @Sendable () -> Date

    /// `now` stamps `createdAt` and `updatedAt`; tests pass a fixed clock.
    public init(database: AppDatabase, now: @escaping @Sendable () -> Date = Date.init) {
        self.database = database
        self.now = now
    }

    public func createUser(id: UUID, email: String?, displayName: String) async throws -> User {
        let now = AppDatabase.instantText(now())
        return try await database.storeWrite { db in
            let idText = AppDatabase.idText(id)
            // Checked here, not left to the UNIQUE constraints, so the message can say which one was taken.
            if try UserRecord.exists(db, key: idText) { throw StoreError.conflict("This account already exists") }
            if let email, try UserRecord.filter(UserRecord.Columns.email == email).fetchCount(db) > 0 {
                throw StoreError.conflict("An account with this email already exists")
            }
            let record = UserRecord(
                id: idText, email: email, displayName: displayName, createdAt: now, updatedAt: now,
                version: try AppDatabase.nextVersion(db), deletedAt: nil
            )
            try record.insert(db)
            return try record.user()
        }
    }

    public func user(id: UUID) async throws -> User? {
        try await database.storeRead { db in
            try UserRecord.filter(key: AppDatabase.idText(id)).filter(UserRecord.Columns.deletedAt == nil).fetchOne(db)?.user()
        }
    }

    public func user(email: String) async throws -> User? {
        try await database.storeRead { db in
            // The column's NOCASE collation makes this comparison case-insensitive.
            try UserRecord
                .filter(UserRecord.Columns.email == email && UserRecord.Columns.deletedAt == nil)
                .fetchOne(db)?
                .user()
        }
    }
}
