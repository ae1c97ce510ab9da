import Foundation
import Testing
import WDietCore

/// `trimmingWhitespacesAndNewlines()` skips Foundation when both ends are printable ASCII; it must answer as
/// `trimmingCharacters(in: .whitespacesAndNewlines)` does.
@Suite struct TrimmingTests {
    /// Every ASCII character at either end (the shortcut's whole domain), and a few beyond it.
    @Test func answersAsFoundationAtEitherEnd() {
        let beyond: [Unicode.Scalar] = ["\u{85}", "\u{A0}", "\u{200B}", "\u{2028}", "\u{3000}", "\u{FEFF}", "é", "🍎"]
        for scalar in (0...0x7F).compactMap(Unicode.Scalar.init) + beyond {
            for text in ["\(scalar)Apple", "Apple\(scalar)", "\(scalar)", "\(scalar) \(scalar)"] {
                #expect(text.trimmingWhitespacesAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines),
                        "U+\(String(scalar.value, radix: 16)) in \(text.debugDescription)")
            }
        }
    }

    @Test(arguments: [
        ("Apple", "Apple"),
        ("  Apple pie \n", "Apple pie"),
        ("\u{00A0}Tee\u{3000}", "Tee"),
        ("\tSoup", "Soup"),
        ("Soup\u{2028}", "Soup"),
        ("\u{200B}Soup", "Soup"),
        ("", ""),
        ("   ", ""),
        ("Käse\u{301}", "Käse\u{301}"),
        ("a b", "a b"),
    ])
    func worked(_ input: String, _ expected: String) {
        #expect(input.trimmingWhitespacesAndNewlines() == expected)
    }
}
