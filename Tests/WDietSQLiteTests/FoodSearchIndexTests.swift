import Foundation
import GRDB
import Testing
import WDietFoodData
import WDietStore
import WDietTestSupport
@testable import WDietSQLite

/// The in-memory search index (`FoodSearchIndex`) against the FTS5 search it replaced, kept in `FoodSearch` as the
/// reference: the same words with the same document counts, and the same page, in the same order, for every
/// relevance query, every query typed along the way and some hundreds of queries made from SR28's own names.
@Suite("Food search index against FTS5 on SR28")
struct FoodSearchIndexTests {
    static func index(_ database: AppDatabase) throws -> FoodSearchIndex { try database.foodSearchIndex() }

    /// The page FTS5 finds for a query already understood.
    static func fts5(_ database: AppDatabase, _ query: FoodSearchQuery, limit: Int) throws -> [FoodSearchResult] {
        try database.readOnThisThread { db in try FoodSearch.search(db, query: query, limit: limit) }
    }

    /// FTS5's own vocabulary: every word with how many foods contain it.
    static func fts5Vocabulary(_ database: AppDatabase) throws -> [(word: String, documents: Int)] {
        try database.writer.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE IF NOT EXISTS temp.indexTestWords USING fts5vocab(main, foodSearch, row)")
            return try Row.fetchAll(db, sql: "SELECT term, doc FROM temp.indexTestWords ORDER BY term")
                .map { (word: $0[0] as String, documents: $0[1] as Int) }
        }
    }

    @Test func wordsAndDocumentCountsAreFTS5s() async throws {
        let database = try await FoodCatalogTestDatabase.shared.value
        let index = try Self.index(database)
        let vocabulary = try Self.fts5Vocabulary(database)
        #expect(vocabulary.count == 3_116)
        #expect(index.wordList == vocabulary.map(\.word))
        let differing = vocabulary.filter { index.documentCount(of: $0.word) != $0.documents }
        #expect(differing.isEmpty, "\(differing.prefix(5))")
        #expect(index.documentCount(of: "banana") == vocabulary.first { $0.word == "banana" }?.documents)
        #expect(index.documentCount(of: "qwxzzy") == 0)
    }

    /// Queries as people type them, from SR28's names: each name's first word whole and as a prefix of 2–6
    /// letters, a first word with the next part's first word (whole and half typed), and the reverse.
    ///
    /// From every 32nd food in static order (275 of 8,789; every 8th until the suite had to fit in 20 minutes):
    /// every kind of query above, every prefix length (32 and 5 share no factor, so `position % 5` takes each
    /// value). A change to how the index matches, scores, corrects or orders shows on
    /// every kind of query, so a quarter of the names still finds it; the 183 hand-written queries run whole.
    static func madeQueries(_ index: FoodSearchIndex) -> [String] {
        var queries: [String] = []
        var seen = Set<String>()
        func add(_ query: String) { if seen.insert(query).inserted { queries.append(query) } }
        for (position, entry) in index.entries.enumerated() where position % 32 == 0 {
            let segments = FoodSearchRanker.segments(of: entry.longDescription)
            guard let first = segments.first?.first?.word, first.count >= 3 else { continue }
            add(first)
            add(String(first.prefix(2 + position % 5)))
            if let second = segments.dropFirst().first?.first?.word, second.count >= 3 {
                add("\(first) \(second.prefix(max(2, second.count / 2)))")
                add("\(second) \(first) ")
            }
        }
        return queries
    }

    @Test func samePagesAsFTS5() async throws {
        let database = try await FoodCatalogTestDatabase.shared.value
        let index = try Self.index(database)
        let queries = FoodSearchRelevanceCases.all.map(\.query) + FoodSearchRelevanceCases.typedAlong
            + FoodSearchRelevanceCases.forgiving.map(\.query) + Self.madeQueries(index)
        #expect(queries.count > 600)
        var differing: [String] = []
        var nonEmpty = 0
        for text in queries {
            let query = FoodSearchUnderstanding.query(text, vocabulary: index.vocabulary)
            let fromIndex = index.search(query, limit: 10).map { index.entries[$0].id }
            let fromFTS5 = try Self.fts5(database, query, limit: 10).map(\.id)
            if fromIndex != fromFTS5 { differing.append(text) }
            if !fromIndex.isEmpty { nonEmpty += 1 }
        }
        #expect(differing.isEmpty, "\(differing.count) of \(queries.count) differ: \(differing.prefix(10))")
        #expect(nonEmpty > queries.count * 9 / 10)
    }

    @Test func resultsCarryTheCatalogsValues() async throws {
        let database = try await FoodCatalogTestDatabase.shared.value
        let index = try Self.index(database)
        let banana = try #require(index.results("banana", limit: 3).first)
        let fromFTS5 = try #require(
            try Self.fts5(database, FoodSearchUnderstanding.query("banana", vocabulary: index.vocabulary), limit: 3).first)
        #expect(banana == fromFTS5)
        #expect(banana.id == "09040" && banana.kcal == 89 && banana.foodGroup == "Fruits and Fruit Juices")
        #expect(banana.measures.map(\.grams) == [225, 150, 81, 101, 118, 136, 152, 126])
    }

    /// What a server calls before it listens: the index built, its size said; nothing without a catalog.
    @Test func prepareSearchBuildsTheIndex() async throws {
        let database = try await FoodCatalogTestDatabase.shared.value
        #expect(try await SQLiteFoodCatalogStore(database: database).prepareSearch() == 8_789)
        #expect(try await SQLiteFoodCatalogStore(database: try AppDatabase.inMemory()).prepareSearch() == nil)
    }

    @Test func oneIndexPerCatalog() async throws {
        let database = try await FoodCatalogTestDatabase.shared.value
        #expect(try Self.index(database) === (try Self.index(database)))
        #expect(try Self.index(database).count == 8_789)
    }
}
