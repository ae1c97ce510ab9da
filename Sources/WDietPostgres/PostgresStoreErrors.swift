import Foundation
import Logging
import PostgresNIO
import WDietStore

/// The one place WDietPostgres turns database errors into `StoreError`s: a store's messages never carry SQL, and
/// they say the same as the SQLite stores' (`AppDatabase.storeError(from:)`), so the server maps both alike.
enum PostgresStoreErrors {
    /// A row that does not decode was written by something other than these stores.
    static let unreadable = StoreError.unavailable("A stored value could not be read")

    /// Runs `body`, passing `StoreError`s through and mapping everything else; the detail goes to the log only.
    static func guarded<Result>(
        _ logger: Logger, unavailable: String = "The store is unavailable right now. Please try again in a moment.",
        _ body: () async throws -> Result
    ) async throws -> Result {
        do {
            return try await body()
        } catch {
            let mapped = storeError(from: error, unavailable: unavailable)
            if case .unavailable = mapped {
                logger.error("PostgreSQL store operation failed", metadata: ["error": "\(String(reflecting: error))"])
            }
            throw mapped
        }
    }

    /// Constraint failures a store did not check first are races (a duplicate email, a user deleted meanwhile)
    /// or bugs: the message says what happened, without the SQL that found it.
    static func storeError(from error: any Error, unavailable: String) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? PostgresTransactionError {
            // The first error that happened: the closure's, else BEGIN's or COMMIT's.
            if let inner = error.closureError ?? error.beginError ?? error.commitError {
                return storeError(from: inner, unavailable: unavailable)
            }
        }
        if let error = error as? PSQLError, let state = error.serverInfo?[.sqlState] {
            switch state {
            case "23505":
                // The one unique constraint a person can run into: two sign-ups racing for an email.
                return error.serverInfo?[.constraintName] == "users_email_key"
                    ? .conflict("An account with this email already exists") : .conflict("This already exists")
            case "23503": return .notFound("User not found")
            case "23514", "23502": return .invalid("Please check the values entered")
            case "40001", "40P01", "55P03", "57014": return .unavailable("The store is busy; please try again")
            default: break
            }
        }
        return .unavailable(unavailable)
    }
}
