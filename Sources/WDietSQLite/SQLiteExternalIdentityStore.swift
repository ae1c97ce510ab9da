import Foundation
import GRDB
import WDietStore

/// `ExternalIdentityStore` on the SQLite gatekeeper.
public struct SQLiteExternalIdentityStore: ExternalIdentityStore {
    let database: AppDatabase
    let now: @Sendable () -> Date

    /// `now` stamps new users and `linkedAt`.
    public init(database: AppDatabase, now: @escaping @Sendable () -> Date = Date.init) {
        self.database = database
        self.now = now
    }

    static let alreadyLinked = StoreError.conflict("This sign-in is already linked to another account")

    public func user(issuer: String, subject: String) async throws -> User? {
        try await database.storeRead { db in
            try UserRecord.fetchOne(db, sql: """
                SELECT users.* FROM identities JOIN users ON users.id = identities.userId
                WHERE identities.issuer = ? AND identities.subject = ? AND users.deletedAt IS NULL
                """, arguments: [issuer, subject])?.user()
        }
    }

    public func createAccount(id: UUID, issuer: String, subject: String, email: String?) async throws -> User {
        let now = AppDatabase.instantText(now())
        let idText = AppDatabase.idText(id)
        return try await database.storeWrite { db in
            if try Self.linkedUserId(db, issuer: issuer, subject: subject) != nil { throw Self.alreadyLinked }
            if try UserRecord.exists(db, key: idText) { throw StoreError.conflict("This account already exists") }
            // By anyone, deleted users included: users.email is UNIQUE over every row.
            if let email, try UserRecord.filter(UserRecord.Columns.email == email).fetchCount(db) > 0 {
                throw StoreError.conflict("An account with this email already exists")
            }
            let record = UserRecord(
                id: idText, email: email, displayName: "", createdAt: now, updatedAt: now,
                version: try AppDatabase.nextVersion(db), deletedAt: nil
            )
            try record.insert(db)
            try Self.insertIdentity(db, issuer: issuer, subject: subject, userId: idText, email: email, now: now)
            return try record.user()
        }
    }

    public func link(userId: UUID, issuer: String, subject: String, email: String?) async throws {
        let now = AppDatabase.instantText(now())
        let idText = AppDatabase.idText(userId)
        try await database.storeWrite { db in
            guard try UserRecord.filter(key: idText).filter(UserRecord.Columns.deletedAt == nil).fetchCount(db) == 1 else {
                throw StoreError.notFound("User not found")
            }
            if let linked = try Self.linkedUserId(db, issuer: issuer, subject: subject) {
                if linked == idText { return }
                throw Self.alreadyLinked
            }
            try Self.insertIdentity(db, issuer: issuer, subject: subject, userId: idText, email: email, now: now)
        }
    }

    public func identities(userId: UUID) async throws -> [ExternalIdentity] {
        try await database.storeRead { db in
            try Row.fetchAll(db, sql: """
                SELECT issuer, subject, email, linkedAt FROM identities WHERE userId = ? ORDER BY linkedAt, issuer
                """, arguments: [AppDatabase.idText(userId)]).map { row in
                ExternalIdentity(
                    issuer: row["issuer"], subject: row["subject"], email: row["email"],
                    linkedAt: try AppDatabase.instant(fromStoredText: row["linkedAt"])
                )
            }
        }
    }

    private static func linkedUserId(_ db: Database, issuer: String, subject: String) throws -> String? {
        try String.fetchOne(db, sql: "SELECT userId FROM identities WHERE issuer = ? AND subject = ?", arguments: [issuer, subject])
    }

    private static func insertIdentity(_ db: Database, issuer: String, subject: String, userId: String, email: String?, now: String) throws {
        try db.execute(
            sql: "INSERT INTO identities (issuer, subject, userId, email, linkedAt) VALUES (?, ?, ?, ?, ?)",
            arguments: [issuer, subject, userId, email, now]
        )
    }
}
