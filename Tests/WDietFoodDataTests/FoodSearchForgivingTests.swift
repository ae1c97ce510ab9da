import Testing
@testable import WDietFoodData

/// Typo correction, everyday words, cooked-or-raw and short names, on a small hand-made vocabulary. The same
/// rules over SR28, on both backends: `FoodSearchRelevanceCases.forgiving`.
@Suite("Food search that forgives: typos, everyday words, cooked or raw, short names")
struct FoodSearchForgivingTests {
    static let vocabulary = FoodSearchVocabulary([
        ("banana", 30), ("chicken", 485), ("chikn", 5), ("breast", 69), ("bread", 136), ("broccoli", 12),
        ("carrot", 27), ("carob", 4), ("appl", 80), ("all", 200), ("ale", 2), ("avocado", 6), ("oat", 20),
        ("cooked", 900), ("water", 300), ("cooki", 150), ("oatmeal", 4), ("catsup", 2), ("pea", 40), ("tea", 60),
        ("chestnut", 5), ("chees", 200), ("cottag", 10), ("potato", 90), ("chip", 108), ("cereal", 400),
    ].map { (word: $0.0, documents: $0.1) })

    static func understood(_ text: String) -> [String] {
        FoodSearchUnderstanding.query(text, vocabulary: vocabulary).terms.map { $0.stem + ($0.isPrefix ? "*" : "") }
    }

    @Test func editDistanceCountsASwapAsOneEdit() {
        var distance = EditDistanceProbe("chiken")
        #expect(distance.whole("chicken") == 1)
        #expect(distance.whole("chikn") == 1)
        distance = EditDistanceProbe("yoguhrt")
        #expect(distance.whole("yoghurt") == 1, "h and u swapped")
        var typing = EditDistanceProbe("avacad")
        #expect(typing.prefix("avocado") == 1, "the misspelt beginning of a longer word")
        #expect(typing.whole("avocado") == 2)
    }

    @Test func misspeltWordsBecomeTheNearestCatalogWord() {
        #expect(Self.understood("bananna ") == ["banana"])
        #expect(Self.understood("chiken brest ") == ["chicken", "breast"], "chicken (485 foods) over chikn (5)")
        #expect(Self.understood("carots ") == ["carrot"], "carrot (27) over carob (4)")
        #expect(Self.understood("aple ") == ["appl"], "the word that starts like it, not 'all' nor 'ale'")
        #expect(Self.understood("avacad") == ["avocado*"], "a misspelt beginning while typing")
        #expect(Self.understood("cottage chese") == ["cottag", "chees*"], "'ches' only begins chestnut once stemmed")
    }

    @Test func shortOrKnownWordsAreLeftAlone() {
        #expect(Self.understood("pae ") == ["pae"], "three letters: too short to tell a typo from another food")
        #expect(Self.understood("chick") == ["chick*"], "the beginning of a catalog word is no typo")
        #expect(Self.understood("xylophone ") == ["xylophon"], "nothing near: left as typed, and finds nothing")
        #expect(FoodSearchVocabulary.allowedEdits(forLength: 3) == 0)
        #expect(FoodSearchVocabulary.allowedEdits(forLength: 5) == 1)
        #expect(FoodSearchVocabulary.allowedEdits(forLength: 8) == 2)
    }

    @Test func everydayWordsBecomeUSDAWords() {
        #expect(Self.understood("porridge") == ["oat", "cooked", "water"])
        #expect(Self.understood("porrige") == ["oat", "cooked", "water"], "a typo in an everyday word too")
        #expect(Self.understood("ketchup") == ["catsup"])
        #expect(Self.understood("scrambled eggs") == ["egg", "whol", "cooked", "scrambled"])
        // A word the catalog knows is replaced only when it is the whole query.
        #expect(Self.understood("oatmeal") == ["oat", "cooked", "water"])
        #expect(Self.understood("oatmeal cookies") == ["oatmeal", "cooki*"])
        // A word the catalog does not know is replaced anywhere.
        #expect(Self.understood("potato crisps") == ["potato", "chip"])
    }

    @Test func cookedFirstForFoodsEatenCooked() {
        #expect(FoodSearchRanker.preparation(group: "2000", head: "rice") == .cooked)
        #expect(FoodSearchRanker.preparation(group: "0500", head: "chicken") == .cooked)
        #expect(FoodSearchRanker.preparation(group: "0900", head: "banana") == .raw)
        #expect(FoodSearchRanker.preparation(group: "1100", head: "spinach") == .raw)
        #expect(FoodSearchRanker.preparation(group: "1100", head: "potato") == .cooked)
        #expect(FoodSearchRanker.preparation(group: "0100", head: "egg") == .cooked)
        #expect(FoodSearchRanker.preparation(group: "1600", head: "tofu") == .raw)
        func rank(_ group: String, _ names: [String], _ query: String) -> [String] {
            FoodSearchRanker.rank(
                names.map { FoodSearchCandidate(id: $0, longDescription: $0, prior: 0, bm25: -5, foodGroupCode: group) },
                for: FoodSearchQuery(query)
            ).map(\.id)
        }
        let rice = ["Rice, white, long-grain, regular, raw, enriched", "Rice, white, long-grain, regular, enriched, cooked"]
        #expect(rank("2000", rice, "rice").first == rice[1])
        #expect(rank("2000", rice, "rice raw").first == rice[0], "asked for raw: raw")
        let spinach = ["Spinach, raw", "Spinach, cooked, boiled, drained, without salt"]
        #expect(rank("1100", spinach, "spinach").first == spinach[0])
    }

    @Test func shortNamesLeaveOutWhatNobodyChoosesBy() {
        #expect(FoodDisplayName.short("Bananas, raw") == "Bananas, raw")
        #expect(FoodDisplayName.short("Chicken, broilers or fryers, breast, meat only, cooked, roasted")
            == "Chicken, breast, cooked, roasted")
        #expect(FoodDisplayName.short(
            "Cereals, oats, regular and quick, unenriched, cooked with water (includes boiling and microwaving), without salt")
            == "Oats, cooked with water")
        #expect(FoodDisplayName.short("Chicken, broiler or fryers, breast, skinless, boneless, meat only, raw")
            == "Chicken, breast, skinless, raw", "too many parts: the preparation stays")
        #expect(FoodDisplayName.short("Catsup") == "Catsup")
        let twins = [
            "Chicken, broiler or fryers, breast, skinless, boneless, meat only, raw",
            "Chicken, broilers or fryers, breast, skinless, boneless, meat only, with added solution, raw",
            "Bananas, raw",
        ]
        #expect(FoodDisplayName.short(twins) == [
            "Chicken, breast, skinless, boneless, raw", "Chicken, breast, skinless, boneless, with added solution, raw",
            "Bananas, raw",
        ], "'with added solution' is a different food, not fortification: both keep every part")
        let oats = [
            "Cereals, oats, regular and quick, unenriched, cooked with water (includes boiling and microwaving), without salt",
            "Cereals, oats, regular and quick and instant, unenriched, cooked with water (includes boiling and microwaving), with salt",
        ]
        #expect(FoodDisplayName.short(oats) == [
            "Oats, regular and quick, unenriched, cooked with water, without salt",
            "Oats, regular and quick and instant, unenriched, cooked with water, with salt",
        ], "only the noise tells them apart: it stays, the asides do not")
        #expect(FoodDisplayName.withoutAsides("1 medium (7\" to 7-7/8\" long)") == "1 medium")
    }

    @Test func theCommonPortionIsAMediumOneElseTheFirst() {
        let banana = [
            HouseholdMeasure(sequence: 1, amount: 1, description: "cup, mashed", grams: 225),
            HouseholdMeasure(sequence: 5, amount: 1, description: "medium (7\" to 7-7/8\" long)", grams: 118),
        ]
        #expect(HouseholdMeasure.common(in: banana)?.grams == 118)
        #expect(HouseholdMeasure.common(in: Array(banana.prefix(1)))?.grams == 225)
        #expect(HouseholdMeasure.common(in: []) == nil)
    }
}

/// `EditDistance` on one word: the distance to all of it and to its nearest beginning.
struct EditDistanceProbe {
    var distance: EditDistance
    init(_ typed: String) { distance = EditDistance(typed: Array(typed.utf8)) }

    mutating func whole(_ word: String) -> Int? { distance.measure(Array(word.utf8), limit: 3)?.whole }
    mutating func prefix(_ word: String) -> Int? { distance.measure(Array(word.utf8), limit: 3)?.prefix }
}
