import Foundation
import PostgresNIO
import WDietStore

/// `UserDataStore` on PostgreSQL. (Placeholder until its implementation lands: every call says the feature is not
/// available on this server, a 503, rather than pretending.)
public struct PostgresUserDataStore: UserDataStore {
    let client: PostgresClient
    let now: @Sendable () -> Date

    public init(client: PostgresClient, now: @escaping @Sendable () -> Date = Date.init) {
        self.client = client
        self.now = now
    }

    static let unavailable = StoreError.unavailable("Exporting and deleting data is not available on this server yet.")

    public func exportUserData(userId: UUID) async throws -> UserDataExport { throw Self.unavailable }
    public func importUserData(_ data: UserDataExport, into userId: UUID) async throws -> UserDataImportSummary { throw Self.unavailable }
    public func deleteAccount(userId: UUID, loginThrottleKeys: [String]) async throws -> Bool { throw Self.unavailable }
}
