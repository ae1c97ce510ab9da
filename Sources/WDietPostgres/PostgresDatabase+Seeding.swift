import Foundation
import PostgresNIO

extension PostgresDatabase {
    /// How many users the database holds: `wdiet-dev seed` refuses to add a benchmark population to a database in use.
    public func userCount() async throws -> Int {
        let rows = try await client.query("SELECT count(*)::bigint FROM users", logger: logger)
        for try await count in rows.decode(Int64.self) { return Int(count) }
        return 0
    }

    /// Removes every user and, by cascade, everything they own (`wdiet-dev seed --force`); the food catalog stays.
    public func removeAllUsers() async throws {
        try await client.execute("TRUNCATE users CASCADE", logger: logger)
    }
}
