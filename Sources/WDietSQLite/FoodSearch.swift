import GRDB
import WDietFoodData
import WDietStore

extension AppDatabase {
    /// As-you-type food search: word order free, plural-insensitive, the last word a prefix, the food a person
    /// means first. Throws `StoreError.catalogMissing` when no catalog has been imported.
    public func searchFoods(_ query: String, limit: Int = 20) throws -> [FoodSearchResult] {
        try writer.read { db in try FoodSearch.search(db, text: query, limit: limit) }
    }
}

/// The search pipeline behind `AppDatabase.searchFoods`: FTS5 finds a bounded set of candidates (bm25 with the
/// name's head weighted above the rest), `FoodSearchRanker` orders them in Swift, and only the final page is
/// read in full.
enum FoodSearch {
    /// How many matches a query looks at, at most. They come in the static order (see `food.ordinal`), so on a
    /// small catalog this is every match, and on a huge one the most generic matches.
    static let candidateLimit = 400
    /// bm25 weights of the `head`, `body` and `extra` columns.
    static let columnWeights = (head: 10.0, body: 3.0, extra: 1.5)

    static func search(_ db: Database, text: String, limit: Int) throws -> [FoodSearchResult] {
        guard try AppDatabase.isCatalogLoaded(db) else {
            throw StoreError.catalogMissing("The food catalog is empty. \(AppDatabase.catalogHint)")
        }
        let query = FoodSearchQuery(text)
        guard limit > 0, let match = matchExpression(query) else { return [] }
        var rankingQuery = query
        var candidates = try fetchCandidates(db, match: match)
        // Complete words that match nothing may be the start of longer ones ("chick brea").
        if candidates.isEmpty, query.terms.contains(where: { !$0.isPrefix }) {
            rankingQuery = query.allPrefixes()
            if let loose = matchExpression(rankingQuery) { candidates = try fetchCandidates(db, match: loose) }
        }
        let ranked = FoodSearchRanker.rank(candidates, for: rankingQuery).prefix(limit).map(\.id)
        return try results(db, ids: Array(ranked))
    }

    /// The FTS5 query: every term must match. A prefix term matches its stem or the word as typed, because the
    /// index holds stems ("strawberri") and a word still being typed may not stem the same way ("strawberr").
    /// One-letter prefixes are left to the ranker: in FTS5 they would merge the doclists of every word with that
    /// initial. Returns nil when nothing is left to match.
    static func matchExpression(_ query: FoodSearchQuery) -> String? {
        let parts = query.terms.compactMap { term -> String? in
            guard term.isPrefix else { return "\"\(term.stem)\"" }
            guard term.word.count >= 2 else { return nil }
            if term.stem == term.word || term.word.hasPrefix(term.stem) { return "\"\(term.stem)\"*" }
            return "(\"\(term.stem)\"* OR \"\(term.word)\"*)"
        }
        return parts.isEmpty ? nil : parts.joined(separator: " AND ")
    }

    static func fetchCandidates(_ db: Database, match: String) throws -> [FoodSearchCandidate] {
        let weights = columnWeights
        return try Row.fetchAll(
            db,
            sql: """
                SELECT f.id, f.longDescription, f.searchPrior, m.score
                FROM (
                    SELECT rowid, bm25(foodSearch, \(weights.head), \(weights.body), \(weights.extra)) AS score
                    FROM foodSearch WHERE foodSearch MATCH ? LIMIT \(candidateLimit)
                ) m
                JOIN food f ON f.ordinal = m.rowid
                """,
            arguments: [match]
        ).map {
            FoodSearchCandidate(id: $0[0], longDescription: $0[1], prior: $0[2], bm25: $0[3])
        }
    }

    static func results(_ db: Database, ids: [String]) throws -> [FoodSearchResult] {
        guard !ids.isEmpty else { return [] }
        let placeholders = Array(repeating: "?", count: ids.count).joined(separator: ",")
        var byId: [String: FoodSearchResult] = [:]
        let measures = try AppDatabase.measures(db, foodIds: ids)
        let rows = try Row.fetchCursor(db, sql: """
            SELECT f.id, f.longDescription, g.description, f.kcal, f.protein, f.carbohydrate, f.fat, f.fiber
            FROM food f JOIN foodGroup g ON g.code = f.foodGroupCode
            WHERE f.id IN (\(placeholders))
            """, arguments: StatementArguments(ids))
        while let row = try rows.next() {
            let id: String = row[0]
            byId[id] = FoodSearchResult(
                id: id, name: row[1], foodGroup: row[2], kcal: row[3], protein: row[4], carbohydrate: row[5],
                fat: row[6], fiber: row[7], measures: measures[id] ?? []
            )
        }
        return ids.compactMap { byId[$0] }
    }
}
