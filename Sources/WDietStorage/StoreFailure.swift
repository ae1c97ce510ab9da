import Foundation
import GRDB
import PostgresNIO
import WDietPostgres
import WDietSQLite

/// Why a database could not be used, as one line for the person who named it: what is wrong and what they can do.
/// It names only what they typed (the path, the URL without its password), never a stack, an internal path or
/// SQL. The error it comes from stays in `underlying`, for a log.
///
/// The command line and `wdiet serve` print these in English: their readers are operators (docs/strings.md).
public struct StoreFailure: Error, CustomStringConvertible {
    public let description: String
    public let underlying: (any Error)?

    public init(_ description: String, underlying: (any Error)? = nil) {
        self.description = description
        self.underlying = underlying
    }

    static let expectedForms = "a SQLite file or postgres://user[:password]@host[:port]/database"

    static let emptyLocation = StoreFailure("the database location is empty; expected \(expectedForms)")

    static func unsupportedScheme(_ scheme: String) -> StoreFailure {
        StoreFailure("the database URL starts with \(scheme)://, which wdiet does not speak; expected \(expectedForms)")
    }

    /// A command that needs the file to exist already (it reads, and creating an empty one would only hide a typo).
    public static func noDatabase(at path: String) -> StoreFailure {
        StoreFailure("no database at \(path)")
    }

    /// A command that works on SQLite files only, handed PostgreSQL; `instead` says what to do.
    public static func sqliteOnly(_ command: String, given location: StoreLocation, instead: String) -> StoreFailure {
        StoreFailure("`\(command)` works on a SQLite file, not on PostgreSQL (\(location)): \(instead)")
    }

    /// `error`, met while opening or using `location`, as one line.
    public static func explaining(_ error: any Error, at location: StoreLocation) -> StoreFailure {
        if let failure = error as? StoreFailure { return failure }
        switch error {
        case let error as WDietPostgres.PostgresDatabase.Failure:
            // The URL's mistake, a schema too new or not yet migrated: its text already says what to do.
            return StoreFailure("\(error)", underlying: error)
        case let error as AppDatabase.SchemaTooNew:
            return StoreFailure("\(error)", underlying: error)
        case let error as PostgresTransactionError:
            if let inner = error.closureError ?? error.beginError ?? error.commitError { return explaining(inner, at: location) }
            return cannotConnect(to: location, underlying: error)
        case let error as PSQLError:
            // The server's own words (a wrong password, a database that does not exist, a permission) name the
            // problem; postgres-nio's other errors print a generic text on purpose (no credentials).
            if let message = error.serverInfo?[.message] {
                return StoreFailure("PostgreSQL at \(server(of: location)) refused: \(message)", underlying: error)
            }
            return cannotConnect(to: location, underlying: error)
        case let error as DatabaseError:
            return StoreFailure("cannot use the SQLite database \(location): \(error.message ?? "\(error.resultCode)")", underlying: error)
        default:
            switch location {
            case .sqlite:
                return StoreFailure("cannot use the SQLite database \(location): \(error)", underlying: error)
            case .postgres:
                return cannotConnect(to: location, underlying: error)
            }
        }
    }

    static func cannotConnect(to location: StoreLocation, underlying: any Error) -> StoreFailure {
        StoreFailure(
            "cannot connect to PostgreSQL at \(server(of: location)): check that it is running and the URL's host, port, user, password and database",
            underlying: underlying)
    }

    /// `host:port/database`: where the person can look, without the user and password.
    static func server(of location: StoreLocation) -> String {
        guard let url = location.postgresURL, let configuration = try? WDietPostgres.PostgresDatabase.configuration(url: url) else {
            return "\(location)"
        }
        return "\(configuration.host ?? "?"):\(configuration.port ?? 5432)/\(configuration.database ?? "?")"
    }
}
