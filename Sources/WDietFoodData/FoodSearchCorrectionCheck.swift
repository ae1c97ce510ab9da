/// The trie walk (`correction(for:asPrefix:)`) against the scan it replaced (`correctionByScan`) over typos of the
/// vocabulary's own words: they must pick exactly the same word, ties included. Shared by the test
/// (`FoodSearchCorrectionWalkTests`, every 25th word in a debug build: 2,040 lookups on SR28) and
/// `wdiet-dev bench --only search` (every 5th word, over 10,000 lookups, in release).
extension FoodSearchVocabulary {
    public struct CorrectionCheck: Sendable {
        /// Typed words looked up, each as a whole word and as a prefix.
        public var checked = 0
        /// How many of them the walk corrected to some word.
        public var corrected = 0
        /// "typed asPrefix: walked vs scanned" for each disagreement.
        public var differing: [String] = []
    }

    /// For every `stride`-th word of four letters or more: each kind of one-letter typo at a position that moves with
    /// the word (dropped, doubled, swapped with the next, replaced by a letter that moves too), two typos at once for
    /// words long enough to be allowed two edits, and the beginnings of all these still being typed.
    public func checkCorrectionWalk(everyNthWord stride: Int) -> CorrectionCheck {
        var check = CorrectionCheck()
        for (index, word) in words.enumerated() where word.count >= 4 && index % stride == 0 {
            let position = index % word.count
            let letter = UInt8(ascii: "a") + UInt8(index % 26)
            var typed = Self.typos(of: word, at: position, letter: letter)
            if word.count >= 8 { typed += Self.typos(of: typed[2], at: (position + 3) % word.count, letter: letter) }
            typed += typed.map { Array($0.prefix(max(4, $0.count - 2))) }
            for text in typed where text.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) {
                let string = String(decoding: text, as: UTF8.self)
                for asPrefix in [false, true] {
                    let walked = correction(for: string, asPrefix: asPrefix)
                    let scanned = correctionByScan(for: string, asPrefix: asPrefix)
                    check.checked += 1
                    if walked != nil { check.corrected += 1 }
                    if walked != scanned {
                        check.differing.append(
                            "\(string) \(asPrefix): \(String(describing: walked)) vs \(String(describing: scanned))")
                    }
                }
            }
        }
        return check
    }

    /// Every kind of one-letter typo of `word` at `at`: dropped, doubled, replaced, swapped with the next.
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
}
