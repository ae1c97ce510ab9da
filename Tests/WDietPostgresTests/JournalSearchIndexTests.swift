import Foundation
import PostgresNIO
import Testing
import WDietCore
import WDietPostgres
import WDietStore
import WDietTestSupport

/// PostgreSQL's journal search (migration 21, docs/journal.md "Search"): `search_text` is the description and raw
/// input in lower case, and a trigram index over it per user finds a rare word's rows. The test cluster is a fresh
/// `initdb` of Debian's PostgreSQL, which carries the contrib extensions pg_trgm and btree_gin.
@Suite struct JournalSearchIndexTests {
    @Test func searchTextIsKeptByTheDatabaseAndARareWordIsFoundThroughTheTrigramIndex() async throws {
        let scratch = try await PostgresScratchDatabase.create()
        defer { Task { await scratch.drop() } }
        let client = scratch.client
        let user = UUID()
        _ = try await PostgresUserStore(client: client).createUser(id: user, email: nil, displayName: "Search")
        let today = LocalDate(daysSinceEpoch: 20_522)  // 10 March 2026
        let dishes = ["Idli and sambar", "Dal, rice and salad", "Masala dosa", "Poha with peanuts", "Banana"]
        var entries: [JournalEntry] = []
        for index in 0..<2_000 {
            let day = today.adding(days: -(index / 4))
            let description = index % 700 == 3 ? "Quinoa bowl with AVOCADO" : dishes[index % dishes.count]
            entries.append(JournalEntry(
                date: day, time: JournalTime(hour: 8 + index % 4 * 4, minute: 0)!, inputType: .text, rawInput: description,
                processedDescription: description, category: nil,
                createdAt: JournalTime.instant(day, JournalTime(hour: 8, minute: 0)!, in: TimeZone(identifier: "UTC")!)))
        }
        let sync = PostgresSyncStore(client: client)
        for start in stride(from: 0, to: entries.count, by: 1_000) {
            _ = try await sync.push(try entries[start..<start + 1_000].map {
                SyncChange(idempotencyKey: "s-\($0.id)", entity: .row, op: .upsert, id: $0.id, collection: JournalEntry.collection,
                           data: try SyncRules.rowData($0))
            }, userId: user)
        }
        // As autovacuum would: statistics, and the GIN index's pending list of new rows merged.
        _ = try await client.query("VACUUM ANALYZE journal_entries")

        let index = try await client.query("SELECT indexdef FROM pg_indexes WHERE indexname = 'journal_entries_search'")
        var definition = ""
        for try await text in index.decode(String.self) { definition = text }
        #expect(definition.contains("gin (user_id, search_text gin_trgm_ops)"),
                "no trigram index: does this PostgreSQL have the contrib extensions pg_trgm and btree_gin?")

        let texts = try await client.query("""
            SELECT search_text FROM journal_entries WHERE user_id = \(user) AND description LIKE 'Quinoa%' ORDER BY date DESC
            """)
        var found: [String] = []
        for try await text in texts.decode(String.self) { found.append(text) }
        // Entries 3, 703 and 1403: three quinoa bowls.
        #expect(found == Array(repeating: "quinoa bowl with avocado\nquinoa bowl with avocado", count: 3))

        // A word no entry has (the search's slowest case before the index: every row of the user read) is looked
        // up in the trigram index. (A table of 2,000 short rows may be read whole as cheaply as through an index, so
        // the planner is told not to scan it whole; then it takes the trigram index over the user's rows by id.)
        let lines = try await client.withConnection { connection in
            _ = try await connection.query("SET enable_seqscan = off", logger: connection.logger)
            let plan = try await connection.query("""
                EXPLAIN SELECT id FROM journal_entries WHERE user_id = \(user) AND search_text LIKE '%tiramisu%'
                ORDER BY date DESC, minute DESC, created_at DESC, id DESC LIMIT 50
                """, logger: connection.logger)
            var lines: [String] = []
            for try await line in plan.decode(String.self) { lines.append(line) }
            _ = try await connection.query("RESET enable_seqscan", logger: connection.logger)
            return lines
        }
        #expect(lines.contains { $0.contains("journal_entries_search") }, "\(lines.joined(separator: "\n"))")

        let results = try await PostgresJournalStore(client: client).search(userId: user, query: "AVOCADO quinoa", limit: 50)
        #expect(results.map(\.entry.date) == [today.adding(days: -0), today.adding(days: -175), today.adding(days: -350)])
    }
}
