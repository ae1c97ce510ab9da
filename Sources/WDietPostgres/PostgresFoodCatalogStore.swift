import Foundation
import Logging
import PostgresNIO
import WDietFoodData
import WDietStore

/// `FoodCatalogStore` on PostgreSQL, with the same relevance as the SQLite store: the GIN index on
/// `food.search_vector` finds the candidates, in the same static order and bounded the same way; bm25 is computed
/// as FTS5 computes it; and the same `FoodSearchRanker` orders them. Before that, `FoodSearchUnderstanding`
/// corrects misspelt words and replaces everyday ones against the catalog's vocabulary (`food_search_word`),
/// exactly as the SQLite store does against FTS5's.
public struct PostgresFoodCatalogStore: FoodCatalogStore {
    let client: PostgresClient
    let logger: Logger
    let documentCounts = PostgresFoodSearchDocumentCounts()

    /// How many matches a query looks at, at most, and how many of those are ranked in full from each of bm25 order
    /// and static order: the SQLite search's `candidateLimit` and `rankedPerSource`.
    static let candidateLimit = 400
    static let rankedPerSource = 50

    public init(client: PostgresClient, logger: Logger = Logger(label: "wdiet.postgres.food-catalog")) {
        self.client = client
        self.logger = logger
    }

    public func isLoaded() async throws -> Bool {
        try await guarded { try await PostgresFoodCatalogImport.isLoaded(client: client, logger: logger) }
    }

    public func searchFoods(_ query: String, limit: Int) async throws -> [FoodSearchResult] {
        try await guarded { try await search(query, limit: limit) }
    }

    public func food(id: String) async throws -> Food? {
        try await guarded { try await readFood(id: id) }
    }

    // MARK: Search

    func search(_ text: String, limit: Int) async throws -> [FoodSearchResult] {
        // The words typed, corrected and with everyday words replaced against the catalog's vocabulary. The
        // vocabulary known so far is tried first; the statistics say which catalog is there.
        let known = FoodSearchVocabularies.shared.latest
        var query = known.map { FoodSearchUnderstanding.query(text, vocabulary: $0.vocabulary) } ?? FoodSearchQuery(text)
        var plan = PostgresFoodSearchPlan(query)
        // Also the check that a catalog is there, so that a search on an empty database says so whatever was typed.
        var statistics = try await catalogStatistics(phrases: plan?.phrases ?? [])
        if known?.hash != statistics.contentHash {
            let vocabulary = try await vocabulary(contentHash: statistics.contentHash)
            query = FoodSearchUnderstanding.query(text, vocabulary: vocabulary)
            plan = PostgresFoodSearchPlan(query)
            statistics = try await catalogStatistics(phrases: plan?.phrases ?? [])
        }
        guard limit > 0, let plan else { return [] }

        var rankingQuery = query
        var candidates = try await fetchCandidates(plan, statistics: statistics)
        // Complete words that match nothing may be the start of longer ones ("chick brea").
        if candidates.isEmpty, query.terms.contains(where: { !$0.isPrefix }) {
            rankingQuery = query.allPrefixes()
            if let loose = PostgresFoodSearchPlan(rankingQuery) {
                candidates = try await fetchCandidates(loose, statistics: try await catalogStatistics(phrases: loose.phrases))
            }
        }
        let ranked = FoodSearchRanker.rank(candidates, for: rankingQuery).prefix(limit).map(\.id)
        return try await results(ids: Array(ranked))
    }

    /// The catalog's vocabulary (`food_search_word`), read once per catalog.
    func vocabulary(contentHash: String) async throws -> FoodSearchVocabulary {
        if let known = FoodSearchVocabularies.shared.vocabulary(for: contentHash) { return known }
        let rows = try await client.query("SELECT word, documents FROM food_search_word", logger: logger)
        var entries: [(word: String, documents: Int)] = []
        for try await (word, documents) in rows.decode((String, Int).self) { entries.append((word, documents)) }
        let vocabulary = FoodSearchVocabulary(entries)
        FoodSearchVocabularies.shared.store(vocabulary, for: contentHash)
        return vocabulary
    }

    /// The catalog's size and, per phrase, how many foods it matches: what bm25's IDF needs.
    struct CatalogStatistics {
        var contentHash: String
        var foodCount: Int
        var tokenCount: Int
        var documentCounts: [Int]
    }

    func catalogStatistics(phrases: [PostgresFoodSearchPhrase]) async throws -> CatalogStatistics {
        let known = documentCounts.counts(for: phrases)
        let missing = phrases.filter { known[$0] == nil }
        let rows = try await client.query("""
            SELECT i.content_hash, i.food_count, i.search_token_count,
                ARRAY(
                    SELECT (SELECT count(*) FROM food f WHERE f.search_vector @@ p.phrase::tsquery)
                    FROM unnest(\(missing.map(\.tsquery))::text[]) WITH ORDINALITY AS p (phrase, position)
                    ORDER BY p.position
                )
            FROM food_catalog_info i WHERE i.id = 1
            """, logger: logger)
        for try await (hash, foods, tokens, counts) in rows.decode((String, Int, Int, [Int]).self) {
            // Counts cached for another catalog are stale: count every phrase again.
            if !documentCounts.store(zip(missing, counts), contentHash: hash), !known.isEmpty {
                documentCounts.clear()
                return try await catalogStatistics(phrases: phrases)
            }
            var all = known
            for (phrase, count) in zip(missing, counts) { all[phrase] = count }
            return CatalogStatistics(contentHash: hash, foodCount: foods, tokenCount: tokens, documentCounts: phrases.map { all[$0] ?? 0 })
        }
        throw StoreError.catalogMissing("The food catalog is empty. \(PostgresFoodCatalogImport.catalogHint)")
    }

    /// The matches in static order, then the ones worth ranking in full: the best by bm25 (the head weighs most,
    /// so these are the foods named after the query) and the first in static order (the most everyday ones).
    func fetchCandidates(_ plan: PostgresFoodSearchPlan, statistics: CatalogStatistics) async throws -> [FoodSearchCandidate] {
        let bm25 = PostgresFoodSearchBM25(
            phrases: plan.phrases, documentCounts: statistics.documentCounts, foodCount: statistics.foodCount,
            tokenCount: statistics.tokenCount
        )
        let rows = try await client.query("""
            SELECT id, long_description, search_prior, search_head, search_body, search_extra, food_group_code
            FROM food WHERE search_vector @@ \(plan.tsquery)::tsquery
            ORDER BY ordinal LIMIT \(Self.candidateLimit)
            """, logger: logger)
        var scored: [(candidate: FoodSearchCandidate, position: Int)] = []
        for try await (id, description, prior, head, body, extra, group) in rows.decode(
            (String, String, Double, String, String, String, String).self)
        {
            let score = bm25.score(PostgresFoodSearchDocumentTokens(head: head, body: body, extra: extra))
            let candidate = FoodSearchCandidate(
                id: id, longDescription: description, prior: prior, bm25: score, foodGroupCode: group)
            scored.append((candidate, scored.count))
        }
        var chosen = Set(scored.prefix(Self.rankedPerSource).map(\.position))
        if scored.count > Self.rankedPerSource {
            for entry in scored.sorted(by: { $0.candidate.bm25 < $1.candidate.bm25 }).prefix(Self.rankedPerSource) {
                chosen.insert(entry.position)
            }
        }
        return scored.filter { chosen.contains($0.position) }.map(\.candidate)
    }

    func results(ids: [String]) async throws -> [FoodSearchResult] {
        guard !ids.isEmpty else { return [] }
        let rows = try await client.query("""
            SELECT f.id, f.long_description, g.description, f.kcal, f.protein, f.carbohydrate, f.fat, f.fiber,
                m.sequences, m.amounts, m.descriptions, m.grams
            FROM food f
            JOIN food_group g ON g.code = f.food_group_code
            LEFT JOIN LATERAL (
                SELECT array_agg(sequence ORDER BY sequence) AS sequences, array_agg(amount ORDER BY sequence) AS amounts,
                    array_agg(description ORDER BY sequence) AS descriptions, array_agg(grams ORDER BY sequence) AS grams
                FROM household_measure WHERE food_id = f.id
            ) m ON true
            WHERE f.id = ANY(\(ids)::text[])
            """, logger: logger)
        var byId: [String: FoodSearchResult] = [:]
        for try await (id, name, group, kcal, protein, carbohydrate, fat, fiber, sequences, amounts, descriptions, grams)
            in rows.decode(
                (String, String, String, Double?, Double?, Double?, Double?, Double?, [Int]?, [Double]?, [String]?,
                    [Double]?).self)
        {
            byId[id] = FoodSearchResult(
                id: id, name: name, foodGroup: group, kcal: kcal, protein: protein, carbohydrate: carbohydrate,
                fat: fat, fiber: fiber,
                measures: Self.measures(sequences: sequences, amounts: amounts, descriptions: descriptions, grams: grams)
            )
        }
        return ids.compactMap { byId[$0] }
    }

    static func measures(sequences: [Int]?, amounts: [Double]?, descriptions: [String]?, grams: [Double]?) -> [HouseholdMeasure] {
        guard let sequences, let amounts, let descriptions, let grams else { return [] }
        return sequences.indices.map { index in
            HouseholdMeasure(
                sequence: sequences[index], amount: amounts[index], description: descriptions[index], grams: grams[index])
        }
    }

    // MARK: One food

    func readFood(id: String) async throws -> Food? {
        let rows = try await client.query("""
            SELECT f.id, f.long_description, f.short_description, f.common_name, f.manufacturer, f.scientific_name,
                f.refuse_percent, f.is_survey_food, f.food_group_code, g.description
            FROM food f JOIN food_group g ON g.code = f.food_group_code
            WHERE f.id = \(id)
            """, logger: logger)
        var found: Food?
        for try await (foodId, long, short, common, manufacturer, scientific, refuse, survey, groupCode, group) in rows.decode(
            (String, String, String, String?, String?, String?, Double?, Bool, String, String).self)
        {
            found = Food(
                id: foodId, longDescription: long, shortDescription: short, commonName: common,
                manufacturer: manufacturer, scientificName: scientific, refusePercent: refuse, isSurveyFood: survey,
                foodGroupCode: groupCode, foodGroupDescription: group
            )
        }
        guard var food = found else { return nil }
        let nutrients = try await client.query("""
            SELECT n.nutrient_number, n.amount FROM food_nutrient n
            JOIN nutrient_definition d ON d.number = n.nutrient_number
            WHERE n.food_id = \(id) ORDER BY d.sort_order
            """, logger: logger)
        for try await (number, amount) in nutrients.decode((String, Double).self) {
            food.nutrients.append(NutrientValue(nutrientNumber: number, amount: amount))
        }
        let measures = try await client.query("""
            SELECT sequence, amount, description, grams FROM household_measure WHERE food_id = \(id) ORDER BY sequence
            """, logger: logger)
        for try await (sequence, amount, description, grams) in measures.decode((Int, Double, String, Double).self) {
            food.measures.append(HouseholdMeasure(sequence: sequence, amount: amount, description: description, grams: grams))
        }
        return food
    }

    // MARK: Errors

    /// Store errors pass through; anything PostgreSQL reports is logged in full and surfaces as `.unavailable`
    /// without SQL or server detail.
    func guarded<Result>(_ body: () async throws -> Result) async throws -> Result {
        try await PostgresStoreErrors.guarded(
            logger, unavailable: "The food catalog is unavailable right now. Please try again in a moment.", body)
    }
}
