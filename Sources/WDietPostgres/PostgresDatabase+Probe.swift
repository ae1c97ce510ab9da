import Foundation
import Logging
import PostgresNIO

extension PostgresDatabase {
    /// Makes one connection to the URL's database and closes it, to learn at once why a database cannot be used.
    /// The pool retries a failing connection behind a circuit breaker and then reports only that it tripped, about
    /// a minute later; one connection fails within its connect timeout, with the server's reason (a wrong password,
    /// a database that does not exist) or the network's.
    public static func probe(url: String, logger: Logger) async throws {
        let parts = try PostgresURL(url)
        let tls: PostgresConnection.Configuration.TLS = switch parts.sslMode {
        case .disable: .disable
        case .prefer: .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require: .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
        let configuration = PostgresConnection.Configuration(
            host: parts.host, port: parts.port, username: parts.user, password: parts.password, database: parts.database, tls: tls)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
        try? await connection.close()
    }
}
