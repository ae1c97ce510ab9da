import Foundation
import GRDB
import Testing
import WDietCore
import WDietSQLite
import WDietStore
import WDietTestSupport

/// A file database checkpoints from its own connection; the writer does not, and nothing written is lost.
@Suite("WAL checkpoints off the write path")
struct WALCheckpointTests {
    @Test("the writer's automatic checkpoint is off, readers map the file, and a thousand saves survive reopening")
    func writerAndReopen() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-wal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("wal.sqlite").path
        let user = UUID()
        let start = Fixtures.utc("2026-03-01T08:00:00Z")
        let meals = (0..<1_000).map { Meal(name: "Meal \($0)", kcal: Double(100 + $0), loggedAt: start.addingTimeInterval(Double($0) * 60)) }

        do {
            let database = try AppDatabase.open(path: path)
            let autocheckpoint = try await database.writer.write { db in try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") }
            #expect(autocheckpoint == 0)
            let mapped = try await database.writer.read { db in try Int.fetchOne(db, sql: "PRAGMA mmap_size") }
            #expect((mapped ?? 0) > 0)
            _ = try await SQLiteUserStore(database: database).createUser(id: user, email: nil, displayName: "WAL")
            let store = SQLiteMealStore(database: database)
            for meal in meals { _ = try await store.saveMeal(meal, userId: user, timeZone: Fixtures.zone("UTC")) }
        }

        let reopened = try AppDatabase.open(path: path)
        let count = try await reopened.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM meals WHERE userId = ?", arguments: [user.uuidString.lowercased()]) }
        #expect(count == 1_000)
        let days = try await SQLiteLoggedDayStore(database: reopened).latestRun(userId: user, through: Fixtures.date("2026-03-01"))
        #expect(days.count == 1)
    }
}
