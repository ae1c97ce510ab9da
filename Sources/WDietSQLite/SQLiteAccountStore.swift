import Foundation
import GRDB
import WDietCore
import WDietStore

/// `AccountStore` on the SQLite gatekeeper.
public struct SQLiteAccountStore: AccountStore {
    let database: AppDatabase
    let now: @Sendable () -> Date

    /// `now` stamps users and credentials; tests pass a fixed clock. Sessions carry their own instants.
    public init(database: AppDatabase, now: @escaping @Sendable () -> Date = Date.init) {
        self.database = database
        self.now = now
    }

    static let emailTaken = StoreError.conflict("An account with this email already exists")
    static let alreadyHasEmail = StoreError.conflict("This account already has an email address")

    public func createAccount(id: UUID, email: String, displayName: String, passwordHash: String) async throws -> User {
        let now = AppDatabase.instantText(now())
        return try await database.storeWrite { db in
            let record = try Self.insertUser(db, id: id, email: email, displayName: displayName, now: now)
            try CredentialRecord(userId: record.id, passwordHash: passwordHash, updatedAt: now).insert(db)
            return try record.user()
        }
    }

    public func createGuest(id: UUID, displayName: String) async throws -> User {
        let now = AppDatabase.instantText(now())
        return try await database.storeWrite { db in
            try Self.insertUser(db, id: id, email: nil, displayName: displayName, now: now).user()
        }
    }

    public func upgradeGuest(userId: UUID, email: String, passwordHash: String) async throws -> User {
        let now = AppDatabase.instantText(now())
        return try await database.storeWrite { db in
            let idText = AppDatabase.idText(userId)
            guard var record = try UserRecord.filter(key: idText).filter(UserRecord.Columns.deletedAt == nil).fetchOne(db) else {
                throw StoreError.notFound("User not found")
            }
            guard record.email == nil else { throw Self.alreadyHasEmail }
            if try Self.isTaken(db, email: email) { throw Self.emailTaken }
            record.email = email
            record.updatedAt = now
            record.version = try AppDatabase.nextVersion(db)
            try record.update(db)
            // A guest has no credentials; should one be left from an earlier attempt, the new password wins.
            try CredentialRecord(userId: idText, passwordHash: passwordHash, updatedAt: now).upsert(db)
            return try record.user()
        }
    }

    public func credentials(email: String) async throws -> AccountCredentials? {
        try await database.storeRead { db in
            // users.email is COLLATE NOCASE, so the comparison ignores case.
            let row = try Row.fetchOne(db, sql: """
                SELECT users.*, credentials.passwordHash AS credentialsPasswordHash
                FROM users JOIN credentials ON credentials.userId = users.id
                WHERE users.email = ? AND users.deletedAt IS NULL
                """, arguments: [email])
            guard let row else { return nil }
            return AccountCredentials(user: try UserRecord(row: row).user(), passwordHash: row["credentialsPasswordHash"])
        }
    }

    public func createSession(_ session: AccountSession) async throws {
        let record = SessionRecord(session)
        try await database.storeWrite { db in
            try SessionRecord
                .filter(SessionRecord.Columns.userId == record.userId && SessionRecord.Columns.expiresAt <= record.createdAt)
                .deleteAll(db)
            try record.insert(db)
        }
    }

    public func session(tokenHash: String) async throws -> AccountSession? {
        try await database.storeRead { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT sessions.*, users.language AS userLanguage, users.appearance AS userAppearance FROM sessions JOIN users ON users.id = sessions.userId
                WHERE sessions.tokenHash = ? AND users.deletedAt IS NULL
                """, arguments: [tokenHash])
            else { return nil }
            var session = try SessionRecord(row: row).session()
            session?.language = (row["userLanguage"] as String?).flatMap(Language.init(tag:))
            session?.appearance = (row["userAppearance"] as String?).flatMap(Appearance.init(rawValue:))
            return session
        }
    }

    public func touchSession(tokenHash: String, lastUsedAt: Date) async throws {
        let lastUsedAt = AppDatabase.instantText(lastUsedAt)
        try await database.storeWrite { db in
            _ = try SessionRecord
                .filter(key: tokenHash)
                .updateAll(db, SessionRecord.Columns.lastUsedAt.set(to: lastUsedAt))
        }
    }

    @discardableResult
    public func deleteSession(tokenHash: String) async throws -> Bool {
        try await database.storeWrite { db in
            try SessionRecord.deleteOne(db, key: tokenHash)
        }
    }

    @discardableResult
    public func deleteSessions(userId: UUID) async throws -> Int {
        try await database.storeWrite { db in
            try SessionRecord.filter(SessionRecord.Columns.userId == AppDatabase.idText(userId)).deleteAll(db)
        }
    }

    public func language(userId: UUID) async throws -> Language? {
        try await userSetting("language", userId: userId).flatMap(Language.init(tag:))
    }

    public func setLanguage(_ language: Language?, userId: UUID) async throws {
        try await setUserSetting("language", to: language?.tag, userId: userId)
    }

    public func appearance(userId: UUID) async throws -> Appearance? {
        try await userSetting("appearance", userId: userId).flatMap(Appearance.init(rawValue:))
    }

    public func setAppearance(_ appearance: Appearance?, userId: UUID) async throws {
        try await setUserSetting("appearance", to: appearance?.rawValue, userId: userId)
    }

    /// A setting column of a live user (`language`, `appearance`: names written here, never taken from input); no row
    /// and a NULL both read as nil, the automatic choice.
    private func userSetting(_ column: String, userId: UUID) async throws -> String? {
        try await database.storeRead { db in
            try String.fetchOne(db, sql: "SELECT \(column) FROM users WHERE id = ? AND deletedAt IS NULL", arguments: [AppDatabase.idText(userId)])
        }
    }

    /// Sets a setting column of a live user; an unknown or deleted user is `.notFound`.
    private func setUserSetting(_ column: String, to value: String?, userId: UUID) async throws {
        try await database.storeWrite { db in
            try db.execute(sql: "UPDATE users SET \(column) = ? WHERE id = ? AND deletedAt IS NULL", arguments: [value, AppDatabase.idText(userId)])
            if db.changesCount == 0 { throw StoreError.notFound("User not found") }
        }
    }

    private static func insertUser(_ db: Database, id: UUID, email: String?, displayName: String, now: String) throws -> UserRecord {
        let idText = AppDatabase.idText(id)
        // Checked here, not left to the UNIQUE constraints, so the message can say which one was taken.
        if try UserRecord.exists(db, key: idText) { throw StoreError.conflict("This account already exists") }
        if let email, try isTaken(db, email: email) { throw emailTaken }
        let record = UserRecord(
            id: idText, email: email, displayName: displayName, createdAt: now, updatedAt: now,
            version: try AppDatabase.nextVersion(db), deletedAt: nil
        )
        try record.insert(db)
        return record
    }

    /// By anyone, deleted users included: the column is UNIQUE over every row.
    private static func isTaken(_ db: Database, email: String) throws -> Bool {
        try UserRecord.filter(UserRecord.Columns.email == email).fetchCount(db) > 0
    }
}
