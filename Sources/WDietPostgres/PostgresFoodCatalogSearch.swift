import Foundation
import WDietFoodData

/// The words of a food's `FoodSearchDocument`, by column: what `search_vector` indexes and bm25 counts.
struct PostgresFoodSearchDocumentTokens {
    var head: [Substring]
    var body: [Substring]
    var extra: [Substring]

    init(head: String, body: String, extra: String) {
        self.head = head.split(separator: " ")
        self.body = body.split(separator: " ")
        self.extra = extra.split(separator: " ")
    }

    init(_ document: FoodSearchDocument) {
        self.init(head: document.head, body: document.body, extra: document.extra)
    }

    var count: Int { head.count + body.count + extra.count }
}

/// One word of the full-text query: a complete stem ("chicken") or a prefix still being typed ("brea*").
struct PostgresFoodSearchPhrase: Hashable {
    var lexeme: String
    var isPrefix: Bool

    /// As a tsquery operand: quoted, so PostgreSQL takes the lexeme as it is.
    var tsquery: String {
        let quoted = "'" + lexeme.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
        return isPrefix ? quoted + ":*" : quoted
    }

    func matches(_ token: Substring) -> Bool {
        isPrefix ? token.hasPrefix(lexeme) : token == lexeme
    }
}

/// The full-text part of a search, built from the typed query exactly as the SQLite search builds its FTS5 query
/// (`FoodSearch.matchExpression`): every term must match; a prefix term matches its stem or the word as typed
/// (the index holds stems, "strawberri", and a word still being typed may stem differently, "strawberr");
/// one-letter prefixes are left to the ranker.
struct PostgresFoodSearchPlan {
    /// Per query term, the phrases any of which satisfies it.
    var terms: [[PostgresFoodSearchPhrase]]

    init?(_ query: FoodSearchQuery) {
        terms = query.terms.map(Self.phrases(for:)).filter { !$0.isEmpty }
        if terms.isEmpty { return nil }
    }

    /// In query order, as FTS5 numbers its phrases.
    var phrases: [PostgresFoodSearchPhrase] { terms.flatMap { $0 } }

    var tsquery: String {
        terms.map { alternatives in
            alternatives.count == 1
                ? alternatives[0].tsquery : "(" + alternatives.map(\.tsquery).joined(separator: " | ") + ")"
        }.joined(separator: " & ")
    }
}

extension PostgresFoodSearchPlan {
    /// The phrases one term becomes (none for a one-letter prefix).
    static func phrases(for term: FoodSearchQuery.Term) -> [PostgresFoodSearchPhrase] {
        guard term.isPrefix else { return [PostgresFoodSearchPhrase(lexeme: term.stem, isPrefix: false)] }
        guard term.word.count >= 2 else { return [] }
        if term.stem == term.word || term.word.hasPrefix(term.stem) {
            return [PostgresFoodSearchPhrase(lexeme: term.stem, isPrefix: true)]
        }
        return [
            PostgresFoodSearchPhrase(lexeme: term.stem, isPrefix: true),
            PostgresFoodSearchPhrase(lexeme: term.word, isPrefix: true),
        ]
    }
}

/// Okapi BM25 exactly as SQLite's FTS5 computes its `bm25()` (fts5_aux.c), so that the ranker, which mixes it into
/// its score, orders PostgreSQL's candidates as it orders SQLite's. Per phrase: IDF = ln((N − n + 0.5) / (n + 0.5)),
/// floored at 1e-6; the phrase's frequency in a food is the sum of its column weights over every matching word;
/// k1 = 1.2, b = 0.75, the food's length counts the words of every column. Negative, lower is better.
struct PostgresFoodSearchBM25 {
    static let k1 = 1.2
    static let b = 0.75
    /// The SQLite search's column weights (`FoodSearch.columnWeights`): head, body, extra.
    static let weights = (head: 10.0, body: 3.0, extra: 1.5)

    let phrases: [PostgresFoodSearchPhrase]
    let inverseDocumentFrequencies: [Double]
    let averageLength: Double

    /// - Parameters:
    ///   - documentCounts: per phrase, how many foods of the catalog it matches.
    ///   - foodCount, tokenCount: the catalog's size, in foods and in indexed words.
    init(phrases: [PostgresFoodSearchPhrase], documentCounts: [Int], foodCount: Int, tokenCount: Int) {
        self.phrases = phrases
        let rows = Double(foodCount)
        inverseDocumentFrequencies = documentCounts.map { hits in
            let idf = log((rows - Double(hits) + 0.5) / (Double(hits) + 0.5))
            return idf <= 0 ? 1e-6 : idf
        }
        averageLength = Double(tokenCount) / Double(max(foodCount, 1))
    }

    func score(_ tokens: PostgresFoodSearchDocumentTokens) -> Double {
        let length = Double(tokens.count)
        var score = 0.0
        for (index, phrase) in phrases.enumerated() {
            var frequency = 0.0
            for token in tokens.head where phrase.matches(token) { frequency += Self.weights.head }
            for token in tokens.body where phrase.matches(token) { frequency += Self.weights.body }
            for token in tokens.extra where phrase.matches(token) { frequency += Self.weights.extra }
            score += inverseDocumentFrequencies[index]
                * ((frequency * (Self.k1 + 1.0)) / (frequency + Self.k1 * (1 - Self.b + Self.b * length / averageLength)))
        }
        return -1.0 * score
    }
}

/// How many foods each phrase matches, remembered per catalog: people type the same prefixes ("ch", "chi",
/// "chick") over and over, and counting a short prefix's matches is the costliest part of a search's IDF.
/// Tied to the catalog's content hash, so a new import is never scored with the old counts.
final class PostgresFoodSearchDocumentCounts: @unchecked Sendable {
    private let lock = NSLock()
    private var contentHash: String?
    private var counts: [PostgresFoodSearchPhrase: Int] = [:]
    /// Past this many phrases the cache starts over; a phrase is a few dozen bytes.
    static let capacity = 20_000

    func counts(for phrases: [PostgresFoodSearchPhrase]) -> [PostgresFoodSearchPhrase: Int] {
        lock.withLock {
            var found: [PostgresFoodSearchPhrase: Int] = [:]
            for phrase in phrases { found[phrase] = counts[phrase] }
            return found
        }
    }

    /// Remembers counts for the catalog `contentHash`. Returns false when the cache held another catalog's counts
    /// (they are dropped).
    @discardableResult
    func store(_ entries: some Sequence<(PostgresFoodSearchPhrase, Int)>, contentHash hash: String) -> Bool {
        lock.withLock {
            let sameCatalog = contentHash == nil || contentHash == hash
            if !sameCatalog || counts.count >= Self.capacity { counts.removeAll(keepingCapacity: true) }
            contentHash = hash
            for (phrase, count) in entries { counts[phrase] = count }
            return sameCatalog
        }
    }

    func clear() {
        lock.withLock { counts.removeAll() }
    }
}
