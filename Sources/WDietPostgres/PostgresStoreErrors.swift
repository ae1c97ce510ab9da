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
        if let cause = failureCause(of: error) {
            StoreFailureLog.shared.record(cause, detail: String(reflecting: error))
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
            // A NUL in text (22021) or in JSON (22P05): the server refuses control characters before a store sees
            // them (`ControlCharacters`); should one slip through, it is the client's input, not an outage.
            case "22021", "22P05": return .invalid("Please check the values entered")
            default: break
            }
        }
        return .unavailable(unavailable)
    }

    /// Why PostgreSQL (or the way to it) failed, for the log's once-a-minute line and the health endpoint; nil for
    /// what is the request's own doing (a constraint, a value PostgreSQL refuses).
    static func failureCause(of error: any Error) -> StoreFailureCause? {
        if error is StoreError { return nil }
        if let error = error as? PostgresTransactionError {
            return (error.closureError ?? error.beginError ?? error.commitError).flatMap(failureCause(of:))
        }
        guard let error = error as? PSQLError else { return .other }
        if let state = error.serverInfo?[.sqlState] {
            switch state {
            case "53100": return .diskFull
            case "25006": return .readOnly
            case "53300", "53400": return .tooManyConnections
            case "40001", "40P01", "55P03", "57014": return .databaseLocked
            case "57P01", "57P02", "57P03": return .connectionLost
            case "58030": return .ioError
            case "XX001", "XX002": return .corrupt
            default:
                if state.hasPrefix("08") { return .connectionLost }
                if state.hasPrefix("23") || state.hasPrefix("22") || state.hasPrefix("42") { return nil }
                return .other
            }
        }
        switch error.code {
        case .serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown, .poolClosed: return .connectionLost
        default: return .other
        }
    }
}

extension PostgresDatabase {
    /// The health endpoint's question, asked for real: one row of `schema_migrations` rewritten with its own values
    /// and committed, so PostgreSQL writes a tuple and flushes its commit record (a read-only transaction or standby,
    /// a full disk or a lost connection refuse it). Nil when it committed, else why not (recorded in `StoreFailureLog`).
    public func probeWrite() async -> StoreFailureCause? {
        do {
            try await client.withConnection { connection in
                _ = try await connection.query(
                    "UPDATE schema_migrations SET version = version WHERE version = (SELECT min(version) FROM schema_migrations)",
                    logger: logger
                ).collect()
            }
            return nil
        } catch {
            _ = PostgresStoreErrors.storeError(from: error, unavailable: "The store cannot write")
            return PostgresStoreErrors.failureCause(of: error) ?? .other
        }
    }
}
