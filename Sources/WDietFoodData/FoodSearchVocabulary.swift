import Foundation

/// Every word of the catalog's search index (stems, as `FoodSearchDocument` writes them) with how many foods
/// contain it: what a misspelt word is corrected against. `FoodSearchIndex` makes it from its own words, whichever
/// backend built the index, so a typo is corrected to the same word on both.
public struct FoodSearchVocabulary: Sendable {
    /// Sorted, for prefix look-ups by binary search.
    let words: [[UInt8]]
    let documents: [Int]
    /// Indexes into `words`, by the word's first letter: a typo is rarely in the first letter, so those are
    /// tried first.
    let byInitial: [UInt8: [Int]]

    public init(_ entries: some Sequence<(word: String, documents: Int)>) {
        var merged: [String: Int] = [:]
        for entry in entries where !entry.word.isEmpty { merged[entry.word, default: 0] += entry.documents }
        // The everyday words the synonym table knows are words too: "porrige" corrects to "porridge".
        // They count no foods: `isCatalogWord` tells them apart.
        for key in FoodSearchSynonyms.keyWords where merged[key] == nil { merged[key] = 0 }
        let sorted = merged.sorted { $0.key < $1.key }
        words = sorted.map { Array($0.key.utf8) }
        documents = sorted.map(\.value)
        var byInitial: [UInt8: [Int]] = [:]
        for (index, word) in words.enumerated() { byInitial[word[0], default: []].append(index) }
        self.byInitial = byInitial
    }

    public var count: Int { words.count }

    /// Whether `word` is a word of the catalog.
    public func contains(_ word: String) -> Bool {
        let bytes = Array(word.utf8)
        let index = lowerBound(bytes)
        return index < words.count && words[index] == bytes
    }

    /// Whether `word` names at least one food (not only an everyday word the synonym table knows).
    public func isCatalogWord(_ word: String) -> Bool {
        let bytes = Array(word.utf8)
        let index = lowerBound(bytes)
        return index < words.count && words[index] == bytes && documents[index] > 0
    }

    /// Whether some word of the catalog starts with `prefix`.
    public func hasWord(startingWith prefix: String) -> Bool {
        let bytes = Array(prefix.utf8)
        let index = lowerBound(bytes)
        return index < words.count && words[index].starts(with: bytes)
    }

    private func lowerBound(_ bytes: [UInt8]) -> Int {
        var low = 0
        var high = words.count
        while low < high {
            let middle = (low + high) / 2
            if words[middle].lexicographicallyPrecedes(bytes) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    // MARK: Correction

    /// How many edits a word of this length may be away from the word meant. Short words are left alone: "pea"
    /// is one edit from "tea", "pear" and "peas"; a typo in them cannot be told from another food.
    public static func allowedEdits(forLength length: Int) -> Int {
        switch length {
        case ..<4: 0
        case 4...6: 1
        default: 2
        }
    }

    /// A correction: the catalog word, and whether only its beginning matched (a word still being typed).
    public struct Correction: Hashable, Sendable {
        public var word: String
        public var isPrefix: Bool
    }

    /// The catalog word nearest to `word` (fewest edits, a swap of two neighbouring letters counting as one; then
    /// a whole word before a beginning; then one that starts with the same two letters; then the word more foods contain), or
    /// nil when none is close enough.
    /// With `asPrefix`, `word` may also be the misspelt beginning of a catalog word ("avacad" → "avocado").
    /// `typedLength` is the length of the word as typed, when `word` is its stem ("aple" → "apl").
    public func correction(for word: String, asPrefix: Bool, typedLength: Int? = nil) -> Correction? {
        let typed = Array(word.utf8)
        let allowed = Self.allowedEdits(forLength: typedLength ?? typed.count)
        guard allowed > 0, !typed.isEmpty, typed.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) else { return nil }
        if let best = nearest(typed, allowed: allowed, asPrefix: asPrefix, among: byInitial[typed[0]] ?? []) {
            return best
        }
        return nearest(typed, allowed: allowed, asPrefix: asPrefix, among: nil)
    }

    private func nearest(_ typed: [UInt8], allowed: Int, asPrefix: Bool, among indexes: [Int]?) -> Correction? {
        var best: (edits: Int, whole: Bool, shared: Int, documents: Int, index: Int)?
        var distance = EditDistance(typed: typed)
        func consider(_ index: Int) {
            let candidate = words[index]
            if !asPrefix, abs(candidate.count - typed.count) > allowed { return }
            if asPrefix, candidate.count < typed.count - allowed { return }
            guard let (whole, prefix) = distance.measure(candidate, limit: allowed) else { return }
            let edits: Int
            let isWhole: Bool
            if whole <= allowed, whole <= prefix || !asPrefix {
                (edits, isWhole) = (whole, true)
            } else if asPrefix, prefix <= allowed {
                (edits, isWhole) = (prefix, false)
            } else {
                return
            }
            // Two words that are both within reach of each other are not a typo of one another at 0 edits.
            guard edits > 0 else { return }
            // Then the word that starts like the one typed ("aple": apple, not all), then the commoner word.
            // Two letters are enough: more would pick "chikn" (5 foods) over "chicken" (485) for "chiken".
            let shared = min(2, zip(candidate, typed).prefix { $0 == $1 }.count)
            let key = (edits: edits, whole: isWhole, shared: shared, documents: documents[index], index: index)
            if let current = best {
                if key.edits != current.edits ? key.edits < current.edits
                    : key.whole != current.whole ? key.whole
                    : key.shared != current.shared ? key.shared > current.shared
                    : key.documents > current.documents
                {
                    best = key
                }
            } else {
                best = key
            }
        }
        if let indexes {
            for index in indexes { consider(index) }
        } else {
            for index in words.indices where words[index].first != typed.first { consider(index) }
        }
        guard let best else { return nil }
        return Correction(word: String(decoding: words[best.index], as: UTF8.self), isPrefix: !best.whole)
    }
}

/// Optimal string alignment distance (Levenshtein plus the swap of two neighbouring letters), row by row, giving
/// up as soon as every cell of a row exceeds the limit.
struct EditDistance {
    let typed: [UInt8]
    private var previous2: [Int]
    private var previous: [Int]
    private var current: [Int]

    init(typed: [UInt8]) {
        self.typed = typed
        previous2 = Array(repeating: 0, count: typed.count + 1)
        previous = Array(repeating: 0, count: typed.count + 1)
        current = Array(repeating: 0, count: typed.count + 1)
    }

    /// The distance from `typed` to all of `candidate`, and to its nearest beginning; nil when both exceed `limit`.
    /// Rows run over the candidate's letters, columns over the typed word's.
    mutating func measure(_ candidate: [UInt8], limit: Int) -> (whole: Int, prefix: Int)? {
        let n = typed.count
        for column in 0...n { previous[column] = column }
        var bestPrefix = previous[n]
        for row in 1...max(candidate.count, 1) where !candidate.isEmpty {
            let letter = candidate[row - 1]
            current[0] = row
            var rowMinimum = current[0]
            for column in 1...n {
                let cost = typed[column - 1] == letter ? 0 : 1
                var value = Swift.min(previous[column] + 1, current[column - 1] + 1, previous[column - 1] + cost)
                if row > 1, column > 1, typed[column - 1] == candidate[row - 2], typed[column - 2] == letter {
                    value = Swift.min(value, previous2[column - 2] + 1)
                }
                current[column] = value
                rowMinimum = Swift.min(rowMinimum, value)
            }
            bestPrefix = Swift.min(bestPrefix, current[n])
            if rowMinimum > limit { return bestPrefix <= limit ? (Int.max / 2, bestPrefix) : nil }
            swap(&previous2, &previous)
            swap(&previous, &current)
        }
        return (previous[n], bestPrefix)
    }
}
