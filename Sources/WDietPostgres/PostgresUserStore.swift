import Foundation
import Logging
import PostgresNIO
import WDietStore

/// `UserStore` on PostgreSQL.
public struct PostgresUserStore: UserStore {
    let client: PostgresClient
    let now: @Sendable () -> Date
    let logger: Logger

    /// `now` stamps `createdAt` and `updatedAt`; tests pass a fixed clock.
    public init(client: PostgresClient, now: @escaping @Sendable () -> Date = Date.init, logger: Logger = Logger(label: "wdiet.postgres.users")) {
        self.client = client
        self.now = now
        self.logger = logger
    }

    static let columns = "id, email, display_name, created_at, updated_at, version"

    public func createUser(id: UUID, email: String?, displayName: String) async throws -> User {
        let now = PostgresInstant(now())
        return try await PostgresStoreErrors.guarded(logger) {
            try await client.withTransaction(logger: logger) { connection in
                // Checked here, not left to the unique indexes, so the message can say which one was taken.
                let taken = try await connection.query("""
                    SELECT id = \(id) FROM users WHERE id = \(id) OR lower(email) = lower(\(email))
                    """, logger: logger)
                for try await sameId in taken.decode(Bool.self) {
                    throw StoreError.conflict(sameId ? "This account already exists" : "An account with this email already exists")
                }
                // The user's row is the first version of their counter.
                let rows = try await connection.query("""
                    INSERT INTO users (id, email, display_name, created_at, updated_at, version, last_version)
                    VALUES (\(id), \(email), \(displayName), \(now), \(now), 1, 1)
                    RETURNING \(unescaped: Self.columns)
                    """, logger: logger)
                guard let user = try await Self.users(rows).first else { throw StoreError.unavailable("The account was not created") }
                return user
            }
        }
    }

    public func user(id: UUID) async throws -> User? {
        try await PostgresStoreErrors.guarded(logger) {
            try await Self.users(client.query(
                "SELECT \(unescaped: Self.columns) FROM users WHERE id = \(id) AND deleted_at IS NULL", logger: logger)).first
        }
    }

    public func user(email: String) async throws -> User? {
        try await PostgresStoreErrors.guarded(logger) {
            // lower() on both sides uses the unique index users_email_key.
            try await Self.users(client.query("""
                SELECT \(unescaped: Self.columns) FROM users WHERE lower(email) = lower(\(email)) AND deleted_at IS NULL
                """, logger: logger)).first
        }
    }

    static func users(_ rows: PostgresRowSequence) async throws -> [User] {
        var users: [User] = []
        for try await row in rows {
            let row = row.makeRandomAccess()
            users.append(User(
                id: try row.value("id"), email: try row.value("email"), displayName: try row.value("display_name"),
                createdAt: try row.instant("created_at"), updatedAt: try row.instant("updated_at"), version: try row.value("version")
            ))
        }
        return users
    }
}
