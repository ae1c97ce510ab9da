import Foundation
import WDietPostgres

/// Where a program's database is, as the person named it: a SQLite file or a PostgreSQL database. Every command
/// reads it the same way, once, at the edge (`resolve(option:)`: `--database`, else `$WDIET_DATABASE_URL`, else
/// `wdiet.sqlite`), and opens it with `open(_:)`; a mistake in it is found here, before anything is opened.
public enum StoreLocation: Sendable, Hashable, CustomStringConvertible {
    /// A SQLite file, as the person typed it (relative paths are relative to the working directory).
    case sqlite(path: String)
    /// `postgres://user[:password]@host[:port]/database[?sslmode=…]`, checked to be well formed.
    case postgres(url: String)

    public static let environmentVariable = "WDIET_DATABASE_URL"
    public static let defaultSQLitePath = "wdiet.sqlite"

    /// `text` as a location: a `postgres://` or `postgresql://` URL (any case) is PostgreSQL and must be complete;
    /// another `scheme://` is refused rather than taken for a file name; anything else is a SQLite file.
    public init(_ text: String) throws(StoreFailure) {
        guard !text.isEmpty else { throw .emptyLocation }
        guard let scheme = Self.urlScheme(of: text) else {
            self = .sqlite(path: text)
            return
        }
        guard ["postgres", "postgresql"].contains(scheme) else { throw .unsupportedScheme(scheme) }
        do {
            _ = try PostgresDatabase.configuration(url: text)
        } catch {
            // `PostgresDatabase.Failure.badURL`: says what is missing, never the password.
            throw StoreFailure("\(error)", underlying: error)
        }
        self = .postgres(url: text)
    }

    /// The option when given, else `$WDIET_DATABASE_URL` (empty counts as unset), else `defaultPath`.
    public static func resolve(
        option: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
        defaultPath: String = defaultSQLitePath
    ) throws(StoreFailure) -> StoreLocation {
        if let option { return try StoreLocation(option) }
        if let fromEnvironment = environment[environmentVariable], !fromEnvironment.isEmpty {
            return try StoreLocation(fromEnvironment)
        }
        return try StoreLocation(defaultPath)
    }

    public var isPostgres: Bool {
        if case .postgres = self { return true }
        return false
    }

    /// The SQLite file, or nil on PostgreSQL.
    public var sqlitePath: String? {
        if case .sqlite(let path) = self { return path }
        return nil
    }

    /// The PostgreSQL URL, or nil for a SQLite file.
    public var postgresURL: String? {
        if case .postgres(let url) = self { return url }
        return nil
    }

    /// What to show the person: the path as they typed it, or the URL without its password.
    public var description: String {
        switch self {
        case .sqlite(let path):
            return path
        case .postgres(let url):
            guard var parts = URLComponents(string: url) else { return "the PostgreSQL database" }
            parts.password = nil
            return parts.string ?? "the PostgreSQL database"
        }
    }

    /// The lowercased scheme of `scheme://…`, or nil when the text is not shaped like a URL (a path may hold a
    /// colon, as in `backups/wdiet:2026.sqlite`, but not `://` after letters alone).
    static func urlScheme(of text: String) -> String? {
        guard let separator = text.range(of: "://") else { return nil }
        let scheme = text[..<separator.lowerBound]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return scheme.lowercased()
    }
}
