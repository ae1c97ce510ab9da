/// What a person typed into the food search, as terms. The last word is a prefix while they are still typing
/// ("banan"), unless the text ends in a space or punctuation.
public struct FoodSearchQuery: Hashable, Sendable {
    public struct Term: Hashable, Sendable {
        /// The word as typed, lowercased and folded.
        public var word: String
        /// Its stem, as stored in the index.
        public var stem: String
        public var isPrefix: Bool

        public init(word: String, stem: String, isPrefix: Bool) {
            self.word = word
            self.stem = stem
            self.isPrefix = isPrefix
        }
    }

    public private(set) var terms: [Term]

    /// More terms than this are ignored: no food name needs them, and each one costs a doclist merge.
    public static let maximumTerms = 8

    public init(_ text: String) {
        let words = FoodSearchText.words(text)
        let endsInWord = text.unicodeScalars.last.map {
            $0.properties.isAlphabetic || $0.properties.numericType != nil
        } ?? false
        var kept = words.enumerated().filter { !FoodSearchText.stopWords.contains($0.element) }
        if kept.isEmpty { kept = Array(words.enumerated()) }
        var terms: [Term] = []
        for (index, word) in kept {
            let isPrefix = endsInWord && index == words.count - 1
            let term = Term(word: word, stem: FoodSearchText.stem(word), isPrefix: isPrefix)
            if let same = terms.firstIndex(where: { $0.stem == term.stem }) {
                // "egg eggs" asks for one thing; keep the stricter, complete-word form.
                terms[same].isPrefix = terms[same].isPrefix && term.isPrefix
            } else {
                terms.append(term)
            }
        }
        self.terms = Array(terms.prefix(Self.maximumTerms))
    }

    /// Terms already worked out (`FoodSearchUnderstanding`), at most `maximumTerms`.
    public init(terms: [Term]) {
        self.terms = Array(terms.prefix(Self.maximumTerms))
    }

    public var isEmpty: Bool { terms.isEmpty }
}

extension FoodSearchQuery {
    /// The same query with every term a prefix, for when the complete words find nothing ("chick brea").
    public func allPrefixes() -> FoodSearchQuery {
        var copy = self
        for index in copy.terms.indices { copy.terms[index].isPrefix = true }
        return copy
    }
}
