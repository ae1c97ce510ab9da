import Foundation
import PostgresNIO
import WDietStore

/// Users for the account-side suites on PostgreSQL: a plain INSERT into `users` with the shared conventions
/// (version 1, counter at 1, instants in whole milliseconds). Stands in for the coach's `PostgresUserStore`,
/// which another branch writes; only `createUser` is used.
struct PostgresTestUserStore: UserStore {
    let client: PostgresClient
    let now: @Sendable () -> Date

    func createUser(id: UUID, email: String?, displayName: String) async throws -> User {
        let milliseconds = Int64((now().timeIntervalSince1970 * 1_000).rounded())
        let stamp = Date(timeIntervalSince1970: Double(milliseconds) / 1_000)
        try await client.query("""
            INSERT INTO users (id, email, display_name, created_at, updated_at, version, last_version)
            VALUES (\(id), \(email), \(displayName), to_timestamp(\(milliseconds) / 1000.0), to_timestamp(\(milliseconds) / 1000.0), 1, 1)
            """)
        return User(id: id, email: email, displayName: displayName, createdAt: stamp, updatedAt: stamp, version: 1)
    }

    func user(id: UUID) async throws -> User? {
        throw StoreError.unavailable("PostgresTestUserStore only creates users")
    }

    func user(email: String) async throws -> User? {
        throw StoreError.unavailable("PostgresTestUserStore only creates users")
    }
}
