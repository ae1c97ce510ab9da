import Foundation

/// `postgres://user[:password]@host[:port]/database[?sslmode=disable|prefer|require]`, taken apart once for the pool
/// and for a single connection (`PostgresDatabase.probe`). Errors say what is wrong without repeating the password.
struct PostgresURL {
    enum SSLMode { case disable, prefer, require }

    var host: String
    var port: Int
    var user: String
    var password: String?
    var database: String
    var sslMode: SSLMode

    init(_ url: String) throws {
        typealias Failure = PostgresDatabase.Failure
        guard let parts = URLComponents(string: url) else { throw Failure.badURL("is not a URL") }
        guard let scheme = parts.scheme?.lowercased(), ["postgres", "postgresql"].contains(scheme) else {
            throw Failure.badURL("must start with postgres://")
        }
        guard let host = parts.host, !host.isEmpty else { throw Failure.badURL("has no host") }
        guard let user = parts.user, !user.isEmpty else { throw Failure.badURL("has no user name") }
        let database = parts.path.hasPrefix("/") ? String(parts.path.dropFirst()) : parts.path
        guard !database.isEmpty, !database.contains("/") else { throw Failure.badURL("has no database name") }
        var sslMode = SSLMode.disable
        for item in parts.queryItems ?? [] {
            switch (item.name, item.value) {
            case ("sslmode", "disable"?): sslMode = .disable
            case ("sslmode", "prefer"?): sslMode = .prefer
            case ("sslmode", "require"?): sslMode = .require
            default: throw Failure.badURL("has an unsupported option \(item.name) (only sslmode=disable|prefer|require)")
            }
        }
        self.host = host
        port = parts.port ?? 5432
        self.user = user
        password = parts.password
        self.database = database
        self.sslMode = sslMode
    }
}
