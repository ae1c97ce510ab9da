import GRDB
import WDietFoodData
import WDietStore

extension AppDatabase {
    /// As-you-type food search: word order free, plural-insensitive, the last word a prefix, the food a person
    /// means first. Throws `StoreError.catalogMissing` when no catalog has been imported.
    public func searchFoods(_ query: String, limit: Int = 20) throws -> [FoodSearchResult] {
        try foodSearchIndex().results(query, limit: limit)
    }

    /// The catalog's in-memory search index (`FoodSearchIndex`), built on first use and then shared by every
    /// store on the same catalog (`FoodSearchIndexes`, by content hash). The catalog's hash is checked per call, so
    /// that a catalog re-imported from outside is searched as soon as it is there: on a file, read again only when
    /// another connection has committed since (`CatalogVersionWatch`); in memory, read every time.
    public func foodSearchIndex() throws -> FoodSearchIndex {
        let contentHash = try catalogWatch?.contentHash() ?? writer.read { db in try FoodSearch.contentHash(db) }
        if let index = FoodSearchIndexes.shared.index(for: contentHash) { return index }
        let index = try writer.read { db in try FoodSearch.buildIndex(db) }
        FoodSearchIndexes.shared.store(index)
        return index
    }
}

/// How the SQLite store feeds the search index, and the FTS5 search the index replaced, kept as the reference the
/// index is checked against (`FoodSearchIndexTests`: the same page for every relevance query and the bench's mix).
enum FoodSearch {
    static func contentHash(_ db: Database) throws -> String {
        guard let contentHash = try String.fetchOne(db.cachedStatement(sql: "SELECT contentHash FROM foodCatalogInfo"))
        else {
            throw StoreError.catalogMissing("The food catalog is empty. \(AppDatabase.catalogHint)")
        }
        return contentHash
    }

    /// Every food in static order with its measures, in one read transaction.
    static func buildIndex(_ db: Database) throws -> FoodSearchIndex {
        let contentHash = try contentHash(db)
        var measures: [String: [HouseholdMeasure]] = [:]
        let measureRows = try Row.fetchCursor(db, sql: """
            SELECT foodId, sequence, amount, description, grams FROM householdMeasure ORDER BY foodId, sequence
            """)
        while let row = try measureRows.next() {
            measures[row[0], default: []].append(
                HouseholdMeasure(sequence: row[1], amount: row[2], description: row[3], grams: row[4]))
        }
        var entries: [FoodSearchIndex.Entry] = []
        let rows = try Row.fetchCursor(db, sql: """
            SELECT f.id, f.longDescription, f.commonName, f.manufacturer, f.foodGroupCode, g.description, f.searchPrior,
                f.kcal, f.protein, f.carbohydrate, f.fat, f.fiber
            FROM food f JOIN foodGroup g ON g.code = f.foodGroupCode
            ORDER BY f.ordinal
            """)
        while let row = try rows.next() {
            let id: String = row[0]
            entries.append(FoodSearchIndex.Entry(
                id: id, longDescription: row[1], commonName: row[2], manufacturer: row[3], foodGroupCode: row[4],
                foodGroupDescription: row[5], prior: row[6], kcal: row[7], protein: row[8], carbohydrate: row[9],
                fat: row[10], fiber: row[11], measures: measures[id] ?? []))
        }
        return FoodSearchIndex(contentHash: contentHash, entries: entries)
    }

    // MARK: The FTS5 search (reference)

    /// How many matches a query looks at, at most. They come in the static order (see `food.ordinal`), so on a
    /// small catalog this is every match, and on a huge one the most generic matches.
    static let candidateLimit = FoodSearchIndex.candidateLimit
    /// How many of those are ranked in full, from each of bm25 order and static order.
    static let rankedPerSource = FoodSearchIndex.rankedPerSource
    /// bm25 weights of the `head`, `body` and `extra` columns.
    static let columnWeights = FoodSearchIndex.columnWeights

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
