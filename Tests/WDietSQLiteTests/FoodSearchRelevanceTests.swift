import Foundation
import Testing
import WDietSQLite
import WDietTestSupport

/// The shared relevance cases (`FoodSearchRelevanceCases`) on the SQLite store; PostgreSQL runs the same ones.
@Suite("Food search relevance on SR28")
struct FoodSearchRelevanceTests {
    @Test(arguments: FoodSearchRelevanceCases.all)
    func topResultIsTheFoodMeant(query: String, expected: Set<String>) async throws {
        let database = try await FoodCatalogTestDatabase.shared.value
        let results = try database.searchFoods(query, limit: 5)
        let top = try #require(results.first, "no result for \"\(query)\"")
        #expect(
            expected.contains(top.id),
            "\(FoodSearchRelevanceCases.describe(query, results.map { ($0.id, $0.name) }))"
        )
    }

    /// Typos and everyday words: the food meant among the first three for at least 90 % of the queries.
    @Test func typosAndEverydayWordsFindTheFood() async throws {
        let database = try await FoodCatalogTestDatabase.shared.value
        let (rate, misses) = try await FoodSearchRelevanceCases.forgivingRate { query in
            try database.searchFoods(query, limit: 5).map { ($0.id, $0.name) }
        }
        #expect(FoodSearchRelevanceCases.forgiving.count >= 40)
        #expect(rate >= FoodSearchRelevanceCases.minimumForgivingRate, "\(Int(rate * 100)) %; missed: \(misses)")
        print("forgiving search on SQLite: \(Int((rate * 1000).rounded()) / 10) % top-3; missed: \(misses)")
    }
}
