import GRDB
import WDietFoodData
import WDietStore

extension AppDatabase {
    /// As-you-type food search: word order free, plural-insensitive, the last word a prefix, the food a person
    /// means first. Throws `StoreError.catalogMissing` when no catalog has been imported.
    public func searchFoods(_ query: String, limit: Int = 20) throws -> [FoodSearchResult] {
        let outcome = try writer.read { db in try FoodSearch.search(db, text: query, limit: limit) }
        switch outcome {
        case .results(let results):
            return results
        case .needsVocabulary(let contentHash):
            // Once per catalog: FTS5's vocabulary, through a temporary fts5vocab table on the writer's connection
            // (readers may be read-only).
            let entries = try writer.writeWithoutTransaction { db in
                try db.execute(sql: "CREATE VIRTUAL TABLE IF NOT EXISTS temp.foodSearchWords USING fts5vocab(main, foodSearch, row)")
                return try Row.fetchAll(db, sql: "SELECT term, doc FROM temp.foodSearchWords")
                    .map { (word: $0[0] as String, documents: $0[1] as Int) }
            }
            FoodSearchVocabularies.shared.store(FoodSearchVocabulary(entries), for: contentHash)
            guard case .results(let results) = try writer.read({ db in try FoodSearch.search(db, text: query, limit: limit) })
            else { throw StoreError.unavailable("The food catalog changed during the search. Please try again.") }
            return results
        }
    }
}

/// The search pipeline behind `AppDatabase.searchFoods`: FTS5 finds a bounded set of candidates (bm25 with the
/// name's head weighted above the rest), `FoodSearchRanker` orders them in Swift, and only the final page is
/// read in full.
enum FoodSearch {
    /// How many matches a query looks at, at most. They come in the static order (see `food.ordinal`), so on a
    /// small catalog this is every match, and on a huge one the most generic matches.
    static let candidateLimit = 400
    /// How many of those are ranked in full, from each of bm25 order and static order.
    static let rankedPerSource = 50
    /// bm25 weights of the `head`, `body` and `extra` columns.
    static let columnWeights = (head: 10.0, body: 3.0, extra: 1.5)

    enum Outcome {
        case results([FoodSearchResult])
        /// The catalog's vocabulary has not been read yet (`FoodSearchVocabularies`).
        case needsVocabulary(contentHash: String)
    }

    static func search(_ db: Database, text: String, limit: Int) throws -> Outcome {
        guard let contentHash = try String.fetchOne(db, sql: "SELECT contentHash FROM foodCatalogInfo") else {
            throw StoreError.catalogMissing("The food catalog is empty. \(AppDatabase.catalogHint)")
        }
        guard let vocabulary = FoodSearchVocabularies.shared.vocabulary(for: contentHash) else {
            return .needsVocabulary(contentHash: contentHash)
        }
        return .results(try search(db, query: FoodSearchUnderstanding.query(text, vocabulary: vocabulary), limit: limit))
    }

    /// The search for a query already corrected and with everyday words replaced.
    static func search(_ db: Database, query: FoodSearchQuery, limit: Int) throws -> [FoodSearchResult] {
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

    /// Matches in static order with their bm25, then the ones worth ranking in full: the best by bm25 (the
    /// head weighs most, so these are the foods named after the query) and the first in static order (the most
    /// everyday ones). Ranking every match in Swift would cost more than the whole query is allowed.
    static func fetchCandidates(_ db: Database, match: String) throws -> [FoodSearchCandidate] {
        let weights = columnWeights
        let matches = try db.cachedStatement(sql: """
            SELECT rowid, bm25(foodSearch, \(weights.head), \(weights.body), \(weights.extra))
            FROM foodSearch WHERE foodSearch MATCH ? LIMIT \(candidateLimit)
            """)
        var scored: [(ordinal: Int64, bm25: Double)] = []
        let rows = try Row.fetchCursor(matches, arguments: [match])
        while let row = try rows.next() { scored.append((row[0], row[1])) }
        var chosen = Set(scored.prefix(rankedPerSource).map(\.ordinal))
        if scored.count > rankedPerSource {
            for entry in scored.sorted(by: { $0.bm25 < $1.bm25 }).prefix(rankedPerSource) { chosen.insert(entry.ordinal) }
        }
        let bm25ByOrdinal = Dictionary(scored.map { ($0.ordinal, $0.bm25) }, uniquingKeysWith: { first, _ in first })

        let foods = try db.cachedStatement(sql: """
            SELECT ordinal, id, longDescription, searchPrior, foodGroupCode FROM food
            WHERE ordinal IN (SELECT value FROM json_each(?)) ORDER BY ordinal
            """)
        let list = "[" + chosen.map(String.init).joined(separator: ",") + "]"
        return try Row.fetchAll(foods, arguments: [list]).map { row in
            let ordinal: Int64 = row[0]
            return FoodSearchCandidate(
                id: row[1], longDescription: row[2], prior: row[3], bm25: bm25ByOrdinal[ordinal] ?? 0, foodGroupCode: row[4])
        }
    }

    static func results(_ db: Database, ids: [String]) throws -> [FoodSearchResult] {
        guard !ids.isEmpty else { return [] }
        var byId: [String: FoodSearchResult] = [:]
        let measures = try AppDatabase.measures(db, foodIds: ids)
        let statement = try db.cachedStatement(sql: """
            SELECT f.id, f.longDescription, g.description, f.kcal, f.protein, f.carbohydrate, f.fat, f.fiber
            FROM food f JOIN foodGroup g ON g.code = f.foodGroupCode
            WHERE f.id IN (SELECT value FROM json_each(?))
            """)
        let rows = try Row.fetchCursor(statement, arguments: [AppDatabase.jsonArray(ids)])
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
