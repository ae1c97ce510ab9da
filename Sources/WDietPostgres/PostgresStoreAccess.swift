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
        try await PostgresUserVersions.next(1, for: userId, on: connection, logger: logger)
    }

    static let userNotFound = StoreError.notFound("User not found")
    static let emailTaken = StoreError.conflict("An account with this email already exists")

    /// The columns `user(from:)` decodes, in order.
    static let userColumns = "id, email, display_name, created_at, updated_at, version"
    typealias UserRow = (UUID, String?, String, PostgresInstant, PostgresInstant, Int64)

    static func user(_ row: UserRow) -> User {
        User(id: row.0, email: row.1, displayName: row.2, createdAt: row.3.date, updatedAt: row.4.date, version: row.5)
    }

    /// The same mapping as the coach stores' (`PostgresStoreErrors`); the detail goes to the log only. A store's own
    /// refusal (a `StoreError`, also from inside a transaction: "This account already has data") is the request's
    /// answer, not a failure, and is not logged as one.
    func storeError(from error: any Error) -> StoreError {
        let mapped = PostgresStoreErrors.storeError(from: error, unavailable: "The store is unavailable")
        if !Self.isStoresOwnRefusal(error) {
            logger.error("PostgreSQL store query failed", metadata: ["error": "\(String(reflecting: error))"])
        }
        return mapped
    }

    static func isStoresOwnRefusal(_ error: any Error) -> Bool {
        if error is StoreError { return true }
        if let error = error as? PostgresTransactionError, error.rollbackError == nil, error.commitError == nil,
           let inner = error.closureError {
            return inner is StoreError
        }
        return false
    }
}

extension PostgresClient {
    /// Runs a statement whose rows nobody reads, and reads them to the end all the same: the pool takes a
    /// connection back only when the query's row sequence finishes, and a sequence dropped while still streaming
    /// (`finishOnDeinit: false` in PostgresNIO) would keep its connection leased, so the pool could never shut down.
    func execute(_ query: PostgresQuery, logger: Logger) async throws {
        for try await _ in try await self.query(query, logger: logger) {}
    }
}
