import Foundation
import Logging
import PostgresNIO
import WDietStore

/// What every account-side PostgreSQL store shares: errors leave as `StoreError` (never with SQL or server detail
/// in them; the detail is logged), writes run in one transaction, and synced rows draw their version from the
/// owning user's counter.
struct PostgresStoreAccess: Sendable {
    let client: PostgresClient
    let logger: Logger

    init(client: PostgresClient, label: String) {
        self.client = client
        logger = Logger(label: label)
    }

    /// A read or a single-statement write, on whichever pooled connection is free.
    func run<Result: Sendable>(_ body: (PostgresClient) async throws -> Result) async throws -> Result {
        do {
            return try await body(client)
        } catch {
            throw storeError(from: error)
        }
    }

    /// One transaction: everything `body` does commits together or not at all.
    func transaction<Result: Sendable>(_ body: (PostgresConnection) async throws -> Result) async throws -> Result {
        do {
            return try await client.withTransaction(logger: logger) { connection in try await body(connection) }
        } catch {
            throw storeError(from: error)
        }
    }

    /// Bumps the user's change counter and returns the new value, for the row this transaction writes. The row lock
    /// it takes serialises the user's writers, so one user's versions grow in commit order (the sync cursor).
    /// `.notFound` for a user that does not exist.
    func nextVersion(_ connection: PostgresConnection, userId: UUID) async throws -> Int64 {
        let rows = try await connection.query(
            "UPDATE users SET last_version = last_version + 1 WHERE id = \(userId) RETURNING last_version", logger: logger)
        for try await version in rows.decode(Int64.self) { return version }
        throw Self.userNotFound
    }

    static let userNotFound = StoreError.notFound("User not found")
    static let emailTaken = StoreError.conflict("An account with this email already exists")

    /// The columns `user(from:)` decodes, in order.
    static let userColumns = "id, email, display_name, created_at, updated_at, version"
    typealias UserRow = (UUID, String?, String, PostgresInstant, PostgresInstant, Int64)

    static func user(_ row: UserRow) -> User {
        User(id: row.0, email: row.1, displayName: row.2, createdAt: row.3.date, updatedAt: row.4.date, version: row.5)
    }

    /// Stores check their inputs before writing, so a constraint failure here is a race (an email taken meanwhile, a
    /// user deleted meanwhile) or a bug: the same words as the SQLite gatekeeper's.
    func storeError(from error: any Error) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? PostgresTransactionError,
            let cause = error.closureError ?? error.beginError ?? error.commitError
        {
            return storeError(from: cause)
        }
        logger.error("PostgreSQL store query failed", metadata: ["error": "\(String(reflecting: error))"])
        guard let error = error as? PSQLError, let state = error.serverInfo?[.sqlState] else {
            return .unavailable("The store is unavailable")
        }
        switch state {
        case "23505":
            return error.serverInfo?[.constraintName] == "users_email_key" ? Self.emailTaken : .conflict("This already exists")
        case "23503":
            return Self.userNotFound
        case "23514", "23502":
            return .invalid("Please check the values entered")
        case "40001", "40P01", "55P03", "57014":
            return .unavailable("The store is busy; please try again")
        default:
            return .unavailable("The store is unavailable")
        }
    }
}
