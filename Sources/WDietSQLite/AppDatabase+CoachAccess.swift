import Foundation
import GRDB
import WDietStore

/// The gatekeeper's side of the coach stores: every read and write goes through these, so that errors leave
/// as `StoreError` (never with SQL in them) and every write draws its version in its own transaction.
///
/// Reads run on the calling thread (GRDB's synchronous API) rather than hopping to a GRDB dispatch queue and
/// back: the store's statements take tens to hundreds of microseconds, less than the two thread switches of an
/// async hop cost on the server's 2 cores, and a reader is always free (the pool has more readers than Swift's
/// cooperative pool has threads). Writes go through `GroupCommit`: a write that has to wait suspends instead of
/// blocking a thread, and the writes that waited together commit together.
extension AppDatabase {
    func storeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try readOnThisThread(value)
        } catch let rejection as SyncRejection {
            throw rejection
        } catch {
            throw Self.storeError(from: error)
        }
    }

    /// `bulk`: a chunk of an import, committed alone and after the other writes waiting (`GroupCommit`).
    func storeWrite<T: Sendable>(bulk: Bool = false, _ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await groupCommit.write(bulk: bulk, updates)
        } catch let rejection as SyncRejection {
            // A refused sync push says which change and why; it is no store failure.
            throw rejection
        } catch {
            throw Self.storeError(from: error)
        }
    }

    /// GRDB's synchronous read. Being a synchronous function, it makes Swift pick GRDB's synchronous overload,
    /// which an async caller would not.
    func readOnThisThread<T>(_ value: (Database) throws -> T) throws -> T {
        try writer.read(value)
    }

    /// The next value of the database-wide change counter. Writes are serialized, so versions grow in commit
    /// order: a client that has seen version N has seen every change numbered below it.
    static func nextVersion(_ db: Database) throws -> Int64 {
        // One cached statement, prepared once per connection: every write of a meal, weight or profile comes
        // through here (a seed writes millions of rows; meal saves under load).
        let statement = try db.cachedStatement(sql: "UPDATE syncVersion SET value = value + 1 WHERE id = 1 RETURNING value")
        guard let version = try Int64.fetchOne(statement) else {
            throw StoreError.unavailable("The change counter is missing")
        }
        return version
    }

    /// Stores check their inputs before writing, so a constraint failure here is a race (a duplicate email, a
    /// user deleted meanwhile) or a bug; the messages say what happened without the SQL that found it.
    static func storeError(from error: any Error) -> StoreError {
        if let error = error as? StoreError { return error }
        guard let error = error as? DatabaseError else { return .unavailable("The store failed") }
        switch error.extendedResultCode {
        case .SQLITE_CONSTRAINT_UNIQUE, .SQLITE_CONSTRAINT_PRIMARYKEY:
            return .conflict("This already exists")
        case .SQLITE_CONSTRAINT_FOREIGNKEY:
            return .notFound("User not found")
        case .SQLITE_CONSTRAINT_CHECK, .SQLITE_CONSTRAINT_NOTNULL:
            return .invalid("Please check the values entered")
        default:
            break
        }
        StoreFailureLog.shared.record(failureCause(of: error), detail: "\(error.resultCode): \(error.message ?? "")")
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return .unavailable("The store is busy; please try again")
        default:
            return .unavailable("The store is unavailable (code \(error.resultCode.rawValue))")
        }
    }

    /// What SQLite's result code says about why the store failed (logged once per cause and minute; the health
    /// endpoint reports it).
    public static func failureCause(of error: DatabaseError) -> StoreFailureCause {
        switch error.resultCode {
        case .SQLITE_FULL: .diskFull
        case .SQLITE_READONLY: .readOnly
        case .SQLITE_BUSY, .SQLITE_LOCKED: .databaseLocked
        case .SQLITE_IOERR, .SQLITE_CANTOPEN: .ioError
        case .SQLITE_CORRUPT, .SQLITE_NOTADB: .corrupt
        default: .other
        }
    }

    /// The health endpoint's question, asked for real: a write transaction that commits (a row rewritten with its
    /// own value, so every commit's path is taken: the write lock, the WAL frame, its sync). Nil when it committed,
    /// else why not (recorded in `StoreFailureLog` like any store failure).
    public func probeWrite() async -> StoreFailureCause? {
        do {
            try await writer.write { db in
                try db.execute(sql: "UPDATE syncVersion SET value = value WHERE id = 1")
            }
            return nil
        } catch let error as DatabaseError {
            _ = Self.storeError(from: error)
            return Self.failureCause(of: error)
        } catch {
            return .other
        }
    }
}
