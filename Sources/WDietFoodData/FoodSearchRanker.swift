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
        /// Inside parentheses: an explanation ("(includes soft bread crumbs)"), not a different food.
        public var isAside: Bool
        /// In a segment of alternatives ("broilers or fryers", "large or small curd"), which narrows nothing down.
        public var isAlternative = false
    }

    /// First segments that only name a class of foods; the food itself follows ("Fish, salmon", "Nuts, almonds").
    /// Not "Soup" or "Snacks": a black bean soup is not black beans.
    static let categoryHeads: Set<String> = [
        "alcoholic beverage", "beverages", "cereals", "crustaceans", "fish", "game meat", "mollusks", "nuts", "oil",
        "seeds", "spices", "usda commodity",
    ]

    /// Words that mark the plain, everyday form of a food, when the query did not ask for them.
    static let genericWords = stemmed([
        "raw": 6, "whole": 2, "fresh": 3, "plain": 3, "regular": 2, "fluid": 2, "average": 4, "ripe": 2,
        "brewed": 2, "granulated": 2, "unprepared": 2, "skinless": 2, "boneless": 2, "only": 1, "cooked": 1,
    ])

    /// Words that mark a special form, when the query did not ask for them.
    static let specificWords = stemmed([
        "human": 15, "infant": 15, "toddler": 10, "babyfood": 15, "goat": 6, "sheep": 6, "buffalo": 6, "duck": 4,
        "goose": 4, "quail": 4, "imitation": 15, "substitute": 15, "meatless": 25, "vegetarian": 8, "veggie": 8, "turkey": 4, "greek": 3, "lowfat": 2, "nonfat": 2, "dry": 4, "dried": 4,
        "dehydrated": 5, "powder": 5, "powdered": 4, "canned": 3, "frozen": 3, "concentrate": 4, "condensed": 4,
        "evaporated": 4, "sweetened": 2, "low": 2, "reduced": 2, "fried": 6, "batter": 3, "breaded": 3, "mix": 3,
        "stabilized": 4, "pasteurized": 2, "salted": 2, "glucose": 3, "flour": 4, "juice": 3, "chocolate": 3,
        "flavored": 3, "candied": 4, "syrup": 3, "smoked": 2, "fermented": 4, "alaska": 5, "native": 5,
        "usda": 3, "commodity": 3, "restaurant": 4, "school": 3, "industrial": 5, "formula": 8, "tenders": 3,
        "microwaved": 2, "without": 1, "sliced": 1, "prepackaged": 4, "deli": 4, "seasoned": 2, "rotisserie": 2, "roll": 3,
        "brown": 3, "buttermilk": 6, "instant": 4, "whipped": 3, "vegetables": 3, "fruit": 3, "wheat": 4,
        "glutinous": 4, "loaf": 4, "omelet": 3, "poached": 2, "scrambled": 2, "skin": 2,
    ])

    /// Words that neither make a food special nor generic (fortification, numbers aside): not counted as
    /// words the query left unmatched.
    static let fillerWords: Set<String> = Set([
        "added", "vitamin", "vitamins", "d", "a", "c", "e", "milkfat", "enriched", "unenriched", "includes",
        "commercially", "year", "round", "all", "varieties", "variety", "commercial", "type", "types", "grades",
        "species", "mixed", "prepared", "fat", "lean", "meat", "grams", "per", "ounce", "calcium",
        "sulfate",
    ].map(FoodSearchText.stem))

    private static func stemmed(_ weights: [String: Double]) -> [String: Double] {
        Dictionary(weights.map { (FoodSearchText.stem($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// Group codes and how much a food's group says about it being what most people search for.
    static let groupWeights: [String: Double] = [
        "0100": 4, "0300": -35, "0500": 3, "0600": -3, "0700": -12, "0800": -2, "0900": 5, "1000": 1, "1100": 5,
        "1200": 3, "1300": 1, "1500": 2, "1600": 3, "1900": -2, "2000": 3, "2100": -25, "2200": -15, "2500": -4,
        "3500": -20, "3600": -25,
    ]

    // MARK: Cooked or raw

    /// The form a person usually eats a food in, when the query does not say.
    public enum Preparation: Sendable { case cooked, raw }

    /// Food groups whose foods are eaten cooked: meat, poultry, fish, legumes, grains and pasta, breakfast
    /// cereals (oats). Fruit, vegetables (salads) and the rest keep the raw or plain form first.
    static let cookedGroups: Set<String> = ["0500", "0700", "0800", "1000", "1300", "1500", "1600", "1700", "2000"]

    /// Heads of foods eaten cooked in groups that are otherwise eaten raw: starchy vegetables, and eggs among
    /// the dairy products.
    static let cookedHeads: Set<String> = Set([
        "potatoes", "sweet potato", "yam", "eggplant", "cassava", "taro", "plantains", "parsnips", "artichokes",
        "egg",
    ].map { FoodSearchText.terms($0).joined(separator: " ") })

    /// Heads of foods eaten as they are in groups that are otherwise eaten cooked.
    static let rawHeads: Set<String> = Set(["tofu", "hummus", "peanut butter", "soymilk"].map {
        FoodSearchText.terms($0).joined(separator: " ")
    })

    /// How a food's form is preferred: by its group, then by its head for the exceptions above.
    public static func preparation(group: String?, head: String) -> Preparation {
        if rawHeads.contains(head) { return .raw }
        if let group, cookedGroups.contains(group) { return .cooked }
        return cookedHeads.contains(head) ? .cooked : .raw
    }

    /// For a food eaten cooked: "cooked" (and the words that say how) instead of "raw" marks the everyday form.
    static let cookedWeights = stemmed(["cooked": 7, "raw": -4, "boiled": 1, "roasted": 1, "baked": 1])

    static let bm25Weight = 0.5
    static let wordPenalty = 1.5
    static let maximumWordPenalty = 20.0

    // MARK: Name structure

    /// The name's comma-separated segments, each as its words (stop words left out). Commas inside
    /// parentheses do not split: "(European type, such as Thompson seedless)" is one aside.
    public static func segments(of description: String) -> [[Word]] {
        segmentCache.value(for: description) { splitSegments(description) }
    }

    /// Room for every SR28 name several times over; a larger catalog cycles through it.
    private static let segmentCache = BoundedCache<String, [[Word]]>(capacity: 50_000)

    private static func splitSegments(_ description: String) -> [[Word]] {
        var segments: [[Word]] = []
        var current: [Word] = []
        var hasAlternatives = false
        var depth = 0
        var piece = ""
        func flushPiece() {
            for word in FoodSearchText.words(piece) {
                if word == "or", depth == 0 { hasAlternatives = true }
                guard !FoodSearchText.stopWords.contains(word) else { continue }
                current.append(Word(word: word, stem: FoodSearchText.stem(word), isAside: depth > 0))
            }
            piece = ""
        }
        func flushSegment() {
            flushPiece()
            if hasAlternatives {
                for index in current.indices { current[index].isAlternative = true }
            }
            if !current.isEmpty { segments.append(current) }
            current = []
            hasAlternatives = false
        }
        for character in description {
            switch character {
            case "(":
                flushPiece()
                depth += 1
            case ")":
                flushPiece()
                depth = max(0, depth - 1)
            case "," where depth == 0:
                flushSegment()
            default:
                piece.append(character)
            }
        }
        flushSegment()
        return segments
    }

    /// How many leading segments form the head: one, or two when the first only names a category.
    public static func headSegmentCount(_ segments: [[Word]]) -> Int {
        guard segments.count > 1, let first = segments.first else { return segments.count }
        return categoryHeads.contains(first.map(\.word).joined(separator: " ")) ? 2 : 1
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
            .filter { !$0.isAside && !$0.isAlternative && !fillerWords.contains($0.stem) && !$0.word.allSatisfy(\.isNumber) }
        let qualifiers = words.reduce(0.0) { total, word in
            total + (genericWords[word.stem] ?? 0)
                - (specificWords[word.stem] ?? 0)
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

    /// What the per-query score needs of a food's name, worked out once: its segments and words, how many form the
    /// head, whether the food is eaten cooked, and each word's weights when the query leaves it unmatched.
    /// `FoodSearchIndex` keeps one per food, so a search looks nothing up by string.
    public struct Profile: Sendable {
        var segments: [[Word]]
        var headCount: Int
        var eatenCooked: Bool
        /// Per word of `segments`: what it adds to the score when the query leaves it unmatched.
        var unmatched: [[Unmatched]]

        struct Unmatched: Sendable {
            /// Counted among the words the query did not ask for (not an alternative, a filler word or a number).
            var counts: Bool
            /// For a food eaten cooked: "cooked" instead of "raw" marks the everyday form.
            var cookedWeight: Double?
            var genericWeight: Double
            var specificWeight: Double
        }
    }

    public static func profile(longDescription: String, foodGroupCode: String?) -> Profile {
        let segments = segments(of: longDescription)
        let headCount = headSegmentCount(segments)
        let head = segments.prefix(headCount).last.map { $0.map(\.stem).joined(separator: " ") } ?? ""
        let eatenCooked = preparation(group: foodGroupCode, head: head) == .cooked
        let unmatched = segments.map { segment in
            segment.map { word in
                Profile.Unmatched(
                    counts: !word.isAlternative && !fillerWords.contains(word.stem) && !word.word.allSatisfy(\.isNumber),
                    cookedWeight: eatenCooked ? cookedWeights[word.stem] : nil,
                    genericWeight: genericWords[word.stem] ?? 0, specificWeight: specificWords[word.stem] ?? 0)
            }
        }
        return Profile(segments: segments, headCount: headCount, eatenCooked: eatenCooked, unmatched: unmatched)
    }

    /// Higher is better.
    public static func score(_ candidate: FoodSearchCandidate, for query: FoodSearchQuery) -> Double {
        score(
            profile(longDescription: candidate.longDescription, foodGroupCode: candidate.foodGroupCode),
            prior: candidate.prior, bm25: candidate.bm25, for: query)
    }

    /// Higher is better.
    public static func score(_ profile: Profile, prior: Double, bm25: Double, for query: FoodSearchQuery) -> Double {
        var wordCount = 0
        for segment in profile.segments { wordCount += segment.count }
        // Which words the query matched, word by word through the segments: on the stack, not an array per segment
        // (allocating those, and looking up their generic type, was ~1 % of an uncached search's server CPU).
        return withUnsafeTemporaryAllocation(of: Bool.self, capacity: max(wordCount, 1)) { matched in
            matched.initialize(repeating: false)
            return score(profile, prior: prior, bm25: bm25, for: query, matched: matched)
        }
    }

    private static func score(
        _ profile: Profile, prior: Double, bm25: Double, for query: FoodSearchQuery, matched: UnsafeMutableBufferPointer<Bool>
    ) -> Double {
        let segments = profile.segments
        let headCount = profile.headCount
        var score = prior - bm25 * bm25Weight
        var allInHead = true
        for term in query.terms {
            // `flat`: the word's place among all the name's words.
            var best: (segment: Int, flat: Int, exact: Bool)?
            var segmentStart = 0
            for (segmentIndex, segment) in segments.enumerated() where best == nil {
                var prefixMatch: Int?
                for (wordIndex, word) in segment.enumerated() {
                    if word.stem == term.stem {
                        best = (segmentIndex, segmentStart + wordIndex, true)
                        break
                    }
                    if prefixMatch == nil, term.isPrefix,
                        word.word.hasPrefix(term.word) || word.stem.hasPrefix(term.stem)
                    {
                        prefixMatch = wordIndex
                    }
                }
                if best == nil, let prefixMatch { best = (segmentIndex, segmentStart + prefixMatch, false) }
                segmentStart += segment.count
            }
            guard let best else {
                // Matched through the common name or manufacturer only.
                score += 8
                allInHead = false
                continue
            }
            matched[best.flat] = true
            if best.segment < headCount {
                score += 40
            } else {
                allInHead = false
                // USDA puts the cut or variety a few segments in ("Chicken, broilers or fryers, breast").
                score += max(10, 30 - 4 * Double(best.segment - headCount))
            }
            if best.exact { score += 6 }
        }
        if allInHead { score += 12 }

        // A head the query covers entirely ("Bananas" for "banana", but not "Banana chips") is the food itself.
        var headCovered = true
        var unmatchedCount = 0
        var segmentStart = 0
        for (segmentIndex, segment) in segments.enumerated() {
            defer { segmentStart += segment.count }
            for (wordIndex, word) in segment.enumerated() where !matched[segmentStart + wordIndex] {
                let isCategory = segmentIndex == 0 && headCount == 2
                guard !word.isAside else { continue }
                if segmentIndex < headCount, !isCategory, !word.isAlternative { headCovered = false }
                let weights = profile.unmatched[segmentIndex][wordIndex]
                if weights.counts { unmatchedCount += 1 }
                // For a food eaten cooked, "cooked" instead of "raw" marks the everyday form.
                if let weight = weights.cookedWeight {
                    score += weight
                } else {
                    score += weights.genericWeight
                }
                score -= weights.specificWeight
            }
        }
        if headCovered { score += 25 }
        score -= min(maximumWordPenalty, wordPenalty * Double(unmatchedCount))
        return score
    }

    /// Whether the food is one people eat cooked (`preparation(group:head:)`), from its head segment.
    static func isEatenCooked(_ candidate: FoodSearchCandidate, segments: [[Word]], headCount: Int) -> Bool {
        let head = segments.prefix(headCount).last.map { $0.map(\.stem).joined(separator: " ") } ?? ""
        return preparation(group: candidate.foodGroupCode, head: head) == .cooked
    }

    /// The candidates ordered best first; ties keep the static order they came in.
    public static func rank(_ candidates: [FoodSearchCandidate], for query: FoodSearchQuery) -> [FoodSearchCandidate] {
        rankedOrder(candidates, for: query).map { candidates[$0] }
    }

    /// The candidates' indexes, best first; ties keep the order they came in.
    public static func rankedOrder(_ candidates: [FoodSearchCandidate], for query: FoodSearchQuery) -> [Int] {
        order(candidates.map { score($0, for: query) })
    }

    /// Indexes of `scores`, highest first; ties keep their order.
    public static func order(_ scores: [Double]) -> [Int] {
        scores.indices
            .map { (offset: $0, score: scores[$0]) }
            .sorted { $0.score != $1.score ? $0.score > $1.score : $0.offset < $1.offset }
            .map(\.offset)
    }
}
