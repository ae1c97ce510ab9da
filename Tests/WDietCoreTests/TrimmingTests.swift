import Foundation
import Testing
import WDietCore

/// `trimmingWhitespacesAndNewlines()` skips Foundation when neither end is white space; it must answer as
/// `trimmingCharacters(in: .whitespacesAndNewlines)` does.
@Suite struct TrimmingTests {
    /// The shortcut's test (White_Space) and Foundation's set agree on every scalar.
    @Test func whiteSpaceIsFoundationsSetForEveryScalar() {
        var disagreeing: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if scalar.properties.isWhitespace != CharacterSet.whitespacesAndNewlines.contains(scalar) { disagreeing.append(value) }
        }
        #expect(disagreeing.isEmpty, "differ at \(disagreeing.prefix(10).map { String($0, radix: 16) })")
    }

    @Test(arguments: [
        ("Apple", "Apple"),
        ("  Apple pie \n", "Apple pie"),
        ("\u{00A0}Tee\u{3000}", "Tee"),
        ("\tSoup", "Soup"),
        ("Soup\u{2028}", "Soup"),
        ("", ""),
        ("   ", ""),
        ("Käse\u{301}", "Käse\u{301}"),
        ("a b", "a b"),
    ])
    func trimsAsFoundationDoes(_ input: String, _ expected: String) {
        #expect(input.trimmingWhitespacesAndNewlines() == expected)
        #expect(input.trimmingWhitespacesAndNewlines() == input.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
