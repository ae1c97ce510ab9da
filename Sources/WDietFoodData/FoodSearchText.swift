import Foundation

/// How food names become search words, the same way when indexing and when querying: lowercased, accents
/// folded, split into runs of letters and digits, apostrophes dropped ("McDONALD'S" → "mcdonalds"), and plurals
/// stemmed so that "strawberries" finds "Strawberries" and "strawberry" alike.
public enum FoodSearchText {
    /// Connective words that carry no meaning in a food name; a query made only of them keeps them.
    public static let stopWords: Set<String> = ["and", "or", "with", "w", "of", "in", "the", "a", "an", "to"]

    /// The words of `text`, lowercased and folded, not stemmed.
    public static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current: [UInt8] = []
        func flush() {
            if !current.isEmpty {
                words.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            }
        }
        let folded = text.utf8.allSatisfy { $0 < 0x80 }
            ? text : text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        for scalar in folded.unicodeScalars {
            if scalar.isASCII {
                let byte = UInt8(scalar.value)
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    current.append(byte)
                case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                    current.append(byte + 32)
                case UInt8(ascii: "'"):
                    continue  // joins "o'brien" and drops the possessive's break
                default:
                    flush()
                }
            } else if scalar == "\u{2019}" {
                continue
            } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                current.append(contentsOf: String(scalar).lowercased().utf8)
            } else {
                flush()
            }
        }
        flush()
        return words
    }

    /// The words of `text`, stemmed, without stop words.
    public static func terms(_ text: String) -> [String] {
        words(text).compactMap { stopWords.contains($0) ? nil : stem($0) }
    }

    /// Irregular plurals the suffix rules below would get wrong.
    private static let irregular: [String: String] = [
        "leaves": "leaf", "loaves": "loaf", "halves": "half", "calves": "calf", "knives": "knife",
        "shelves": "shelf", "wolves": "wolf", "geese": "goose", "mice": "mouse", "teeth": "tooth",
        "feet": "foot", "children": "child",
    ]

    /// A small English stemmer for plurals: "strawberries" and "strawberry" both become "strawberri", "tomatoes" and
    /// "tomato" "tomato", "eggs" "egg", "leaves" "leaf", "peaches" "peach", "cookies" and "cookie" "cooki".
    /// It only has to map a singular and its plural to the same key; the key is never shown.
    public static func stem(_ word: String) -> String {
        if let singular = irregular[word] { return normalizeEnding(singular) }
        var bytes = Array(word.utf8)
        // Short words ("gas", "pea", "egg") and numbers are left as they are.
        guard bytes.count > 3, bytes.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) else {
            return word
        }
        if bytes.hasSuffix("sses") {
            bytes.removeLast(2)  // glasses → glass
        } else if bytes.hasSuffix("ies") {
            // berries → berry (then berri below); but pies → pie
            if bytes.count > 4 {
                bytes.removeLast(3)
                bytes.append(UInt8(ascii: "y"))
            } else {
                bytes.removeLast()
            }
        } else if bytes.last == UInt8(ascii: "s"), !bytes.hasSuffix("ss"), !bytes.hasSuffix("us"),
            !bytes.hasSuffix("is")
        {
            bytes.removeLast()  // eggs → egg, tomatoes → tomatoe (→ tomato below), peaches → peache (→ peach)
        }
        return normalizeEnding(String(decoding: bytes, as: UTF8.self))
    }

    /// Folds the endings that differ between a singular and its plural once the "s" is gone: a final "e"
    /// (tomatoe/tomato, peache/peach, cookie/cooky) and a final "y" (strawberry/strawberri, cooky/cooki).
    private static func normalizeEnding(_ word: String) -> String {
        var bytes = Array(word.utf8)
        guard bytes.count > 3 else { return word }
        if bytes.last == UInt8(ascii: "e") { bytes.removeLast() }
        if bytes.count > 3, bytes.last == UInt8(ascii: "y") {
            bytes[bytes.count - 1] = UInt8(ascii: "i")
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

private extension Array where Element == UInt8 {
    func hasSuffix(_ suffix: StaticString) -> Bool {
        let count = suffix.utf8CodeUnitCount
        guard self.count >= count else { return false }
        return suffix.withUTF8Buffer { self[(self.count - count)...].elementsEqual($0) }
    }
}
