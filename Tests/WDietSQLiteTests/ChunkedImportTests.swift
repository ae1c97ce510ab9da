import Foundation
import GRDB
import Testing
import WDietCore
@testable import WDietSQLite
import WDietStore

/// Issue 21 item 3 on SQLite: an import is written in chunks of `importChunk` rows, each its own write, so other
/// users' saves go between them instead of waiting for the whole import (before: one transaction; four 8 MB imports
/// made another user's meal save wait 36 s). Still all or nothing to the person: a failure or a crash is undone.
@Suite struct ChunkedImportTests {
    static let utc = TimeZone(identifier: "UTC")!

    @Test func anotherUsersSavesLandBetweenTheChunksOfAnImport() async throws {
        let database = try AppDatabase.inMemory()
        let accounts = SQLiteAccountStore(database: database)
        let meals = SQLiteMealStore(database: database)
        let userData = SQLiteUserDataStore(database: database)
        let owner = try await accounts.createAccount(id: UUID(), email: "owner@example.org", displayName: "O", passwordHash: "x").id
        let importer = try await accounts.createAccount(id: UUID(), email: "importer@example.org", displayName: "I", passwordHash: "x").id
        let bob = try await accounts.createAccount(id: UUID(), email: "bob@example.org", displayName: "B", passwordHash: "x").id
        let start = Date(timeIntervalSince1970: 1_780_000_000)
        _ = try await meals.saveMeals((0..<2_000).map { index in
            Meal(name: "Meal \(index)", kcal: 400, loggedAt: start.addingTimeInterval(Double(index) * 3_600))
        }, userId: owner, timeZone: Self.utc)
        let export = try await userData.exportUserData(userId: owner)

        let done = Flag()
        let importing = Task {
            defer { done.set() }
            return try await userData.importUserData(export, into: importer)
        }
        var saved = 0
        repeat {
            _ = try await meals.saveMeal(Meal(name: "Bob's apple", kcal: 95, loggedAt: start), userId: bob, timeZone: Self.utc)
            saved += 1
        } while saved < 5_000 && !done.isSet
        let summary = try await importing.value
        #expect(summary.meals == 2_000)

        let versions = try await database.writer.read { db in
            (
                imported: try Int64.fetchAll(db, sql: "SELECT version FROM meals WHERE userId = ? ORDER BY version", arguments: [WireFormat.idText(importer)]),
                bob: try Int64.fetchAll(db, sql: "SELECT version FROM meals WHERE userId = ?", arguments: [WireFormat.idText(bob)])
            )
        }
        let first = try #require(versions.imported.first), last = try #require(versions.imported.last)
        #expect(versions.imported.count == 2_000)
        // One transaction would number the 2,000 meals without a gap; chunks let Bob's saves in between.
        let between = versions.bob.filter { $0 > first && $0 < last }
        #expect(!between.isEmpty, "none of Bob's \(versions.bob.count) saves landed inside the import (\(first)…\(last))")
        #expect(last - first + 1 == 2_000 + Int64(between.count))
    }

    @Test func anImportACrashCutShortIsUndoneAtTheNextStart() async throws {
        let database = try AppDatabase.inMemory()
        let accounts = SQLiteAccountStore(database: database)
        let meals = SQLiteMealStore(database: database)
        let ana = try await accounts.createAccount(id: UUID(), email: "ana@example.org", displayName: "A", passwordHash: "x").id
        let bob = try await accounts.createAccount(id: UUID(), email: "bob@example.org", displayName: "B", passwordHash: "x").id
        let at = Date(timeIntervalSince1970: 1_780_000_000)
        _ = try await meals.saveMeal(Meal(name: "Bob's apple", kcal: 95, loggedAt: at), userId: bob, timeZone: Self.utc)
        // What a process stopped between two chunks leaves: Ana's mark, the chunks written so far and the record of
        // their change versions (as the import writes it) — and a meal Ana saved from her phone between two chunks.
        let importId = UUID().uuidString.lowercased()
        try await database.writer.write { db in
            try db.execute(sql: "INSERT INTO rateLimitEvents (id, userId, action, occurredAt) VALUES (?, ?, 'import-running', '2026-03-01T09:00:00.000Z')",
                           arguments: [importId, WireFormat.idText(ana)])
        }
        let before = try await database.writer.read { db in try SQLiteUserDataStore.changeCounter(db) }
        _ = try await meals.saveMeals((0..<3).map { Meal(name: "Imported \($0)", kcal: 300, loggedAt: at.addingTimeInterval(Double($0) * 86_400)) },
                                      userId: ana, timeZone: Self.utc)
        try await database.writer.write { db in
            try SQLiteUserDataStore.recordImported(db, importId: importId, userId: WireFormat.idText(ana), after: before)
        }
        let phoneDay = at.addingTimeInterval(10 * 86_400)
        _ = try await meals.saveMeal(Meal(name: "Ana's phone lunch", kcal: 550, loggedAt: phoneDay), userId: ana, timeZone: Self.utc)
        #expect(try await meals.meals(userId: ana, on: LocalDate(at, in: Self.utc)).count == 1)

        #expect(try await SQLiteUserDataStore(database: database).removeUnfinishedImports() == 1)

        let left = try await database.writer.read { db in
            (
                ana: try String.fetchAll(db, sql: "SELECT name FROM meals WHERE userId = ?", arguments: [WireFormat.idText(ana)]),
                chunks: try Int.fetchOne(db, sql: "SELECT count(*) FROM importChunks") ?? -1,
                bob: try Int.fetchOne(db, sql: "SELECT count(*) FROM meals WHERE userId = ?", arguments: [WireFormat.idText(bob)]) ?? -1,
                days: try Int.fetchOne(db, sql: "SELECT count(*) FROM loggedDays WHERE userId = ?", arguments: [WireFormat.idText(ana)]) ?? -1,
                marks: try Int.fetchOne(db, sql: "SELECT count(*) FROM rateLimitEvents WHERE action = 'import-running'") ?? -1
            )
        }
        // The imported meals and their logged days are gone; the meal Ana saved meanwhile, and its day, stay.
        #expect(left.ana == ["Ana's phone lunch"])
        #expect(left.days == 1)
        #expect(left.marks == 0)
        #expect(left.chunks == 0)
        #expect(left.bob == 1)
        #expect(try await SQLiteUserDataStore(database: database).removeUnfinishedImports() == 0)
    }
}

/// Set once by the import's task, read by the loop that saves beside it.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
