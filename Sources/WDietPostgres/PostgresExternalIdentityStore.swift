import Foundation
import PostgresNIO
import WDietStore

/// `ExternalIdentityStore` on PostgreSQL. Identities are inserted with `ON CONFLICT DO NOTHING`, so two servers
/// linking the same identity at once end with one link and the other hears who holds it.
public struct PostgresExternalIdentityStore: ExternalIdentityStore {
    let access: PostgresStoreAccess
    let now: @Sendable () -> Date

    /// `now` stamps new users and `linked_at`.
    public init(client: PostgresClient, now: @escaping @Sendable () -> Date = Date.init) {
        access = PostgresStoreAccess(client: client, label: "wdiet.postgres.identities")
        self.now = now
    }

    static let alreadyLinked = StoreError.conflict("This sign-in is already linked to another account")

    public func user(issuer: String, subject: String) async throws -> User? {
        try await access.run { client in
            let rows = try await client.query("""
                SELECT u.id, u.email, u.display_name, u.created_at, u.updated_at, u.version
                FROM identities i JOIN users u ON u.id = i.user_id
                WHERE i.issuer = \(issuer) AND i.subject = \(subject) AND u.deleted_at IS NULL
                """, logger: access.logger)
            for try await row in rows.decode(PostgresStoreAccess.UserRow.self) { return PostgresStoreAccess.user(row) }
            return nil
        }
    }

    public func createAccount(id: UUID, issuer: String, subject: String, email: String?) async throws -> User {
        let now = PostgresInstant(now())
        return try await access.transaction { connection in
            if try await linkedUserId(connection, issuer: issuer, subject: subject) != nil { throw Self.alreadyLinked }
            let user = try await PostgresAccountStore.insertUser(
                connection, access, id: id, email: email, displayName: "", now: now)
            guard try await insertIdentity(connection, issuer: issuer, subject: subject, userId: id, email: email, now: now)
            else { throw Self.alreadyLinked }
            return user
        }
    }

    public func link(userId: UUID, issuer: String, subject: String, email: String?) async throws {
        let now = PostgresInstant(now())
        try await access.transaction { connection in
            let users = try await connection.query(
                "SELECT 1 FROM users WHERE id = \(userId) AND deleted_at IS NULL", logger: access.logger)
            var exists = false
            for try await _ in users.decode(Int.self) { exists = true }
            guard exists else { throw PostgresStoreAccess.userNotFound }
            if try await insertIdentity(connection, issuer: issuer, subject: subject, userId: userId, email: email, now: now) {
                return
            }
            // Linked already: to this user it is no change.
            guard try await linkedUserId(connection, issuer: issuer, subject: subject) == userId else { throw Self.alreadyLinked }
        }
    }

    public func identities(userId: UUID) async throws -> [ExternalIdentity] {
        try await access.run { client in
            let rows = try await client.query("""
                SELECT issuer, subject, email, linked_at FROM identities WHERE user_id = \(userId)
                ORDER BY linked_at, issuer
                """, logger: access.logger)
            var identities: [ExternalIdentity] = []
            for try await (issuer, subject, email, linked) in rows.decode((String, String, String?, PostgresInstant).self) {
                identities.append(ExternalIdentity(issuer: issuer, subject: subject, email: email, linkedAt: linked.date))
            }
            return identities
        }
    }

    func linkedUserId(_ connection: PostgresConnection, issuer: String, subject: String) async throws -> UUID? {
        let rows = try await connection.query(
            "SELECT user_id FROM identities WHERE issuer = \(issuer) AND subject = \(subject)", logger: access.logger)
        for try await userId in rows.decode(UUID.self) { return userId }
        return nil
    }

    /// False when the identity is linked already (to whomever).
    func insertIdentity(
        _ connection: PostgresConnection, issuer: String, subject: String, userId: UUID, email: String?, now: PostgresInstant
    ) async throws -> Bool {
        let rows = try await connection.query("""
            INSERT INTO identities (issuer, subject, user_id, email, linked_at)
            VALUES (\(issuer), \(subject), \(userId), \(email), \(now))
            ON CONFLICT (issuer, subject) DO NOTHING RETURNING 1
            """, logger: access.logger)
        for try await _ in rows.decode(Int.self) { return true }
        return false
    }
}
