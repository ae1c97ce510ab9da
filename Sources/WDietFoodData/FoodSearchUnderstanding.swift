/// What a person typed, as the catalog would say it: misspelt words corrected to the nearest catalog word
/// ("bananna" → banana, "chiken brest" → chicken breast) and everyday phrases replaced by USDA's words
/// ("porridge" → oats cooked water). Both stores run their search on the query this returns, with the same
/// vocabulary, so they correct and replace alike.
public enum FoodSearchUnderstanding {
    public static func query(_ text: String, vocabulary: FoodSearchVocabulary) -> FoodSearchQuery {
        let typed = FoodSearchQuery(text)
        var terms = typed.terms.map { corrected($0, vocabulary: vocabulary) }
        terms = replacingSynonyms(terms, vocabulary: vocabulary)
        return FoodSearchQuery(terms: terms)
    }

    /// The term, or the catalog word nearest to it when no catalog word is it or starts with it.
    static func corrected(_ term: FoodSearchQuery.Term, vocabulary: FoodSearchVocabulary) -> FoodSearchQuery.Term {
        // Known: a catalog word, or the beginning of one as typed ("chick", "strawberr"). Not the beginning of a
        // catalog word only once stemmed: "chese" stems to "ches", which begins "chestnut".
        if vocabulary.contains(term.stem) || vocabulary.hasWord(startingWith: term.word)
            || (!term.word.hasPrefix(term.stem) && vocabulary.hasWord(startingWith: term.stem))
        {
            return term
        }
        // The stem against the catalog's stems first ("bluberries" → bluberri → blueberri); a word still being
        // typed may also be the misspelt beginning of a longer one ("avacad").
        let correction = vocabulary.correction(for: term.stem, asPrefix: term.isPrefix, typedLength: term.word.count)
            ?? (term.isPrefix ? vocabulary.correction(for: term.word, asPrefix: true) : nil)
        guard let correction else { return term }
        return FoodSearchQuery.Term(
            word: correction.word, stem: correction.word, isPrefix: term.isPrefix || correction.isPrefix)
    }

    /// Everyday phrases replaced by catalog words. A phrase whose words are all catalog words ("oatmeal" names
    /// oatmeal cookies too) is replaced only when it is the whole query: "oatmeal" alone means the porridge,
    /// "oatmeal cookies" the cookies.
    static func replacingSynonyms(_ terms: [FoodSearchQuery.Term], vocabulary: FoodSearchVocabulary) -> [FoodSearchQuery.Term] {
        guard !terms.isEmpty else { return terms }
        var result: [FoodSearchQuery.Term] = []
        var index = 0
        while index < terms.count {
            var replaced = false
            for entry in FoodSearchSynonyms.entriesByFirstStem[terms[index].stem] ?? [] where index + entry.key.count <= terms.count {
                let span = terms[index..<(index + entry.key.count)]
                guard zip(span, entry.key).allSatisfy({ $0.stem == $1 }) else { continue }
                let isWholeQuery = entry.key.count == terms.count
                let knownToCatalog = entry.key.allSatisfy { vocabulary.isCatalogWord($0) }
                guard isWholeQuery || !knownToCatalog else { continue }
                for term in FoodSearchQuery(entry.replacement + " ").terms where !result.contains(where: { $0.stem == term.stem }) {
                    result.append(term)
                }
                index += entry.key.count
                replaced = true
                break
            }
            if !replaced {
                if !result.contains(where: { $0.stem == terms[index].stem }) { result.append(terms[index]) }
                index += 1
            }
        }
        return result
    }
}
