import Foundation
import Logging
import PostgresNIO
import Testing
@testable import WDietPostgres
import WDietStore
import WDietTestSupport

/// A store's own refusal thrown inside a transaction ("This account already has data") reaches PostgresStoreAccess
/// wrapped in PostgresNIO's `PostgresTransactionError`. It was logged as "PostgreSQL store query failed" at error
/// level for every refused import; only what PostgreSQL or the way to it did wrong is a failure.
@Suite struct StoreRefusalLoggingTests {
    static func transactionError(_ client: PostgresClient, throwing thrown: any Error) async -> (any Error)? {
        do {
            _ = try await client.withTransaction(logger: Logger(label: "wdiet-test")) { connection -> Int in
                _ = try await connection.query("SELECT 1", logger: Logger(label: "wdiet-test"))
                throw thrown
            }
            return nil
        } catch {
            return error
        }
    }

    @Test func aRefusalInsideATransactionIsNotAFailure() async throws {
        try await StoreBackend.postgres.withCoachStores { stores in
            guard case .postgres(let client) = stores.database else { Issue.record("not PostgreSQL"); return }
            let refusal = StoreError.conflict("This account already has data")
            let refused = try #require(await Self.transactionError(client, throwing: refusal))
            #expect(refused is PostgresTransactionError)
            #expect(PostgresStoreAccess.isStoresOwnRefusal(refused))
            #expect(PostgresStoreAccess.isStoresOwnRefusal(refusal))

            // A statement PostgreSQL refuses is a failure, inside a transaction or not.
            let failed: (any Error)?
            do {
                _ = try await client.withTransaction(logger: Logger(label: "wdiet-test")) { connection -> Int in
                    _ = try await connection.query("SELECT * FROM no_such_table", logger: Logger(label: "wdiet-test"))
                    return 0
                }
                failed = nil
            } catch {
                failed = error
            }
            let failure = try #require(failed)
            #expect(!PostgresStoreAccess.isStoresOwnRefusal(failure))
            #expect(!PostgresStoreAccess.isStoresOwnRefusal(CancellationError()))
        }
    }
}
