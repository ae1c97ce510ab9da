import Foundation
import Logging
import PostgresNIO
import WDietCore
import WDietStore

/// `JournalStore` on PostgreSQL. Writes are pushes of the `journal` collection's rows through `PostgresSyncStore`
/// (`JournalSyncWrites`); reads use `journal_entries`, the live entries as columns that a trigger keeps in step
/// with `sync_rows` (migration 20).
public struct PostgresJournalStore: JournalStore {
    let client: PostgresClient
    let logger: Logger
    let writes: JournalSyncWrites
    let rows: PostgresSyncStore

    public init(client: PostgresClient, now: @escaping @Sendable () -> Date = Date.init,
                logger: Logger = Logger(label: "wdiet.postgres.journal")) {
        self.client = client
        self.logger = logger
        rows = PostgresSyncStore(client: client, now: now)
        writes = JournalSyncWrites(sync: rows, now: now)
    }

    public func save(_ entry: JournalEntry, baseVersion: Int64?, userId: UUID, today: LocalDate) async throws -> StoredJournalEntry {
        try await writes.save(entry, baseVersion: baseVersion, userId: userId, today: today)
    }

    public func entry(userId: UUID, id: UUID) async throws -> StoredJournalEntry? {
        try await rows.row(userId: userId, collection: JournalEntry.collection, id: id).flatMap(StoredJournalEntry.init(item:))
    }

    public func entries(userId: UUID, from: LocalDate, through: LocalDate) async throws -> [StoredJournalEntry] {
        var binds = PostgresBindings()
        binds.append(userId)
        binds.append(PostgresLocalDate(from))
        binds.append(PostgresLocalDate(through))
        return try await fetch(where: "date BETWEEN $2 AND $3", binds)
    }

    public func allEntries(userId: UUID) async throws -> [JournalEntry] {
        var binds = PostgresBindings()
        binds.append(userId)
        return try await fetch(where: nil, binds).map(\.entry)
    }

    public func history(userId: UUID) async throws -> JournalHistory {
        // The two queries at once, on two of the pool's connections.
        async let counts = dayCounts(userId: userId, from: LocalDate(daysSinceEpoch: -25_567), through: LocalDate(daysSinceEpoch: 2_932_896))
        let descriptions = try await PostgresStoreErrors.guarded(logger) {
            var descriptions = Set<String>()
            let rows = try await client.query("SELECT DISTINCT description FROM journal_entries WHERE user_id = \(userId)", logger: logger)
            for try await description in rows.decode(String.self) { descriptions.insert(description) }
            return descriptions
        }
        return JournalHistory(dayCounts: try await counts, descriptions: descriptions)
    }

    public func count(userId: UUID) async throws -> Int {
        try await PostgresStoreErrors.guarded(logger) {
            let rows = try await client.query("SELECT count(*)::bigint FROM journal_entries WHERE user_id = \(userId)", logger: logger)
            for try await count in rows.decode(Int64.self) { return Int(count) }
            return 0
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
        // LIKE on `search_text` (description and raw input in lower case; a trigram index when the database has
        // pg_trgm, migration 21) narrows the rows; `JournalSearch` decides (the database's collation may fold
        // other letters differently from Swift).
        var binds = PostgresBindings()
        binds.append(userId)
        var clauses: [String] = []
        for pattern in search.likePatterns {
            binds.append(pattern)
            clauses.append("search_text LIKE $\(binds.count) ESCAPE '\\'")
        }
        let exact = search.patternsAreExact
        let rows = try await fetch(
            where: clauses.isEmpty ? nil : clauses.joined(separator: " AND "), binds, newestFirst: true,
            limit: exact ? limit : nil)
        return Array(rows.filter { search.matches($0.entry) }.prefix(limit))
    }

    public func dayCounts(userId: UUID, from: LocalDate, through: LocalDate) async throws -> [LocalDate: Int] {
        try await PostgresStoreErrors.guarded(logger) {
            let rows = try await client.query("""
                SELECT date, count(*)::bigint FROM journal_entries
                WHERE user_id = \(userId) AND date BETWEEN \(PostgresLocalDate(from)) AND \(PostgresLocalDate(through))
                GROUP BY date
                """, logger: logger)
            var counts: [LocalDate: Int] = [:]
            for try await (date, count) in rows.decode((PostgresLocalDate, Int64).self) { counts[date.localDate] = Int(count) }
            return counts
        }
    }

    public func addSampleData(userId: UUID, today: LocalDate, now: Date) async throws -> Int {
        let existing = try await rows.rows(userId: userId, collection: JournalEntry.collection, includingDeleted: true)
            .filter { $0.id.map(WireFormat.idText)?.hasPrefix("5a3e0000-") == true }
        return try await writes.addSampleData(existing: existing, userId: userId, today: today, now: now)
    }

    public func removeSampleData(userId: UUID) async throws -> Int {
        var binds = PostgresBindings()
        binds.append(userId)
        binds.append(JournalSearch.likeEscaped(JournalEntry.sampleMarker) + "%")
        let samples = try await fetch(where: "raw_input LIKE $2 ESCAPE '\\'", binds)
        return try await writes.removeSampleData(samples, userId: userId)
    }

    public func hasSampleData(userId: UUID) async throws -> Bool {
        try await PostgresStoreErrors.guarded(logger) {
            // PostgreSQL's LIKE keeps letter case, as `JournalEntry.isSample` does.
            let pattern = JournalSearch.likeEscaped(JournalEntry.sampleMarker) + "%"
            let rows = try await client.query("""
                SELECT EXISTS (SELECT 1 FROM journal_entries WHERE user_id = \(userId) AND raw_input LIKE \(pattern) ESCAPE '\\')
                """, logger: logger)
            for try await exists in rows.decode(Bool.self) { return exists }
            return false
        }
    }

    /// Live entries of the user (`$1`) from `journal_entries`, by day, time, creation and id (or the reverse).
    func fetch(where condition: String?, _ binds: PostgresBindings, newestFirst: Bool = false, limit: Int? = nil) async throws
        -> [StoredJournalEntry]
    {
        let order = newestFirst ? "date DESC, minute DESC, created_at DESC, id DESC" : "date, minute, created_at, id"
        let sql = """
            SELECT id, date, minute, created_at, updated_at, input_type, raw_input, description, category, media_ids, version
            FROM journal_entries WHERE user_id = $1\(condition.map { " AND " + $0 } ?? "") ORDER BY \(order)\(limit.map { " LIMIT \($0)" } ?? "")
            """
        return try await PostgresStoreErrors.guarded(logger) {
            let rows = try await client.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
            var result: [StoredJournalEntry] = []
            for try await row in rows {
                result.append(try Self.entry(row.makeRandomAccess()))
            }
            return result
        }
    }

    static func entry(_ row: PostgresRandomAccessRow) throws -> StoredJournalEntry {
        do {
            let minute = Int(try row[2].decode(Int32.self))
            guard let time = JournalTime(hour: minute / 60, minute: minute % 60),
                  let inputType = JournalInputType(rawValue: try row[5].decode(String.self)),
                  let mediaIds = JournalColumns.mediaIds(try row[9].decode(String.self))
            else { throw PostgresStoreErrors.unreadable }
            let entry = JournalEntry(
                id: try row[0].decode(UUID.self), date: try row[1].decode(PostgresLocalDate.self).localDate, time: time,
                inputType: inputType, rawInput: try row[6].decode(String.self), processedDescription: try row[7].decode(String.self),
                category: try row[8].decode(String?.self).flatMap(JournalCategory.init(rawValue:)), mediaIds: mediaIds,
                createdAt: try row[3].decode(PostgresInstant.self).date, updatedAt: try row[4].decode(PostgresInstant?.self)?.date)
            return StoredJournalEntry(entry: entry, version: try row[10].decode(Int64.self))
        } catch let error as StoreError {
            throw error
        } catch {
            throw PostgresStoreErrors.unreadable
        }
    }
}
