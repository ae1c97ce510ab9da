import Foundation

/// Every word of the catalog's search index (stems, as `FoodSearchDocument` writes them) with how many foods
/// contain it: what a misspelt word is corrected against. `FoodSearchIndex` makes it from its own words, whichever
/// backend built the index, so a typo is corrected to the same word on both.
public struct FoodSearchVocabulary: Sendable {
    /// Sorted by their bytes: for prefix look-ups by binary search, and a trie without nodes (the words below a
    /// prefix are one range) for typo correction.
    let words: [[UInt8]]
    let documents: [Int]
    let maximumLength: Int

    public init(_ entries: some Sequence<(word: String, documents: Int)>) {
        var merged: [String: Int] = [:]
        for entry in entries where !entry.word.isEmpty { merged[entry.word, default: 0] += entry.documents }
        // The everyday words the synonym table knows are words too: "porrige" corrects to "porridge".
        // They count no foods: `isCatalogWord` tells them apart.
        for key in FoodSearchSynonyms.keyWords where merged[key] == nil { merged[key] = 0 }
        let sorted = merged.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        words = sorted.map { Array($0.key.utf8) }
        documents = sorted.map(\.value)
        maximumLength = words.map(\.count).max() ?? 0
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
    ///
    /// The words with the same first letter are tried first (a typo is rarely in the first letter), then the others.
    /// Both walk the sorted words as a trie, one edit-distance row per letter of a path, and leave a branch as
    /// soon as every cell of its row is over the limit: a few hundred rows instead of a distance to every word.
    public func correction(for word: String, asPrefix: Bool, typedLength: Int? = nil) -> Correction? {
        let typed = Array(word.utf8)
        let allowed = Self.allowedEdits(forLength: typedLength ?? typed.count)
        guard allowed > 0, !typed.isEmpty, typed.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) else { return nil }
        let initial = lowerBound([typed[0]])..<lowerBound([typed[0], 0xFF])
        var walk = CorrectionWalk(vocabulary: self, typed: typed, allowed: allowed, asPrefix: asPrefix)
        walk.walk(initial, depth: 0, bestPrefix: typed.count)
        if let best = walk.choice.best { return correction(best) }
        walk.walk(0..<initial.lowerBound, depth: 0, bestPrefix: typed.count)
        walk.walk(initial.upperBound..<words.count, depth: 0, bestPrefix: typed.count)
        return walk.choice.best.map(correction)
    }

    private func correction(_ best: CorrectionChoice.Key) -> Correction {
        Correction(word: String(decoding: words[best.index], as: UTF8.self), isPrefix: !best.whole)
    }

    /// The same correction by measuring the distance to every word, one after another: the reference the trie walk
    /// is tested against.
    func correctionByScan(for word: String, asPrefix: Bool, typedLength: Int? = nil) -> Correction? {
        let typed = Array(word.utf8)
        let allowed = Self.allowedEdits(forLength: typedLength ?? typed.count)
        guard allowed > 0, !typed.isEmpty, typed.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) else { return nil }
        for sameInitial in [true, false] {
            var choice = CorrectionChoice(vocabulary: self, typed: typed, allowed: allowed, asPrefix: asPrefix)
            var distance = EditDistance(typed: typed)
            for index in words.indices where (words[index].first == typed.first) == sameInitial {
                let candidate = words[index]
                if !asPrefix, abs(candidate.count - typed.count) > allowed { continue }
                if asPrefix, candidate.count < typed.count - allowed { continue }
                guard let (whole, prefix) = distance.measure(candidate, limit: allowed) else { continue }
                choice.consider(index, whole: whole, prefix: prefix)
            }
            if let best = choice.best { return correction(best) }
        }
        return nil
    }
}

/// The best correction among the words considered, in the order they are considered: fewest edits, then a whole
/// word before a beginning, then one that starts with the same two letters, then the word more foods contain, then
/// the first considered.
struct CorrectionChoice {
    struct Key {
        var edits: Int
        var whole: Bool
        var shared: Int
        var documents: Int
        var index: Int
    }

    let vocabulary: FoodSearchVocabulary
    let typed: [UInt8]
    let allowed: Int
    let asPrefix: Bool
    private(set) var best: Key?

    init(vocabulary: FoodSearchVocabulary, typed: [UInt8], allowed: Int, asPrefix: Bool) {
        self.vocabulary = vocabulary
        self.typed = typed
        self.allowed = allowed
        self.asPrefix = asPrefix
    }

    /// Word `index`, `whole` edits from the typed word and `prefix` edits from its nearest beginning.
    mutating func consider(_ index: Int, whole: Int, prefix: Int) {
        let candidate = vocabulary.words[index]
        if !asPrefix, abs(candidate.count - typed.count) > allowed { return }
        if asPrefix, candidate.count < typed.count - allowed { return }
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
        let key = Key(edits: edits, whole: isWhole, shared: shared, documents: vocabulary.documents[index], index: index)
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
}

/// The sorted words as a trie: the words below a path of `depth` letters are a range, and its children the runs of
/// the next letter. One optimal-string-alignment row per path letter (columns over the typed word), as
/// `EditDistance.measure` computes them for each word, so every word gets the distances the scan would give it:
/// a word ending on the path gets the row's last cell (whole) and the smallest last cell along the path (prefix);
/// below a row whose every cell is over the limit, no whole word is within reach and every word keeps the path's
/// prefix distance.
struct CorrectionWalk {
    let vocabulary: FoodSearchVocabulary
    let typed: [UInt8]
    let allowed: Int
    let asPrefix: Bool
    let width: Int
    var rows: [Int]
    var choice: CorrectionChoice

    init(vocabulary: FoodSearchVocabulary, typed: [UInt8], allowed: Int, asPrefix: Bool) {
        self.vocabulary = vocabulary
        self.typed = typed
        self.allowed = allowed
        self.asPrefix = asPrefix
        width = typed.count + 1
        rows = [Int](repeating: 0, count: (vocabulary.maximumLength + 1) * width)
        for column in 0..<width { rows[column] = column }
        choice = CorrectionChoice(vocabulary: vocabulary, typed: typed, allowed: allowed, asPrefix: asPrefix)
    }

    /// The words in `range`, which share their first `depth` letters; the row of that path is `rows`' row `depth`.
    mutating func walk(_ range: Range<Int>, depth: Int, bestPrefix: Int) {
        let words = vocabulary.words
        let n = typed.count
        var start = range.lowerBound
        guard start < range.upperBound else { return }
        if words[start].count == depth {
            if depth > 0 { choice.consider(start, whole: rows[depth * width + n], prefix: bestPrefix) }
            start += 1
        }
        // Past this depth every word is longer than a whole-word correction may be.
        if !asPrefix, depth >= n + allowed { return }
        while start < range.upperBound {
            let letter = words[start][depth]
            var low = start + 1
            var high = range.upperBound
            while low < high {
                let middle = (low + high) / 2
                if words[middle][depth] == letter { low = middle + 1 } else { high = middle }
            }
            let child = start..<low
            let row = depth + 1
            let base = row * width
            let previous = depth * width
            rows[base] = row
            var rowMinimum = row
            let before: UInt8? = depth > 0 ? words[start][depth - 1] : nil
            for column in 1...n {
                let cost = typed[column - 1] == letter ? 0 : 1
                var value = Swift.min(rows[previous + column] + 1, rows[base + column - 1] + 1, rows[previous + column - 1] + cost)
                if let before, column > 1, typed[column - 1] == before, typed[column - 2] == letter {
                    value = Swift.min(value, rows[previous - width + column - 2] + 1)
                }
                rows[base + column] = value
                rowMinimum = Swift.min(rowMinimum, value)
            }
            let childBestPrefix = Swift.min(bestPrefix, rows[base + n])
            if rowMinimum > allowed {
                if asPrefix, childBestPrefix <= allowed {
                    for index in child { choice.consider(index, whole: Int.max / 2, prefix: childBestPrefix) }
                }
            } else {
                walk(child, depth: row, bestPrefix: childBestPrefix)
            }
            start = low
        }
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
