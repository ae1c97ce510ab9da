import Foundation

/// The food search, in memory: built once from the catalog a store holds (the catalog does not change while a
/// server runs) and then answering every search without the database. The SQLite and the PostgreSQL store build it
/// from the same rows with the same code, so both answer every query alike; the database stays the catalog's store.
///
/// What it holds, by food position (the catalog's static order, `food.ordinal` − 1):
/// - the words of each food's `FoodSearchDocument` as word numbers, column by column (head, body, extra);
/// - the sorted vocabulary with, per word, the ascending positions of the foods that contain it (a posting list).
///   Words are numbered in sorted order, so the words a prefix matches are one range of numbers;
/// - what a result shows: name, group, macros per 100 g, household measures.
///
/// A search follows the database searches it replaces step by step (see docs/food-search.md): every term must
/// match, the first 400 matches in static order are scored with bm25 exactly as SQLite's FTS5 computes it (column
/// weights 10, 3, 1.5), the first 50 and the best 50 by bm25 are ranked by `FoodSearchRanker`.
public final class FoodSearchIndex: Sendable {
    /// One food as a store reads it, in static order.
    public struct Entry: Hashable, Sendable {
        public var id: String
        public var longDescription: String
        public var commonName: String?
        public var manufacturer: String?
        public var foodGroupCode: String
        public var foodGroupDescription: String
        /// `FoodSearchRanker.prior(of:)`, as stored at import.
        public var prior: Double
        public var kcal: Double?
        public var protein: Double?
        public var carbohydrate: Double?
        public var fat: Double?
        public var fiber: Double?
        public var measures: [HouseholdMeasure]

        public init(
            id: String, longDescription: String, commonName: String?, manufacturer: String?, foodGroupCode: String,
            foodGroupDescription: String, prior: Double, kcal: Double?, protein: Double?, carbohydrate: Double?,
            fat: Double?, fiber: Double?, measures: [HouseholdMeasure]
        ) {
            self.id = id
            self.longDescription = longDescription
            self.commonName = commonName
            self.manufacturer = manufacturer
            self.foodGroupCode = foodGroupCode
            self.foodGroupDescription = foodGroupDescription
            self.prior = prior
            self.kcal = kcal
            self.protein = protein
            self.carbohydrate = carbohydrate
            self.fat = fat
            self.fiber = fiber
            self.measures = measures
        }
    }

    /// How many matches a query looks at, at most, in static order: on a small catalog every match, on a huge one
    /// the most generic matches.
    public static let candidateLimit = 400
    /// How many of those are ranked in full, from each of bm25 order and static order.
    public static let rankedPerSource = 50
    /// bm25 weights of the head, body and extra columns.
    public static let columnWeights = (head: 10.0, body: 3.0, extra: 1.5)

    public let contentHash: String
    public let entries: [Entry]
    /// The catalog's words and the synonym table's keys, for typo correction and everyday words.
    public let vocabulary: FoodSearchVocabulary

    /// Sorted; a word's number is its place here.
    let words: [[UInt8]]
    /// The postings of word `w` are `postings[postingStarts[w]..<postingStarts[w + 1]]`, ascending positions.
    let postings: [UInt32]
    let postingStarts: [Int]
    /// Every food's words as numbers, head then body then extra; food `p`'s columns end at `columnEnds[3p]`,
    /// `[3p + 1]`, `[3p + 2]` and begin where the previous food's end.
    let tokens: [UInt32]
    let columnEnds: [Int]
    /// Words over every food and column: with the food count, bm25's average length.
    let tokenCount: Int
    /// Each food's name as the ranker reads it, worked out at build; for catalogs above `profiledFoods` foods,
    /// worked out per candidate instead (a million profiles would take gigabytes).
    let profiles: [FoodSearchRanker.Profile]
    static let profiledFoods = 200_000
    /// Each food's prior (`Entry.prior`), apart: reading it through `entries` copied the whole entry, a retain of
    /// each of its strings, for every candidate.
    let priors: [Double]

    func profile(_ position: Int) -> FoodSearchRanker.Profile {
        if position < profiles.count { return profiles[position] }
        return FoodSearchRanker.profile(
            longDescription: entries[position].longDescription, foodGroupCode: entries[position].foodGroupCode)
    }

    public var count: Int { entries.count }

    /// The words of the catalog's search documents, sorted.
    public var wordList: [String] { words.map { String(decoding: $0, as: UTF8.self) } }

    /// How many foods contain `word` (0 for a word the catalog does not have).
    public func documentCount(of word: String) -> Int {
        let range = wordRange(FoodSearchPhrase(lexeme: word, isPrefix: false))
        return range.isEmpty ? 0 : postingStarts[range.upperBound] - postingStarts[range.lowerBound]
    }

    public init(contentHash: String, entries: [Entry]) {
        self.contentHash = contentHash
        self.entries = entries
        // Words as they come, numbered in order of appearance, then renumbered in sorted order.
        var numbers: [String: UInt32] = [:]
        var found: [String] = []
        var provisional: [UInt32] = []
        var columnEnds: [Int] = []
        columnEnds.reserveCapacity(entries.count * 3)
        for entry in entries {
            let document = FoodSearchDocument(
                longDescription: entry.longDescription, commonName: entry.commonName, manufacturer: entry.manufacturer)
            for column in [document.head, document.body, document.extra] {
                for word in column.split(separator: " ") {
                    let text = String(word)
                    if let number = numbers[text] {
                        provisional.append(number)
                    } else {
                        let number = UInt32(found.count)
                        numbers[text] = number
                        found.append(text)
                        provisional.append(number)
                    }
                }
                columnEnds.append(provisional.count)
            }
        }
        let order = found.indices.sorted { found[$0].utf8.lexicographicallyPrecedes(found[$1].utf8) }
        var sortedNumber = [UInt32](repeating: 0, count: found.count)
        for (place, index) in order.enumerated() { sortedNumber[index] = UInt32(place) }
        let sortedWords = order.map { Array(found[$0].utf8) }
        words = sortedWords
        tokens = provisional.map { sortedNumber[Int($0)] }
        self.columnEnds = columnEnds
        tokenCount = tokens.count

        // Posting lists: each food counted once per word, in position order, so every list is ascending.
        var documentCounts = [Int](repeating: 0, count: words.count)
        var lastSeen = [Int](repeating: -1, count: words.count)
        for position in entries.indices {
            for token in Self.tokenRange(position, columnEnds) {
                let word = Int(tokens[token])
                if lastSeen[word] != position {
                    lastSeen[word] = position
                    documentCounts[word] += 1
                }
            }
        }
        var starts = [Int](repeating: 0, count: words.count + 1)
        for word in words.indices { starts[word + 1] = starts[word] + documentCounts[word] }
        var fill = Array(starts.dropLast())
        var postings = [UInt32](repeating: 0, count: starts[words.count])
        for index in lastSeen.indices { lastSeen[index] = -1 }
        for position in entries.indices {
            for token in Self.tokenRange(position, columnEnds) {
                let word = Int(tokens[token])
                if lastSeen[word] != position {
                    lastSeen[word] = position
                    postings[fill[word]] = UInt32(position)
                    fill[word] += 1
                }
            }
        }
        self.postings = postings
        postingStarts = starts
        priors = entries.map(\.prior)
        profiles = entries.count > Self.profiledFoods ? [] : entries.map {
            FoodSearchRanker.profile(longDescription: $0.longDescription, foodGroupCode: $0.foodGroupCode)
        }
        vocabulary = FoodSearchVocabulary(
            sortedWords.indices.lazy.map { (word: String(decoding: sortedWords[$0], as: UTF8.self), documents: documentCounts[$0]) })
    }

    static func tokenRange(_ position: Int, _ columnEnds: [Int]) -> Range<Int> {
        (position == 0 ? 0 : columnEnds[3 * position - 1])..<columnEnds[3 * position + 2]
    }

    // MARK: Search

    /// The positions of the foods found for what a person typed, best first, at most `limit`.
    public func search(_ text: String, limit: Int) -> [Int] {
        search(FoodSearchUnderstanding.query(text, vocabulary: vocabulary), limit: limit)
    }

    /// The search for a query already corrected and with everyday words replaced.
    public func search(_ query: FoodSearchQuery, limit: Int) -> [Int] {
        guard limit > 0, let plan = FoodSearchPlan(query) else { return [] }
        var rankingQuery = query
        var candidates = self.candidates(plan)
        // Complete words that match nothing may be the start of longer ones ("chick brea").
        if candidates.isEmpty, query.terms.contains(where: { !$0.isPrefix }) {
            rankingQuery = query.allPrefixes()
            if let loose = FoodSearchPlan(rankingQuery) { candidates = self.candidates(loose) }
        }
        let scores = candidates.map { position, bm25 in
            FoodSearchRanker.score(profile(position), prior: priors[position], bm25: bm25, for: rankingQuery)
        }
        return FoodSearchRanker.order(scores).prefix(limit).map { candidates[$0].position }
    }

    /// The foods worth ranking, in static order, with their bm25: of the first `candidateLimit` matches, the first
    /// `rankedPerSource` and the best `rankedPerSource` by bm25 (the head weighs most, so these are the foods named
    /// after the query).
    func candidates(_ plan: FoodSearchPlan) -> [(position: Int, bm25: Double)] {
        let phrases = plan.phrases.map(wordRange)
        let sets = phrases.map(documents)
        // A term is satisfied by any of its phrases.
        var terms: [FoodSearchDocumentSet] = []
        var phraseIndex = 0
        for alternatives in plan.terms {
            var set = sets[phraseIndex]
            for other in sets[(phraseIndex + 1)..<(phraseIndex + alternatives.count)] {
                set = set.union(other, in: self)
            }
            terms.append(set)
            phraseIndex += alternatives.count
        }
        let matches = intersection(terms)
        let bm25 = FoodSearchBM25(
            phrases: phrases, documentCounts: sets.map(\.count), foodCount: entries.count, tokenCount: tokenCount)
        let scored = matches.map { (ordinal: $0, bm25: bm25.score(position: $0, in: self)) }
        guard scored.count > Self.rankedPerSource else { return scored.map { (Int($0.ordinal), $0.bm25) } }
        // Marked by place in `scored` (each food is there once), not collected in a set of positions.
        var chosen = [Bool](repeating: false, count: scored.count)
        for place in 0..<Self.rankedPerSource { chosen[place] = true }
        for place in scored.indices.sorted(by: { scored[$0].bm25 < scored[$1].bm25 }).prefix(Self.rankedPerSource) {
            chosen[place] = true
        }
        return scored.indices.filter { chosen[$0] }.map { (Int(scored[$0].ordinal), scored[$0].bm25) }
    }

    /// The numbers of the words a phrase matches: the word itself, or every word it begins.
    func wordRange(_ phrase: FoodSearchPhrase) -> Range<Int> {
        let bytes = Array(phrase.lexeme.utf8)
        let low = lowerBound(bytes)
        if !phrase.isPrefix {
            return low < words.count && words[low] == bytes ? low..<(low + 1) : low..<low
        }
        // Every word that starts with `bytes` sorts below `bytes` + 0xFF (no UTF-8 byte is 0xFF).
        return low..<lowerBound(bytes + [0xFF], from: low)
    }

    func lowerBound(_ bytes: [UInt8], from start: Int = 0) -> Int {
        var low = start
        var high = words.count
        while low < high {
            let middle = (low + high) / 2
            if words[middle].lexicographicallyPrecedes(bytes) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The foods containing any word of `range`.
    func documents(_ range: Range<Int>) -> FoodSearchDocumentSet {
        if range.isEmpty { return .list(0..<0) }
        if range.count == 1 { return .list(postingStarts[range.lowerBound]..<postingStarts[range.upperBound]) }
        var bits = FoodSearchBitSet(capacity: entries.count)
        for position in postings[postingStarts[range.lowerBound]..<postingStarts[range.upperBound]] {
            bits.insert(Int(position))
        }
        return .bits(bits)
    }

    /// The first `candidateLimit` foods in every set, ascending: the smallest set is walked, the others probed.
    func intersection(_ sets: [FoodSearchDocumentSet]) -> [UInt32] {
        guard let smallest = sets.indices.min(by: { sets[$0].count < sets[$1].count }), sets[smallest].count > 0 else {
            return []
        }
        var others = sets.indices.filter { $0 != smallest }.map { FoodSearchDocumentProbe(sets[$0]) }
        var matches: [UInt32] = []
        sets[smallest].forEach(in: self) { position in
            for index in others.indices where !others[index].contains(position, in: self) { return true }
            matches.append(position)
            return matches.count < Self.candidateLimit
        }
        return matches
    }
}

/// The foods a phrase or term matches: a slice of one posting list, or a bit per food when several words' lists
/// had to be merged (a prefix).
enum FoodSearchDocumentSet {
    case list(Range<Int>)
    case bits(FoodSearchBitSet)

    var count: Int {
        switch self {
        case .list(let range): range.count
        case .bits(let bits): bits.count
        }
    }

    func union(_ other: FoodSearchDocumentSet, in index: FoodSearchIndex) -> FoodSearchDocumentSet {
        var bits = FoodSearchBitSet(capacity: index.entries.count)
        for set in [self, other] {
            switch set {
            case .list(let range): for position in index.postings[range] { bits.insert(Int(position)) }
            case .bits(let more): bits.formUnion(more)
            }
        }
        return .bits(bits)
    }

    /// Calls `body` with each food in ascending order until it returns false.
    func forEach(in index: FoodSearchIndex, _ body: (UInt32) -> Bool) {
        switch self {
        case .list(let range):
            for position in index.postings[range] where !body(position) { return }
        case .bits(let bits):
            bits.forEach(body)
        }
    }
}

/// Membership tests on a set in ascending order: a posting list is searched forward from the last place found.
struct FoodSearchDocumentProbe {
    let set: FoodSearchDocumentSet
    var cursor: Int

    init(_ set: FoodSearchDocumentSet) {
        self.set = set
        if case .list(let range) = set { cursor = range.lowerBound } else { cursor = 0 }
    }

    mutating func contains(_ position: UInt32, in index: FoodSearchIndex) -> Bool {
        switch set {
        case .bits(let bits):
            return bits.contains(Int(position))
        case .list(let range):
            // Galloping search forward from the cursor: the probes come in ascending order.
            var step = 1
            var low = cursor
            var high = cursor
            while high < range.upperBound, index.postings[high] < position {
                low = high + 1
                high += step
                step *= 2
            }
            high = min(high, range.upperBound)
            while low < high {
                let middle = (low + high) / 2
                if index.postings[middle] < position { low = middle + 1 } else { high = middle }
            }
            cursor = low
            return low < range.upperBound && index.postings[low] == position
        }
    }
}

/// A bit per food.
struct FoodSearchBitSet {
    var storage: [UInt64]
    private(set) var count = 0

    init(capacity: Int) {
        storage = [UInt64](repeating: 0, count: (capacity + 63) / 64)
    }

    mutating func insert(_ position: Int) {
        let mask: UInt64 = 1 << UInt64(position & 63)
        let word = position >> 6
        if storage[word] & mask == 0 {
            storage[word] |= mask
            count += 1
        }
    }

    func contains(_ position: Int) -> Bool {
        storage[position >> 6] & (1 << UInt64(position & 63)) != 0
    }

    mutating func formUnion(_ other: FoodSearchBitSet) {
        var total = 0
        for word in storage.indices {
            storage[word] |= other.storage[word]
            total += storage[word].nonzeroBitCount
        }
        count = total
    }

    func forEach(_ body: (UInt32) -> Bool) {
        for (word, bits) in storage.enumerated() where bits != 0 {
            var remaining = bits
            while remaining != 0 {
                let bit = remaining.trailingZeroBitCount
                if !body(UInt32(word << 6 | bit)) { return }
                remaining &= remaining - 1
            }
        }
    }
}

/// One word of the full-text query: a complete stem ("chicken") or a prefix still being typed ("brea*").
public struct FoodSearchPhrase: Hashable, Sendable {
    public var lexeme: String
    public var isPrefix: Bool

    public init(lexeme: String, isPrefix: Bool) {
        self.lexeme = lexeme
        self.isPrefix = isPrefix
    }
}

/// The full-text part of a search: every term must match; a prefix term matches its stem or the word as typed
/// (the index holds stems, "strawberri", and a word still being typed may stem differently, "strawberr");
/// one-letter prefixes are left to the ranker (they would match nearly everything).
public struct FoodSearchPlan: Sendable {
    /// Per query term, the phrases any of which satisfies it.
    public var terms: [[FoodSearchPhrase]]

    public init?(_ query: FoodSearchQuery) {
        terms = query.terms.map(Self.phrases(for:)).filter { !$0.isEmpty }
        if terms.isEmpty { return nil }
    }

    /// In query order, as FTS5 numbers its phrases.
    public var phrases: [FoodSearchPhrase] { terms.flatMap { $0 } }

    /// The phrases one term becomes (none for a one-letter prefix).
    public static func phrases(for term: FoodSearchQuery.Term) -> [FoodSearchPhrase] {
        guard term.isPrefix else { return [FoodSearchPhrase(lexeme: term.stem, isPrefix: false)] }
        guard term.word.count >= 2 else { return [] }
        if term.stem == term.word || term.word.hasPrefix(term.stem) {
            return [FoodSearchPhrase(lexeme: term.stem, isPrefix: true)]
        }
        return [FoodSearchPhrase(lexeme: term.stem, isPrefix: true), FoodSearchPhrase(lexeme: term.word, isPrefix: true)]
    }
}

/// Okapi BM25 exactly as SQLite's FTS5 computes its `bm25()` (fts5_aux.c), term by term and in the same order of
/// operations, so that the ranker, which mixes it into its score, orders foods as the FTS5 search did. Per phrase:
/// IDF = ln((N − n + 0.5) / (n + 0.5)), floored at 1e-6; the phrase's frequency in a food is the sum of its column
/// weights over every matching word; k1 = 1.2, b = 0.75; the food's length counts the words of every column.
/// Negative, lower is better.
struct FoodSearchBM25 {
    static let k1 = 1.2
    static let b = 0.75

    /// Per phrase, the word numbers it matches.
    let phrases: [Range<Int>]
    let inverseDocumentFrequencies: [Double]
    let averageLength: Double

    init(phrases: [Range<Int>], documentCounts: [Int], foodCount: Int, tokenCount: Int) {
        self.phrases = phrases
        let rows = Double(foodCount)
        inverseDocumentFrequencies = documentCounts.map { hits in
            let idf = log((rows - Double(hits) + 0.5) / (Double(hits) + 0.5))
            return idf <= 0 ? 1e-6 : idf
        }
        averageLength = Double(tokenCount) / Double(max(foodCount, 1))
    }

    func score(position: UInt32, in index: FoodSearchIndex) -> Double {
        let food = Int(position)
        let start = food == 0 ? 0 : index.columnEnds[3 * food - 1]
        let headEnd = index.columnEnds[3 * food]
        let bodyEnd = index.columnEnds[3 * food + 1]
        let end = index.columnEnds[3 * food + 2]
        let length = Double(end - start)
        let weights = FoodSearchIndex.columnWeights
        var score = 0.0
        for (phrase, range) in phrases.enumerated() {
            var frequency = 0.0
            let low = UInt32(range.lowerBound)
            let high = UInt32(range.upperBound)
            for token in start..<end {
                let word = index.tokens[token]
                guard word >= low, word < high else { continue }
                frequency += token < headEnd ? weights.head : token < bodyEnd ? weights.body : weights.extra
            }
            score += inverseDocumentFrequencies[phrase]
                * ((frequency * (Self.k1 + 1.0)) / (frequency + Self.k1 * (1 - Self.b + Self.b * length / averageLength)))
        }
        return -1.0 * score
    }
}

/// The indexes built so far, by the catalog's content hash: a store builds its index once per catalog (the catalog
/// does not change while a server runs; a re-import changes the hash). Two at most, so that a re-import does not
/// keep the old one alive.
public final class FoodSearchIndexes: @unchecked Sendable {
    public static let shared = FoodSearchIndexes()
    private let lock = NSLock()
    private var entries: [FoodSearchIndex] = []
    private var kept = 2

    public init() {}

    /// How many indexes are kept, the most recently stored ones (2 in a server). A test seam: the test process
    /// searches SR28 beside a few tiny catalogs, and with two kept it rebuilt SR28's index after them — each
    /// parameterised case at once, since every search that finds no index builds one.
    public var capacity: Int {
        get { lock.withLock { kept } }
        set { lock.withLock { kept = max(1, newValue) } }
    }

    public func index(for contentHash: String) -> FoodSearchIndex? {
        lock.withLock { entries.last { $0.contentHash == contentHash } }
    }

    public func store(_ index: FoodSearchIndex) {
        lock.withLock {
            entries.removeAll { $0.contentHash == index.contentHash }
            entries.append(index)
            if entries.count > kept { entries.removeFirst(entries.count - kept) }
        }
    }
}
