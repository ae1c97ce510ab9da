import Foundation
import GRDB
import WDietStore

/// `PasswordCredentialStore` on the SQLite gatekeeper.
public struct SQLitePasswordCredentialStore: PasswordCredentialStore {
    let database: AppDatabase
    let now: @Sendable () -> Date

    /// `now` stamps `credentials.updatedAt`.
    public init(database: AppDatabase, now: @escaping @Sendable () -> Date = Date.init) {
        self.database = database
        self.now = now
    }

    public func passwordHash(userId: UUID) async throws -> String? {
        try await database.storeRead { db in
            try String.fetchOne(db, sql: """
                SELECT credentials.passwordHash FROM credentials JOIN users ON users.id = credentials.userId
                WHERE credentials.userId = ? AND users.deletedAt IS NULL
                """, arguments: [AppDatabase.idText(userId)])
        }
    }

    @discardableResult
    public func replacePassword(userId: UUID, passwordHash: String) async throws -> Int {
        let now = AppDatabase.instantText(now())
        let user = AppDatabase.idText(userId)
        return try await database.storeWrite { db in
            try db.execute(
                sql: "UPDATE credentials SET passwordHash = ?, updatedAt = ? WHERE userId = ?",
                arguments: [passwordHash, now, user]
            )
            guard db.changesCount == 1 else { throw StoreError.notFound("This account has no password to change") }
            try db.execute(sql: "DELETE FROM sessions WHERE userId = ?", arguments: [user])
            return db.changesCount
        }
    }
}
