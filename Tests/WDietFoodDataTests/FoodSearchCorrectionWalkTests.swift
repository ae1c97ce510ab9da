import Testing
@testable import WDietFoodData

/// Typo correction walks the sorted vocabulary as a trie (`CorrectionWalk`) instead of measuring the distance to
/// every word; it must pick exactly the word the scan picks (`correctionByScan`), ties included, over SR28's own
/// vocabulary and typos of every kind.
@Suite("Typo correction: the trie walk picks what the scan picks")
struct FoodSearchCorrectionWalkTests {
    /// SR28's vocabulary, made once for both tests (building an index of 8,789 foods takes seconds in a debug build).
    static func vocabulary() async throws -> FoodSearchVocabulary { try await made.value }

    private static let made = Task { try await makeVocabulary() }

    static func makeVocabulary() async throws -> FoodSearchVocabulary {
        let catalog = try await SR28TestData.catalog.value
        let entries = catalog.foods.map { food in
            FoodSearchIndex.Entry(
                id: food.id, longDescription: food.longDescription, commonName: food.commonName,
                manufacturer: food.manufacturer, foodGroupCode: food.foodGroupCode, foodGroupDescription: "",
                prior: FoodSearchRanker.prior(of: food), kcal: nil, protein: nil, carbohydrate: nil, fat: nil, fiber: nil,
                measures: [])
        }
        return FoodSearchIndex(contentHash: "test", entries: entries).vocabulary
    }

    /// Every 25th word of the vocabulary with four letters or more: 2,040 lookups (each typed word whole and as a
    /// prefix), every kind of typo at a position that moves with the word, two at once in long words, and
    /// beginnings (`checkCorrectionWalk` says how they are made). The same check over every 5th word (over
    /// 10,000 lookups, most of a minute of a debug build's CPU on this machine) runs in release in the benchmark:
    /// `wdiet-dev bench --only search` ("Typo correction: …").
    @Test func sameCorrectionAsTheScan() async throws {
        let vocabulary = try await Self.vocabulary()
        let check = vocabulary.checkCorrectionWalk(everyNthWord: 25)
        #expect(check.differing.isEmpty, "\(check.differing.count) of \(check.checked) differ: \(check.differing.prefix(5))")
        #expect(check.checked > 2_000)
        #expect(check.corrected > check.checked / 2, "most typos find a word")
    }

    @Test func knownCorrections() async throws {
        let vocabulary = try await Self.vocabulary()
        #expect(vocabulary.correction(for: "bananna", asPrefix: false)?.word == "banana")
        #expect(vocabulary.correction(for: "brocoli", asPrefix: false)?.word == "broccoli")
        #expect(vocabulary.correction(for: "avacad", asPrefix: true) == .init(word: "avocado", isPrefix: true))
        #expect(vocabulary.correction(for: "qxzvw", asPrefix: false) == nil)
    }
}
