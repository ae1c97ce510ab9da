import Foundation
import PostgresNIO
import WDietCore
import WDietStore

/// `AccountStore` on PostgreSQL. Emails are compared case-insensitively through the unique index on
/// `lower(email)`, over every user, deleted ones included (as SQLite's UNIQUE column).
public struct PostgresAccountStore: AccountStore {
    let access: PostgresStoreAccess
    let now: @Sendable () -> Date

    /// `now` stamps users and credentials; tests pass a fixed clock. Sessions carry their own instants.
    public init(client: PostgresClient, now: @escaping @Sendable () -> Date = Date.init) {
        access = PostgresStoreAccess(client: client, label: "wdiet.postgres.accounts")
        self.now = now
    }

    static let alreadyHasEmail = StoreError.conflict("This account already has an email address")

    public func createAccount(id: UUID, email: String, displayName: String, passwordHash: String) async throws -> User {
        let now = PostgresInstant(now())
        return try await access.transaction { connection in
            let user = try await Self.insertUser(connection, access, id: id, email: email, displayName: displayName, now: now)
            try await connection.query("""
                INSERT INTO credentials (user_id, password_hash, updated_at) VALUES (\(id), \(passwordHash), \(now))
                """, logger: access.logger)
            return user
        }
    }

    public func createGuest(id: UUID, displayName: String) async throws -> User {
        let now = PostgresInstant(now())
        return try await access.transaction { connection in
            try await Self.insertUser(connection, access, id: id, email: nil, displayName: displayName, now: now)
        }
    }

    public func upgradeGuest(userId: UUID, email: String, passwordHash: String) async throws -> User {
        let now = PostgresInstant(now())
        return try await access.transaction { connection in
            let rows = try await connection.query(
                "SELECT email FROM users WHERE id = \(userId) AND deleted_at IS NULL FOR NO KEY UPDATE", logger: access.logger)
            var found: String??
            for try await current in rows.decode(String?.self) { found = current }
            guard let current = found else { throw PostgresStoreAccess.userNotFound }
            guard current == nil else { throw Self.alreadyHasEmail }
            if try await Self.isTaken(connection, access, email: email) { throw PostgresStoreAccess.emailTaken }
            let version = try await access.nextVersion(connection, userId: userId)
            let updated = try await connection.query("""
                UPDATE users SET email = \(email), updated_at = \(now), version = \(version) WHERE id = \(userId)
                RETURNING \(unescaped: PostgresStoreAccess.userColumns)
                """, logger: access.logger)
            var user: User?
            for try await row in updated.decode(PostgresStoreAccess.UserRow.self) { user = PostgresStoreAccess.user(row) }
            guard let user else { throw PostgresStoreAccess.userNotFound }
            // A guest has no credentials; should one be left from an earlier attempt, the new password wins.
            try await connection.query("""
                INSERT INTO credentials (user_id, password_hash, updated_at) VALUES (\(userId), \(passwordHash), \(now))
                ON CONFLICT (user_id) DO UPDATE SET password_hash = excluded.password_hash, updated_at = excluded.updated_at
                """, logger: access.logger)
            return user
        }
    }

    public func credentials(email: String) async throws -> AccountCredentials? {
        try await access.run { client in
            let rows = try await client.query("""
                SELECT u.id, u.email, u.display_name, u.created_at, u.updated_at, u.version, c.password_hash
                FROM users u JOIN credentials c ON c.user_id = u.id
                WHERE lower(u.email) = lower(\(email)) AND u.deleted_at IS NULL
                """, logger: access.logger)
            for try await (id, email, name, created, updated, version, hash) in rows.decode(
                (UUID, String?, String, PostgresInstant, PostgresInstant, Int64, String).self)
            {
                return AccountCredentials(
                    user: PostgresStoreAccess.user((id, email, name, created, updated, version)), passwordHash: hash)
            }
            return nil
        }
    }

    public func createSession(_ session: AccountSession) async throws {
        let created = PostgresInstant(session.createdAt)
        try await access.transaction { connection in
            try await connection.query("""
                DELETE FROM sessions WHERE user_id = \(session.userId) AND expires_at <= \(created)
                """, logger: access.logger)
            try await connection.query("""
                INSERT INTO sessions (token_hash, user_id, kind, created_at, expires_at, last_used_at)
                VALUES (\(session.tokenHash), \(session.userId), \(session.kind.rawValue), \(created),
                    \(PostgresInstant(session.expiresAt)), \(PostgresInstant(session.lastUsedAt)))
                """, logger: access.logger)
        }
    }

    public func session(tokenHash: String) async throws -> AccountSession? {
        try await access.run { client in
            for try await (hash, userId, kind, created, expires, used, lastVersion, language, appearance, profileVersion) in try await client.execute(
                SessionLookup(tokenHash: tokenHash), logger: access.logger)
            {
                // A kind this version does not know signs nobody in.
                guard let kind = AccountSession.Kind(rawValue: kind) else { return nil }
                return AccountSession(
                    tokenHash: hash, userId: userId, kind: kind, createdAt: created.date, expiresAt: expires.date,
                    lastUsedAt: used.date, dataVersion: lastVersion, language: language.flatMap(Language.init(tag:)),
                    appearance: appearance.flatMap(Appearance.init(rawValue:)),
                    profileSeen: profileVersion.map(ProfileSeen.version) ?? ProfileSeen.none)
            }
            return nil
        }
    }

    public func touchSession(tokenHash: String, lastUsedAt: Date) async throws {
        try await access.run { client in
            try await client.execute(
                "UPDATE sessions SET last_used_at = \(PostgresInstant(lastUsedAt)) WHERE token_hash = \(tokenHash)",
                logger: access.logger)
        }
    }

    @discardableResult
    public func deleteSession(tokenHash: String) async throws -> Bool {
        try await access.run { client in
            let rows = try await client.query(
                "DELETE FROM sessions WHERE token_hash = \(tokenHash) RETURNING 1", logger: access.logger)
            var deleted = false
            for try await _ in rows.decode(Int.self) { deleted = true }
            return deleted
        }
    }

    @discardableResult
    public func deleteSessions(userId: UUID) async throws -> Int {
        try await access.run { client in
            let rows = try await client.query(
                "DELETE FROM sessions WHERE user_id = \(userId) RETURNING 1", logger: access.logger)
            var count = 0
            for try await _ in rows.decode(Int.self) { count += 1 }
            return count
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
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(userId)
        let query = PostgresQuery(unsafeSQL: "SELECT \(column) FROM users WHERE id = $1 AND deleted_at IS NULL", binds: bindings)
        return try await access.run { client in
            for try await value in try await client.query(query, logger: access.logger).decode(String?.self) { return value }
            return nil
        }
    }

    /// Sets a setting column of a live user; an unknown or deleted user is `.notFound`.
    private func setUserSetting(_ column: String, to value: String?, userId: UUID) async throws {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(value)
        bindings.append(userId)
        let query = PostgresQuery(
            unsafeSQL: "UPDATE users SET \(column) = $1 WHERE id = $2 AND deleted_at IS NULL RETURNING 1", binds: bindings)
        try await access.run { client in
            var updated = false
            for try await _ in try await client.query(query, logger: access.logger).decode(Int.self) { updated = true }
            if !updated { throw PostgresStoreAccess.userNotFound }
        }
    }

    /// A new user row: version 1, its counter at 1. Checked here, not left to the constraints, so the message can
    /// say which one was taken.
    static func insertUser(
        _ connection: PostgresConnection, _ access: PostgresStoreAccess, id: UUID, email: String?, displayName: String,
        now: PostgresInstant
    ) async throws -> User {
        let existing = try await connection.query("SELECT 1 FROM users WHERE id = \(id)", logger: access.logger)
        for try await _ in existing.decode(Int.self) { throw StoreError.conflict("This account already exists") }
        if let email, try await isTaken(connection, access, email: email) { throw PostgresStoreAccess.emailTaken }
        try await connection.query("""
            INSERT INTO users (id, email, display_name, created_at, updated_at, version, last_version)
            VALUES (\(id), \(email), \(displayName), \(now), \(now), 1, 1)
            """, logger: access.logger)
        return User(id: id, email: email, displayName: displayName, createdAt: now.date, updatedAt: now.date, version: 1)
    }

    /// By anyone, deleted users included: the unique index covers every row.
    static func isTaken(_ connection: PostgresConnection, _ access: PostgresStoreAccess, email: String) async throws -> Bool {
        let rows = try await connection.query(
            "SELECT 1 FROM users WHERE lower(email) = lower(\(email))", logger: access.logger)
        for try await _ in rows.decode(Int.self) { return true }
        return false
    }
}

/// Every signed-in request's one query on PostgreSQL (no session cache: several processes share the sessions), as a
/// prepared statement, planned once per connection rather than once per request. It also reads the user's
/// `last_version`, so the dashboard can tell whether its kept copy of the user's inputs is current for free, the
/// `language` the user chose, so the request is answered in it, the `appearance`, so pages are written in the theme, and the live profile's version, so a meal or
/// weight save uses the process's copy of the profile instead of reading it again (a round trip a save).
struct SessionLookup: PostgresPreparedStatement {
    static let name = "wdiet_session_lookup_v5"
    static let sql = """
        SELECT s.token_hash, s.user_id, s.kind, s.created_at, s.expires_at, s.last_used_at, u.last_version, u.language,
            u.appearance, p.version
        FROM sessions s JOIN users u ON u.id = s.user_id
            LEFT JOIN profiles p ON p.user_id = s.user_id AND p.deleted_at IS NULL
        WHERE s.token_hash = $1 AND u.deleted_at IS NULL
        """
    typealias Row = (String, UUID, String, PostgresInstant, PostgresInstant, PostgresInstant, Int64, String?, String?, Int64?)

    let tokenHash: String

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(tokenHash)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode(Row.self)
    }
}
