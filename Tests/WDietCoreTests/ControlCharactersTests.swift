import Testing
import WDietCore

/// Issue 21 item 4: which characters are refused, and where in a JSON document the first one is.
@Suite struct ControlCharactersTests {
    @Test func tabLineFeedAndCarriageReturnPassTheOtherControlsDoNot() {
        #expect(ControlCharacters.firstDisallowed(in: "two\tlines\r\nhere") == nil)
        #expect(ControlCharacters.firstDisallowed(in: "Grüße, 寿司 🍣") == nil)
        #expect(ControlCharacters.firstDisallowed(in: "abc\u{0}def") == "\u{0}")
        #expect(ControlCharacters.firstDisallowed(in: "bell\u{7}") == "\u{7}")
        #expect(ControlCharacters.firstDisallowed(in: "del\u{7F}") == "\u{7F}")
        #expect(ControlCharacters.firstDisallowed(in: "c1\u{85}") == "\u{85}")
        #expect(ControlCharacters.firstDisallowed(in: "nbsp\u{A0}") == nil)
        #expect(ControlCharacters.name("\u{0}") == "U+0000")
        #expect(ControlCharacters.name("\u{9F}") == "U+009F")
    }

    static func find(_ json: String) -> ControlCharacters.Finding? {
        ControlCharacters.firstDisallowed(inJSON: Array(json.utf8))
    }

    @Test func theFindingNamesTheMemberByItsPath() {
        #expect(Self.find(#"{"name": "abc\u0000def", "kcal": 100}"#) == .init(path: "name", scalar: "\u{0}"))
        #expect(Self.find(#"{"meals": [{"name": "ok"}, {"kcal": 5, "name": "x\u001fy"}]}"#) == .init(path: "meals.1.name", scalar: "\u{1F}"))
        #expect(Self.find(#"{"changes": [{"event": {"properties": {"k\u0000ey": "v"}}}]}"#) == .init(path: "changes.0.event.properties.kU+0000ey", scalar: "\u{0}"))
        #expect(Self.find(#"{"tags": ["a", "b", "c\bd"]}"#) == .init(path: "tags.2", scalar: "\u{8}"))
        #expect(Self.find(#"{"a": {"b": [1, 2, {"c": "\f"}]}}"#) == .init(path: "a.b.2.c", scalar: "\u{C}"))
        #expect(Self.find(#"{"raw": "\u007f", "after": 1}"#) == .init(path: "raw", scalar: "\u{7F}"))
        #expect(Self.find("{\"raw\": \"c1 \u{85}\"}") == .init(path: "raw", scalar: "\u{85}"))
        #expect(Self.find("{\"raw\": \"nul \u{0}\"}") == .init(path: "raw", scalar: "\u{0}"))
        #expect(Self.find(#""top\u0000""#) == .init(path: "", scalar: "\u{0}"))
    }

    @Test func cleanDocumentsAndAllowedEscapesPass() {
        #expect(Self.find(#"{"name": "Two\nlines\tand \"quotes\" \\u0000 as text", "n": -1.5e3, "ok": true, "no": null}"#) == nil)
        #expect(Self.find(#"{"emoji": "\ud83c\udf63", "umlaut": "\u00fc", "nbsp": "\u00a0"}"#) == nil)
        #expect(Self.find(#"{"list": [[], {}, [{}], "x"]}"#) == nil)
        // Not JSON: left to the decoder, which says what is wrong.
        #expect(Self.find(#"{"name": "abc\u00"#) == nil)
    }
}
