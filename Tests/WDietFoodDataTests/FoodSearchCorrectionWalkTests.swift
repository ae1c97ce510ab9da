import Testing
@testable import WDietFoodData

/// Typo correction walks the sorted vocabulary as a trie (`CorrectionWalk`) instead of measuring the distance to
/// every word; it must pick exactly the word the scan picks (`correctionByScan`), ties included, over SR28's own
/// vocabulary and typos of every kind.
@Suite("Typo correction: the trie walk picks what the scan picks")
struct FoodSearchCorrectionWalkTests {
    static func vocabulary() async throws -> FoodSearchVocabulary {
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

    /// Every kind of one-letter typo of `word` at `at`: dropped, doubled, swapped with the next, replaced.
    static func typos(of word: [UInt8], at position: Int, letter: UInt8) -> [[UInt8]] {
        var dropped = word
        dropped.remove(at: position)
        var doubled = word
        doubled.insert(word[position], at: position)
        var replaced = word
        replaced[position] = letter
        var typos = [dropped, doubled, replaced]
        if position + 1 < word.count {
            var swapped = word
            swapped.swapAt(position, position + 1)
            typos.append(swapped)
        }
        return typos
    }

    @Test func sameCorrectionAsTheScan() async throws {
        let vocabulary = try await Self.vocabulary()
        var checked = 0
        var corrected = 0
        var differing: [String] = []
        for (index, word) in vocabulary.words.enumerated() where word.count >= 4 && index % 5 == 0 {
            let position = index % word.count
            let letter = UInt8(ascii: "a") + UInt8(index % 26)
            var typed = Self.typos(of: word, at: position, letter: letter)
            // Two typos at once, for words long enough to be allowed two edits; and beginnings still being typed.
            if word.count >= 8 { typed += Self.typos(of: typed[2], at: (position + 3) % word.count, letter: letter) }
            typed += typed.map { Array($0.prefix(max(4, $0.count - 2))) }
            for text in typed where text.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) {
                let string = String(decoding: text, as: UTF8.self)
                for asPrefix in [false, true] {
                    let walked = vocabulary.correction(for: string, asPrefix: asPrefix)
                    let scanned = vocabulary.correctionByScan(for: string, asPrefix: asPrefix)
                    checked += 1
                    if walked != nil { corrected += 1 }
                    if walked != scanned { differing.append("\(string) \(asPrefix): \(String(describing: walked)) vs \(String(describing: scanned))") }
                }
            }
        }
        #expect(differing.isEmpty, "\(differing.count) of \(checked) differ: \(differing.prefix(5))")
        #expect(checked > 10_000)
        #expect(corrected > checked / 2, "most typos find a word")
    }

    @Test func knownCorrections() async throws {
        let vocabulary = try await Self.vocabulary()
        #expect(vocabulary.correction(for: "bananna", asPrefix: false)?.word == "banana")
        #expect(vocabulary.correction(for: "brocoli", asPrefix: false)?.word == "broccoli")
        #expect(vocabulary.correction(for: "avacad", asPrefix: true) == .init(word: "avocado", isPrefix: true))
        #expect(vocabulary.correction(for: "qxzvw", asPrefix: false) == nil)
    }
}
