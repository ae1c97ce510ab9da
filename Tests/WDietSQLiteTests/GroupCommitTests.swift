import Foundation
import GRDB
import Testing
import WDietCore
import WDietStore
import WDietTestSupport
@testable import WDietSQLite

@Suite("Group commit: writes that wait together commit together, and fail alone")
struct GroupCommitTests {
    /// Counts the transactions the writer commits.
    final class CommitCounter: TransactionObserver, @unchecked Sendable {
        private let lock = NSLock()
        private var commits = 0
        var count: Int { lock.withLock { commits } }
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
        func databaseDidChange(with event: DatabaseEvent) {}
        func databaseDidCommit(_ db: Database) { lock.withLock { commits += 1 } }
        func databaseDidRollback(_ db: Database) {}
    }

    struct Refused: Error {}

    @Test("three writes queued behind a slow one: one transaction; the one that throws is rolled back alone")
    func batchWithAFailure() async throws {
        let database = try AppDatabase.inMemory()
        try await database.writer.write { db in try db.execute(sql: "CREATE TABLE notes (text TEXT NOT NULL)") }
        let counter = CommitCounter()
        database.writer.add(transactionObserver: counter)

        // The first write holds the writer until the other three are queued behind it.
        let release = DispatchSemaphore(value: 0)
        let slow = Task { try await database.groupCommit.write { db in
            release.wait()
            try db.execute(sql: "INSERT INTO notes VALUES ('first')")
        } }
        try await Task.sleep(for: .milliseconds(50))
        let a = Task { try await database.groupCommit.write { db in try db.execute(sql: "INSERT INTO notes VALUES ('a')"); return 1 } }
        let b = Task { try await database.groupCommit.write { db -> Int in
            try db.execute(sql: "INSERT INTO notes VALUES ('b')")
            throw Refused()
        } }
        let c = Task { try await database.groupCommit.write { db in try db.execute(sql: "INSERT INTO notes VALUES ('c')"); return 3 } }
        try await Task.sleep(for: .milliseconds(50))
        release.signal()

        try await slow.value
        #expect(try await a.value == 1)
        await #expect(throws: Refused.self) { try await b.value }
        #expect(try await c.value == 3)
        let notes = try await database.writer.read { db in try String.fetchAll(db, sql: "SELECT text FROM notes ORDER BY text") }
        #expect(notes == ["a", "c", "first"])
        // The slow write alone, then a, b and c together.
        #expect(counter.count == 2)
    }

    @Test("bulk writes (an import's chunks) commit alone, after the other writes that waited with them")
    func bulkWritesGoAloneAndLast() async throws {
        let database = try AppDatabase.inMemory()
        try await database.writer.write { db in try db.execute(sql: "CREATE TABLE notes (text TEXT NOT NULL)") }
        let counter = CommitCounter()
        database.writer.add(transactionObserver: counter)
        let commit = database.groupCommit

        // The first write holds the writer while the others queue in a known order: chunk 1, save a, chunk 2, save b.
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let slow = Task { try await commit.write { db in
            started.signal()
            release.wait()
            try db.execute(sql: "INSERT INTO notes VALUES ('first')")
        } }
        // Blocks this thread, not the writer's queue (where the slow write runs).
        started.wait()
        var queued: [Task<Void, any Error>] = []
        for (text, bulk) in [("chunk 1", true), ("save a", false), ("chunk 2", true), ("save b", false)] {
            let expected = queued.count + 1
            queued.append(Task { try await commit.write(bulk: bulk) { db in try db.execute(sql: "INSERT INTO notes VALUES (?)", arguments: [text]) } })
            while commit.waitingCount < expected { await Task.yield() }
        }
        release.signal()
        try await slow.value
        for task in queued { try await task.value }

        let notes = try await database.writer.read { db in try String.fetchAll(db, sql: "SELECT text FROM notes ORDER BY rowid") }
        // The saves overtake the chunks that came before them, and commit together; each chunk commits alone.
        #expect(notes == ["first", "save a", "save b", "chunk 1", "chunk 2"])
        #expect(counter.count == 4)
    }

    @Test("200 meals saved at once by 20 users: every one stored once, under 200 distinct versions")
    func concurrentMealSaves() async throws {
        let stores = try CoachTestStores()
        var created: [UUID] = []
        for _ in 0..<20 { created.append(try await stores.makeUser()) }
        let users = created
        let zone = Fixtures.zone("UTC")
        let at = Fixtures.utc("2026-03-01T12:00:00Z")
        let saved = try await withThrowingTaskGroup(of: StoredMeal.self) { group in
            for index in 0..<200 {
                group.addTask {
                    try await stores.meals.saveMeal(Meal(name: "Meal \(index)", kcal: 100 + Double(index), loggedAt: at), userId: users[index % 20], timeZone: zone)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(saved.count == 200)
        #expect(Set(saved.map(\.version)).count == 200)
        for user in users {
            #expect(try await stores.meals.meals(userId: user, on: Fixtures.date("2026-03-01")).count == 10)
        }
    }
}
