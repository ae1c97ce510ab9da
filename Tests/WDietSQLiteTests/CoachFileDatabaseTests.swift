import Foundation
import GRDB
import Testing
import WDietCore
import WDietSQLite
import WDietStore
import WDietTestSupport

@Suite struct CoachFileDatabaseTests {
    @Test func aFileDatabaseRunsInWALModeAndKeepsWhatWasSaved() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-coach-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("coach.sqlite").path
        let user = UUID()
        let meal = Meal(name: "Stew", kcal: 540, loggedAt: Fixtures.utc("2026-03-01T18:00:00Z"))

        do {
            let database = try AppDatabase.open(path: path)
            let mode = try await database.writer.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
            #expect(mode == "wal")
            // The writer trims a WAL that a burst of saves grew past 64 MB when it next starts it over (measured:
            // 828 MB after 8 s of meal saves, 64 MB after the next save once the load had stopped).
            let limit = try await database.writer.write { db in try Int.fetchOne(db, sql: "PRAGMA journal_size_limit") }
            #expect(limit == 67_108_864)
            _ = try await SQLiteUserStore(database: database).createUser(id: user, email: nil, displayName: "File")
            _ = try await SQLiteMealStore(database: database).saveMeal(meal, userId: user, timeZone: Fixtures.zone("UTC"))
        }

        // Opening again migrates nothing new and finds the meal.
        let reopened = try AppDatabase.open(path: path)
        let meals = try await SQLiteMealStore(database: reopened).meals(userId: user, on: Fixtures.date("2026-03-01"))
        #expect(meals.map(\.meal) == [meal])
        let migrations = try await reopened.writer.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }
        #expect(migrations.filter { $0 == "v1-coach" }.count == 1)
    }
}
