import Foundation
import GRDB
import WDietCore
import WDietStore

/// `JournalStore` on the SQLite gatekeeper. Writes are pushes of the `journal` collection's rows through
/// `SQLiteSyncStore` (`JournalSyncWrites`); reads use `journalEntries`, the live entries as columns that triggers
/// keep in step with `syncRows` (migration "v20-journal").
public struct SQLiteJournalStore: JournalStore {
    let database: AppDatabase
    let writes: JournalSyncWrites

    public init(database: AppDatabase, now: @escaping @Sendable () -> Date = Date.init) {
        self.database = database
        writes = JournalSyncWrites(sync: SQLiteSyncStore(database: database, now: now), now: now)
    }

    public func save(_ entry: JournalEntry, baseVersion: Int64?, userId: UUID, today: LocalDate) async throws -> StoredJournalEntry {
        try await writes.save(entry, baseVersion: baseVersion, userId: userId, today: today)
    }

    public func entry(userId: UUID, id: UUID) async throws -> StoredJournalEntry? {
        try await database.storeRead { db in try Self.entry(userId: userId, id: id, in: db) }
    }

    static func entry(userId: UUID, id: UUID, in db: Database) throws -> StoredJournalEntry? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM syncRows WHERE userId = ? AND collection = ? AND id = ?",
                                         arguments: [AppDatabase.idText(userId), JournalEntry.collection, AppDatabase.idText(id)])
        else { return nil }
        return try StoredJournalEntry(item: SQLiteSyncStore.rowItem(row))
    }

    public func entries(userId: UUID, from: LocalDate, through: LocalDate) async throws -> [StoredJournalEntry] {
        try await database.storeRead { db in
            try Self.fetch(db, where: "date BETWEEN ? AND ?", [from.iso, through.iso], userId: userId)
        }
    }

    public func allEntries(userId: UUID) async throws -> [JournalEntry] {
        try await database.storeRead { db in try Self.fetch(db, where: nil, [], userId: userId).map(\.entry) }
    }

    public func history(userId: UUID) async throws -> JournalHistory {
        try await database.storeRead { db in
            let user = AppDatabase.idText(userId)
            var counts: [LocalDate: Int] = [:]
            let days = try Row.fetchCursor(db.cachedStatement(sql: """
                SELECT date, COUNT(*) FROM journalEntries WHERE userId = ? GROUP BY date
                """), arguments: [user])
            while let row = try days.next() { counts[try AppDatabase.localDate(fromText: row[0])] = row[1] }
            let descriptions = try String.fetchSet(db.cachedStatement(sql: """
                SELECT DISTINCT description FROM journalEntries WHERE userId = ?
                """), arguments: [user])
            return JournalHistory(dayCounts: counts, descriptions: descriptions)
        }
    }

    public func count(userId: UUID) async throws -> Int {
        try await database.storeRead { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM journalEntries WHERE userId = ?", arguments: [AppDatabase.idText(userId)]) ?? 0
        }
    }

    public func delete(userId: UUID, id: UUID, baseVersion: Int64?) async throws -> StoredJournalEntry? {
        let current = try await entry(userId: userId, id: id)
        return try await writes.delete(current, userId: userId, id: id, baseVersion: baseVersion ?? current?.version)
    }

    public func restore(userId: UUID, id: UUID) async throws -> StoredJournalEntry {
        try await writes.restore(try await entry(userId: userId, id: id), userId: userId)
    }

    public func search(userId: UUID, query: String, limit: Int) async throws -> [StoredJournalEntry] {
        let search = JournalSearch(query)
        guard !search.words.isEmpty, limit > 0 else { return [] }
        // LIKE finds ASCII letters in any case; a word with other letters is narrowed by its ASCII runs and
        // matched by `JournalSearch` on the rows LIKE let through (without a row limit then).
        // A word holds no white space, so it is in the description or in the raw input, never across the two: each
        // is matched apart (no text built per row), the raw input only when it differs (a typed entry's is the same).
        let arguments = search.likePatterns.flatMap { [$0, $0] }
        let clauses = search.likePatterns.map { _ in
            "(description LIKE ? ESCAPE '\\' OR (rawInput <> description AND rawInput LIKE ? ESCAPE '\\'))"
        }
        let exact = search.patternsAreExact
        return try await database.storeRead { db in
            let rows = try Self.fetch(
                db, where: clauses.isEmpty ? nil : clauses.joined(separator: " AND "), arguments, userId: userId,
                newestFirst: true, limit: exact ? limit : nil, scanUser: true)
            return exact ? rows : Array(rows.filter { search.matches($0.entry) }.prefix(limit))
        }
    }

    public func dayCounts(userId: UUID, from: LocalDate, through: LocalDate) async throws -> [LocalDate: Int] {
        try await database.storeRead { db in
            var counts: [LocalDate: Int] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT date, COUNT(*) AS n FROM journalEntries WHERE userId = ? AND date BETWEEN ? AND ? GROUP BY date
                """, arguments: [AppDatabase.idText(userId), from.iso, through.iso]) {
                counts[try AppDatabase.localDate(fromText: row["date"])] = row["n"]
            }
            return counts
        }
    }

    public func addSampleData(userId: UUID, today: LocalDate, now: Date) async throws -> Int {
        let existing = try await database.storeRead { db in
            try Row.fetchAll(db, sql: """
                SELECT * FROM syncRows WHERE userId = ? AND collection = ? AND id LIKE '5a3e0000-%'
                """, arguments: [AppDatabase.idText(userId), JournalEntry.collection]).map(SQLiteSyncStore.rowItem)
        }
        return try await writes.addSampleData(existing: existing, userId: userId, today: today, now: now)
    }

    public func removeSampleData(userId: UUID) async throws -> Int {
        let samples = try await database.storeRead { db in
            try Self.fetch(db, where: Self.isSample, [JournalEntry.sampleMarker], userId: userId)
        }
        return try await writes.removeSampleData(samples, userId: userId)
    }

    public func hasSampleData(userId: UUID) async throws -> Bool {
        try await database.storeRead { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM journalEntries WHERE userId = ? AND \(Self.isSample))",
                              arguments: [AppDatabase.idText(userId), JournalEntry.sampleMarker]) ?? false
        }
    }

    /// A sample entry's raw input starts with the marker (the `?`), letter case as written: SQLite's LIKE ignores
    /// ASCII case, and an entry the person began with "[sample]" is theirs (`JournalEntry.isSample` keeps case).
    private static let isSample = "instr(rawInput, ?) = 1"

    /// Live entries of the user from `journalEntries`, by day, time, creation and id (or the reverse).
    static func fetch(
        _ db: Database, where condition: String?, _ arguments: [String], userId: UUID,
        newestFirst: Bool = false, limit: Int? = nil, scanUser: Bool = false
    ) throws -> [StoredJournalEntry] {
        var order = newestFirst ? "date DESC, minute DESC, createdAtMs DESC, id DESC" : "date, minute, createdAtMs, id"
        // `+date` keeps SQLite from ordering by the day index: it reads the user's rows in key order (no lookup
        // of each row from the index) and sorts what matched. A search then costs one pass over the user's rows
        // whatever the words (P50 5.5 ms, P95 7.1 ms at 10,000 entries) instead of an early stop for a common
        // word but a lookup per row for a rare one (P50 2.3 ms, P95 9.2 ms; docs/benchmarks.md).
        if scanUser { order = "+" + order }
        let sql = """
            SELECT id, date, minute, createdAtMs, updatedAtMs, inputType, rawInput, description, category, mediaIds, version
            FROM journalEntries WHERE userId = ?\(condition.map { " AND " + $0 } ?? "") ORDER BY \(order)\(limit.map { " LIMIT \($0)" } ?? "")
            """
        let all = [AppDatabase.idText(userId)] + arguments
        let cursor = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: StatementArguments(all))
        var result: [StoredJournalEntry] = []
        while let row = try cursor.next() {
            result.append(try entry(row))
        }
        return result
    }

    private static func entry(_ row: Row) throws -> StoredJournalEntry {
        guard let id = AppDatabase.uuid(row[0]), let date = LocalDate(iso: row[1]),
              let time = JournalTime(hour: (row[2] as Int) / 60, minute: (row[2] as Int) % 60),
              let inputType = JournalInputType(rawValue: row[5]),
              let mediaIds = JournalColumns.mediaIds(row[9])
        else { throw AppDatabase.unreadable }
        let category: String? = row[8]
        let updatedMs: Int64? = row[4]
        let entry = JournalEntry(
            id: id, date: date, time: time, inputType: inputType, rawInput: row[6], processedDescription: row[7],
            category: category.flatMap(JournalCategory.init(rawValue:)), mediaIds: mediaIds,
            createdAt: JournalColumns.instant(ms: row[3]), updatedAt: updatedMs.map(JournalColumns.instant(ms:)))
        return StoredJournalEntry(entry: entry, version: row[10])
    }
}
