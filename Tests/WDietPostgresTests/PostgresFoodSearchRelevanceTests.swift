import Foundation
import Logging
import Testing
import WDietFoodData
import WDietPostgres
import WDietSQLite
import WDietStore
import WDietTestSupport

/// SR28 in a scratch PostgreSQL database for a whole suite: a copy of the cluster's one import
/// (`PostgresScratchDatabase.createWithSR28`), dropped after the suite, its search index built before the suite's
/// first test.
enum SR28OnPostgres {
    static var dataFolder: URL { SR28TestDatabase.dataDirectory }

    @TaskLocal static var database: PostgresScratchDatabase?

    static func current() throws -> PostgresScratchDatabase {
        try #require(database, "the suite needs the .sr28OnPostgres trait")
    }

    static func store() throws -> PostgresFoodCatalogStore {
        PostgresFoodCatalogStore(client: try current().client)
    }

    /// The SQLite store on the same files, to compare pages with: the process's one SQLite import.
    static var sqlite: SharedTestValue<AppDatabase> { SR28TestDatabase.shared }
}

struct SR28OnPostgresTrait: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        SR28TestDatabase.keepIndexes()
        let database = try await PostgresScratchDatabase.createWithSR28(from: SR28OnPostgres.dataFolder)
        do {
            // The index built once here: a search that finds no index builds one, and a parameterised test's cases
            // start together, each of them building SR28's index (8,789 foods read from PostgreSQL) at once.
            let foods = try await PostgresFoodCatalogStore(client: database.client).prepareSearch()
            guard foods == 8_789 else { throw StoreError.conflict("the SR28 copy holds \(String(describing: foods)) foods") }
            try await SR28OnPostgres.$database.withValue(database) { try await function() }
        } catch {
            await database.drop()
            throw error
        }
        await database.drop()
    }
}

extension Trait where Self == SR28OnPostgresTrait {
    static var sr28OnPostgres: Self { Self() }
}

/// The shared relevance cases on PostgreSQL, and the same pages as SQLite for queries typed along the way.
@Suite("Food search relevance on SR28, PostgreSQL", .sr28OnPostgres)
struct PostgresFoodSearchRelevanceTests {
    @Test(arguments: FoodSearchRelevanceCases.all)
    func topResultIsTheFoodMeant(query: String, expected: Set<String>) async throws {
        let results = try await SR28OnPostgres.store().searchFoods(query, limit: 5)
        let top = try #require(results.first, "no result for \"\(query)\"")
        #expect(
            expected.contains(top.id),
            "\(FoodSearchRelevanceCases.describe(query, results.map { ($0.id, $0.name) }))"
        )
    }

    /// Typos and everyday words: the food meant among the first three for at least 90 % of the queries.
    @Test func typosAndEverydayWordsFindTheFood() async throws {
        let store = try SR28OnPostgres.store()
        let (rate, misses) = try await FoodSearchRelevanceCases.forgivingRate { query in
            try await store.searchFoods(query, limit: 5).map { ($0.id, $0.name) }
        }
        #expect(rate >= FoodSearchRelevanceCases.minimumForgivingRate, "\(Int(rate * 100)) %; missed: \(misses)")
        print("forgiving search on PostgreSQL: \(Int((rate * 1000).rounded()) / 10) % top-3; missed: \(misses)")
    }

    /// Both backends search the same in-memory index (`FoodSearchIndex`): the one built from PostgreSQL's rows is the
    /// one built from SQLite's, food by food and word by word.
    @Test func sameIndexAsSQLite() async throws {
        let fromPostgres = try await SR28OnPostgres.store().buildSearchIndex()
        let fromSQLite = try await SR28OnPostgres.sqlite.value.foodSearchIndex()
        #expect(fromPostgres.contentHash == fromSQLite.contentHash)
        #expect(fromPostgres.count == 8_789)
        #expect(fromPostgres.entries == fromSQLite.entries)
        #expect(fromPostgres.wordList == fromSQLite.wordList)
        #expect(fromPostgres.results("chiken brest", limit: 10) == fromSQLite.results("chiken brest", limit: 10))
    }

    /// Not only the first food: the whole page, in order, is the one SQLite returns.
    @Test(arguments: FoodSearchRelevanceCases.all.map(\.query) + FoodSearchRelevanceCases.typedAlong
        + FoodSearchRelevanceCases.forgiving.map(\.query))
    func samePageAsSQLite(query: String) async throws {
        let onPostgres = try await SR28OnPostgres.store().searchFoods(query, limit: 10)
        let onSQLite = try await SR28OnPostgres.sqlite.value.searchFoods(query, limit: 10)
        #expect(onPostgres.map(\.id) == onSQLite.map(\.id), "\"\(query)\"")
        #expect(onPostgres == onSQLite, "\"\(query)\": same names, nutrients and measures")
    }
}
