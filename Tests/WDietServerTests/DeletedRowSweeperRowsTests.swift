import Foundation
import Logging
import Testing
import WDietCore
import WDietPostgres
import WDietSQLite
import WDietStore
import WDietTestSupport
@testable import WDietServer

/// `wdiet serve`'s sweep takes generic sync rows in batches too (issue 21 item 8, second half): a full batch of rows
/// alone makes it go on.
@Suite struct DeletedRowSweeperRowsTests {
    @Test(arguments: StoreBackend.allCases)
    func sweepsEveryBatchOfGenericRows(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            // 502 free-form rows written 2026-03-01T09:00Z; 501 deleted then (more than one batch of 500), one a day later.
            let ids = (0..<502).map { _ in UUID() }
            _ = try await stores.sync.push(ids.enumerated().map { i, id in
                SyncChange(idempotencyKey: "c\(i)", entity: .row, op: .upsert, id: id, collection: "notes",
                           data: .object(["id": .string(id.uuidString), "text": .string("Note \(i)")]))
            }, userId: user)
            _ = try await stores.sync.push(ids.dropLast().enumerated().map { i, id in
                .delete(.row, id: id, collection: "notes", key: "d\(i)")
            }, userId: user)
            stores.clock.advance(seconds: 86_400)
            _ = try await stores.sync.push([.delete(.row, id: ids[501], collection: "notes", key: "last")], userId: user)
            stores.clock.advance(seconds: 30 * 86_400 - 60)  // 2026-04-01T08:59Z: 30 days and 23:59 after the first
            let store: any DeletedRowStore = switch stores.database {
            case .sqlite(let database): SQLiteDeletedRowStore(database: database, now: stores.clock.closure)
            case .postgres(let client): PostgresDeletedRowStore(client: client, now: stores.clock.closure)
            }
            let sweeper = DeletedRowSweeper(store: store, now: stores.clock.closure, logger: Logger(label: "test"))

            // 501 rows; the replay results of the 502 creations and 501 deletions (the last deletion's is a day younger).
            #expect(await sweeper.sweep() == DeletedRowSweep(rowsScrubbed: 501, replayResultsRemoved: 1_003))
            #expect(await sweeper.sweep() == DeletedRowSweep())
            let last = try await stores.sync.row(userId: user, collection: "notes", id: ids[501])
            #expect(last?.data == .object(["id": .string(ids[501].uuidString), "text": .string("Note 501")]))
            #expect(try await stores.sync.row(userId: user, collection: "notes", id: ids[500])?.isScrubbedTombstone == true)
        }
    }
}
