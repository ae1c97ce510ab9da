/// Orders the foods the index matched so that the one a person means comes first: "banana" → "Bananas, raw",
/// "milk" → whole cow's milk, not "Milk, human" nor a babyfood.
///
/// Two parts: a static prior per food, known at import (everyday foods up, baby foods, fast food, restaurant
/// meals and brands down), and a per-query score on the name's structure. USDA names go from general to
/// specific ("Chicken, broilers or fryers, breast, meat only, raw"), so a query word that matches early,
/// and a name with few words the query did not ask for, mean the generic food.
public enum FoodSearchRanker {
    /// A word of a food name, as written (lowercased, folded) and stemmed.
    public struct Word: Hashable, Sendable {
        public var word: String
        public var stem: String
    }

    /// First segments that only name a category; the real head follows ("Fish, salmon", "Nuts, almonds").
    static let categoryHeads: Set<String> = [
        "alcoholic beverage", "babyfood", "beverages", "candies", "cereals", "cereals ready-to-eat", "crustaceans",
        "fast foods", "fish", "game meat", "infant formula", "mollusks", "nuts", "oil", "restaurant", "sauce",
        "seeds", "snacks", "soup", "spices", "usda commodity",
    ]

    /// Words that mark the plain, everyday form of a food, when the query did not ask for them.
    static let genericWords: [String: Double] = [
        "raw": 6, "whole": 4, "fresh": 3, "plain": 3, "regular": 2, "fluid": 2, "commercial": 1, "varieti": 1,
        "average": 1, "only": 1, "skinless": 2, "boneless": 2, "cooked": 1,
    ]

    /// Words that mark a special form, when the query did not ask for them.
    static let specificWords: [String: Double] = [
        "human": 15, "infant": 15, "toddler": 10, "babyfood": 15, "goat": 6, "sheep": 6, "buffalo": 6, "duck": 4,
        "goose": 4, "quail": 4, "imitation": 8, "substitut": 8, "dry": 4, "dried": 4, "dehydrated": 5,
        "powder": 5, "powdered": 4, "canned": 3, "frozen": 3, "concentrat": 4, "condensed": 4, "evaporated": 4,
        "sweetened": 2, "low": 2, "reduced": 2, "fried": 2, "batter": 3, "breaded": 3, "mix": 3,
        "stabilized": 4, "pasteurized": 2, "salted": 2, "glucose": 3, "flour": 4, "juic": 3, "chocolat": 3,
        "flavored": 3, "candied": 4, "syrup": 3, "smoked": 2, "fermented": 4, "alaska": 5, "native": 5,
        "usda": 3, "commodity": 3, "restaurant": 4, "school": 3, "industrial": 5, "formula": 8, "tender": 2,
        "microwaved": 2, "sliced": 1, "prepackaged": 3, "deli": 3,
    ]

    /// Group codes and how much a food's group says about it being what most people search for.
    static let groupWeights: [String: Double] = [
        "0100": 4, "0300": -35, "0500": 3, "0600": -3, "0700": -4, "0800": -2, "0900": 5, "1000": 1, "1100": 5,
        "1200": 3, "1300": 1, "1500": 2, "1600": 3, "1900": -2, "2000": 3, "2100": -25, "2200": -15, "2500": -4,
        "3500": -20, "3600": -25,
    ]

    static let bm25Weight = 0.5
    static let wordPenalty = 1.5
    static let maximumWordPenalty = 20.0

    // MARK: Name structure

    /// The name's comma-separated segments, each as its words (stop words left out).
    public static func segments(of description: String) -> [[Word]] {
        description.split(separator: ",").compactMap { segment in
            let words = FoodSearchText.words(String(segment))
                .filter { !FoodSearchText.stopWords.contains($0) }
                .map { Word(word: $0, stem: FoodSearchText.stem($0)) }
            return words.isEmpty ? nil : words
        }
    }

    /// How many leading segments form the head: one, or two when the first only names a category.
    public static func headSegmentCount(_ segments: [[Word]]) -> Int {
        guard segments.count > 1, let first = segments.first else { return segments.count }
        let lead = first.map(\.word).joined(separator: " ")
        return categoryHeads.contains(lead) || categoryHeads.contains(first.map(\.word).joined(separator: "-"))
            || categoryHeadWords(first) ? 2 : 1
    }

    private static func categoryHeadWords(_ words: [Word]) -> Bool {
        // "Cereals ready-to-eat" splits into four words; compare without the hyphens.
        words.map(\.word).joined(separator: " ") == "cereals ready to eat"
    }

    // MARK: Static prior

    /// What is known about a food before any query: its group, whether it is branded, whether USDA's dietary
    /// surveys use it. Stored at import.
    public static func prior(of food: Food) -> Double {
        var prior = groupWeights[food.foodGroupCode] ?? 0
        if food.isSurveyFood { prior += 8 }
        if isBranded(food) { prior -= 15 }
        return prior
    }

    /// The order foods are numbered in at import, most generic first. When a very common prefix matches more
    /// foods than a query may look at, the index hands them over in this order.
    public static func staticOrderKey(of food: Food) -> Double {
        let words = segments(of: food.longDescription).flatMap { $0 }
        let qualifiers = words.reduce(0.0) { total, word in
            total + (genericWords[word.stem] ?? genericWords[word.word] ?? 0)
                - (specificWords[word.stem] ?? specificWords[word.word] ?? 0)
        }
        return prior(of: food) + qualifiers - min(maximumWordPenalty, wordPenalty * Double(words.count))
    }

    /// A manufacturer, or a brand written in capitals in the name ("KELLOGG'S", "OSCAR MAYER").
    public static func isBranded(_ food: Food) -> Bool {
        if let manufacturer = food.manufacturer, !manufacturer.isEmpty { return true }
        let notBrands: Set<Substring> = ["USDA", "BBQ", "NFS", "NS", "II", "III", "UHT", "DHA", "ARA"]
        return food.longDescription.split(whereSeparator: { !$0.isLetter && $0 != "'" }).contains { word in
            word.count >= 3 && !notBrands.contains(word)
                && word.allSatisfy { $0.isUppercase || $0 == "'" } && word.contains(where: \.isLetter)
        }
    }

    // MARK: Per-query score

    /// Higher is better.
    public static func score(_ candidate: FoodSearchCandidate, for query: FoodSearchQuery) -> Double {
        let segments = segments(of: candidate.longDescription)
        let headCount = headSegmentCount(segments)
        var matched = Array(repeating: [Bool](), count: segments.count)
        for index in segments.indices { matched[index] = Array(repeating: false, count: segments[index].count) }

        var score = candidate.prior - candidate.bm25 * bm25Weight
        var allInHead = true
        for term in query.terms {
            var best: (segment: Int, word: Int, exact: Bool)?
            for (segmentIndex, segment) in segments.enumerated() where best == nil {
                var prefixMatch: Int?
                for (wordIndex, word) in segment.enumerated() {
                    if word.stem == term.stem {
                        best = (segmentIndex, wordIndex, true)
                        break
                    }
                    if prefixMatch == nil, term.isPrefix,
                        word.word.hasPrefix(term.word) || word.stem.hasPrefix(term.stem)
                    {
                        prefixMatch = wordIndex
                    }
                }
                if best == nil, let prefixMatch { best = (segmentIndex, prefixMatch, false) }
            }
            guard let best else {
                // Matched through the common name or manufacturer only.
                score += 8
                allInHead = false
                continue
            }
            matched[best.segment][best.word] = true
            if best.segment < headCount {
                score += 40
            } else {
                allInHead = false
                score += best.segment == headCount ? 22 : max(4, 14 - 2 * Double(best.segment - headCount - 1))
            }
            if best.exact { score += 6 }
        }
        if allInHead { score += 12 }

        // A head the query covers entirely ("Bananas" for "banana", but not "Banana chips") is the food itself.
        var headCovered = true
        var unmatchedCount = 0
        for (segmentIndex, segment) in segments.enumerated() {
            for (wordIndex, word) in segment.enumerated() where !matched[segmentIndex][wordIndex] {
                let isCategory = segmentIndex == 0 && headCount == 2
                if segmentIndex < headCount, !isCategory { headCovered = false }
                unmatchedCount += 1
                score += genericWords[word.stem] ?? genericWords[word.word] ?? 0
                score -= specificWords[word.stem] ?? specificWords[word.word] ?? 0
            }
        }
        if headCovered { score += 25 }
        score -= min(maximumWordPenalty, wordPenalty * Double(unmatchedCount))
        return score
    }

    /// The candidates ordered best first; ties keep the static order they came in.
    public static func rank(_ candidates: [FoodSearchCandidate], for query: FoodSearchQuery) -> [FoodSearchCandidate] {
        candidates.enumerated()
            .map { (offset: $0.offset, candidate: $0.element, score: score($0.element, for: query)) }
            .sorted { $0.score != $1.score ? $0.score > $1.score : $0.offset < $1.offset }
            .map(\.candidate)
    }
}
