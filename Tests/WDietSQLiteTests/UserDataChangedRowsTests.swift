import Foundation
import GRDB
import Testing
import WDietCore
import WDietSQLite
import WDietStore
import WDietTestSupport

/// `UserDataChanges.changedRows`, the SQLite generation the Challenge's kept snapshot goes by: it counts the user's
/// changed rows, not transactions, so a save that finds it exactly one past a kept entry's knows that its own row
/// was the only change since (`ChallengeService.saveDay`), even when writes share one transaction (`GroupCommit`).
@Suite("User data changed rows")
struct UserDataChangedRowsTests {
    static let noon = Fixtures.utc("2026-03-01T11:00:00Z")

    static func habits(_ challengeId: UUID, _ day: String, sleep: Bool) throws -> SyncChange {
        let log = ChallengeHabitsLog(challengeId: challengeId, date: LocalDate(iso: day)!, water: true, steps: true, sleep: sleep, createdAt: noon)
        return SyncChange(idempotencyKey: UUID().uuidString, entity: .row, op: .upsert, id: log.id,
                          collection: ChallengeHabitsLog.collection, data: try SyncRules.rowData(log))
    }

    @Test("two rows in one transaction move the count by 2 and the generation by 1; one row by 1; a push that changes nothing, a rollback and another user's row by 0")
    func countsRows() async throws {
        let stores = try CoachTestStores()
        let user = try await DashboardInputsCacheTests.userWithProfile(stores)
        let other = try await DashboardInputsCacheTests.userWithProfile(stores)
        let sync = SQLiteSyncStore(database: stores.database, now: { Self.noon })
        let changes = stores.database.userDataChanges
        let (rows, generation) = (changes.changedRows(ofUser: user), changes.generation(ofUser: user))
        let challengeId = UUID()

        // One push of two changes: one transaction, two rows.
        let two = try await sync.push([try Self.habits(challengeId, "2026-03-01", sleep: true), try Self.habits(challengeId, "2026-03-02", sleep: true)], userId: user)
        #expect(two.map(\.status) == [.applied, .applied])
        #expect(changes.changedRows(ofUser: user) == rows + 2)
        #expect(changes.generation(ofUser: user) == generation + 1)

        // One row changed.
        _ = try await sync.push([try Self.habits(challengeId, "2026-03-01", sleep: false)], userId: user)
        #expect(changes.changedRows(ofUser: user) == rows + 3)
        #expect(changes.generation(ofUser: user) == generation + 2)

        // The same data again changes no row.
        let same = try await sync.push([try Self.habits(challengeId, "2026-03-01", sleep: false)], userId: user)
        #expect(same.map(\.status) == [.applied])
        #expect(changes.changedRows(ofUser: user) == rows + 3)

        // A rolled-back transaction and another user's row leave the count as it was.
        struct Abandon: Error {}
        await #expect(throws: Abandon.self) {
            try await stores.database.writer.write { db in
                try db.execute(sql: "UPDATE syncRows SET updatedAt = updatedAt WHERE userId = ?", arguments: [user.uuidString.lowercased()])
                throw Abandon()
            }
        }
        _ = try await sync.push([try Self.habits(challengeId, "2026-03-01", sleep: true)], userId: other)
        #expect(changes.changedRows(ofUser: user) == rows + 3)
        #expect(changes.generation(ofUser: user) == generation + 2)
    }
}
