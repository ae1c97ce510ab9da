import Foundation
import Testing
import WDietCore

/// Every user-facing string lives in the catalog (`Sources/WDietCore/Resources/strings`): templates, the web app's
/// scripts and the server's Swift messages hold keys, never words. Each file is one test case, so a failure names
/// the file, the line and the text that should move to the catalog.
///
/// A line that holds text a person never reads as copy (a CSS selector that happens to look like words, a log line)
/// is exempted with a `catalog-exempt` comment saying why.
@Suite struct StringCatalogCoverageTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")
    static let resources = sources.appendingPathComponent("WDietServer/Resources")

    static func files(in folder: URL, suffix: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        var found: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(suffix) { found.append(path) }
        }
        return found.sorted()
    }

    static let templates = files(in: resources.appendingPathComponent("templates"), suffix: ".mustache")
    static let scripts = files(in: resources.appendingPathComponent("public/assets"), suffix: ".js")
    static let swiftFiles = files(in: sources.appendingPathComponent("WDietServer"), suffix: ".swift").map { "WDietServer/\($0)" }
        + files(in: sources.appendingPathComponent("WDietCore"), suffix: ".swift").map { "WDietCore/\($0)" }
        // The export's messages reach the API's import (WDietStorage's other messages are the operator's, in English).
        + files(in: sources.appendingPathComponent("WDietStorage/Export"), suffix: ".swift").map { "WDietStorage/Export/\($0)" }

    static func read(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    // MARK: Templates

    @Test(arguments: templates)
    func templateTextComesFromTheCatalog(_ name: String) throws {
        let text = try Self.read(Self.resources.appendingPathComponent("templates/\(name)"))
        #expect(CatalogScan.templateText(text) == [], "\(name): move these to the catalog")
    }

    @Test(arguments: templates)
    func templateKeysExist(_ name: String) throws {
        let text = try Self.read(Self.resources.appendingPathComponent("templates/\(name)"))
        for language in Language.allCases {
            let keys = StringCatalog.shared.keys(of: language)
            let missing = CatalogScan.templateKeys(text).filter { !keys.contains($0) }
            #expect(missing == [], "\(name) in \(language.rawValue)")
        }
    }

    // MARK: Scripts

    @Test(arguments: scripts)
    func scriptTextComesFromTheCatalog(_ name: String) throws {
        let text = try Self.read(Self.resources.appendingPathComponent("public/assets/\(name)"))
        #expect(CatalogScan.scriptText(text) == [], "\(name): use WDiet.t with a catalog key")
    }

    @Test(arguments: scripts)
    func scriptKeysExist(_ name: String) throws {
        let text = try Self.read(Self.resources.appendingPathComponent("public/assets/\(name)"))
        let keys = StringCatalog.shared.keys(of: .english)
        #expect(CatalogScan.scriptKeys(text).filter { !keys.contains($0) } == [], "\(name)")
    }

    // MARK: Swift

    @Test(arguments: swiftFiles)
    func swiftMessagesComeFromTheCatalog(_ name: String) throws {
        let text = try Self.read(Self.sources.appendingPathComponent(name))
        #expect(CatalogScan.swiftText(text) == [], "\(name): use Strings.current with a catalog key")
    }

    @Test(arguments: swiftFiles)
    func swiftKeysExist(_ name: String) throws {
        let text = try Self.read(Self.sources.appendingPathComponent(name))
        let keys = StringCatalog.shared.keys(of: .english)
        #expect(CatalogScan.swiftKeys(text).filter { !keys.contains($0) } == [], "\(name)")
    }

    // MARK: The scanner itself

    @Test func scannerFindsWordsAndLetsKeysThrough() {
        let template = """
        <h1>{{t.dashboard.title}}</h1><p class="x">Eating window: {{label}}</p>
        <button aria-label="Close">✕</button><span aria-label="{{t.common.close}}">🔥 {{count}}</span>
        <!-- a comment with words --><svg><path d="M0 0"/></svg>{{#flag}}&nbsp;·{{/flag}}
        {{$bodyClass}}page page-dashboard{{/bodyClass}}{{$title}}Home · w-diet{{/title}}
        <p>Not copy, honestly</p> {{! catalog-exempt: a test of the exemption }}
        """
        #expect(CatalogScan.templateText(template) == ["1: Eating window:", "2: aria-label=\"Close\"", "4: Home · w-diet"])
        #expect(CatalogScan.templateKeys(template) == ["dashboard.title", "common.close"])

        let script = """
        toast("Meal saved!");
        el.textContent = "Save";
        document.querySelector(".meal-list li");
        WDiet.t("meals.saved", { name });
        const label = `${n} kcal left today`;
        el.classList.add("is-open"); // a class
        console.log("Debug line for developers"); // catalog-exempt: developer log
        status.textContent = WDiet.t("settings.saving");
        """
        #expect(CatalogScan.scriptText(script) == ["1: Meal saved!", "2: Save", "5: ${…} kcal left today"])
        #expect(CatalogScan.scriptKeys(script) == ["meals.saved", "settings.saving"])

        let swift = """
        throw APIError.invalid(message: "Please enter a valid number")
        let key = "meal_logged"
        logger.info("Food catalog imported")
        /// "A doc comment with words"
        let sql = "SELECT id FROM meals WHERE user_id = $1"
        let text = Strings.current("meals.saved")
        return "Your plan will be updated \\(date)"
        """
        #expect(CatalogScan.swiftText(swift) == ["1: Please enter a valid number", "7: Your plan will be updated \\(…)"])
        #expect(CatalogScan.swiftKeys(swift) == ["meals.saved"])
    }
}

/// The heuristics behind the coverage test. Words are runs of letters; "user-facing" is judged per kind of file.
enum CatalogScan {
    static let exempt = "catalog-exempt"

    // MARK: Templates

    /// Visible text and the text of attributes people read (labels, titles, placeholders, alt text) that holds
    /// a letter outside Mustache tags, as "line: text".
    static func templateText(_ source: String) -> [String] {
        var found: [String] = []
        let readAttributes = ["aria-label", "title", "alt", "placeholder", "aria-description", "aria-valuetext", "data-page-toast"]
        // Exemptions are read before comments are stripped (`{{! catalog-exempt: … }}` is a comment).
        let exemptLines = Set(lines(of: source).filter { $0.1.contains(exempt) }.map(\.0))
        for (index, rawLine) in lines(of: stripTemplateNoise(source)) where !exemptLines.contains(index) {
            let line = stripMustache(rawLine)
            var inTag = false
            var text = ""
            var tag = ""
            func flushText() {
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                if hasLetters(decodeEntities(trimmed)) { found.append("\(index): \(trimmed)") }
                text = ""
            }
            for character in line {
                if character == "<" { flushText(); inTag = true; tag = ""; continue }
                if character == ">" && inTag {
                    inTag = false
                    for attribute in readAttributes {
                        for value in attributeValues(attribute, in: tag) where hasLetters(value) {
                            found.append("\(index): \(attribute)=\"\(value)\"")
                        }
                    }
                    continue
                }
                if inTag { tag.append(character) } else { text.append(character) }
            }
            flushText()
        }
        return found
    }

    /// `t.file.key` names used by `{{t.file.key}}` and `{{{t.file.key}}}`, in order.
    static func templateKeys(_ source: String) -> [String] {
        matches(of: #"\{\{\{?\s*t\.([A-Za-z0-9]+\.[A-Za-z0-9]+)"#, in: source)
    }

    static func stripTemplateNoise(_ source: String) -> String {
        var text = source
        // Comments and SVG path data hold no copy; each is replaced by as many newlines as it spans.
        // So do the layout's blocks that hold class names, a screen name, or links and scripts (`{{$bodyClass}}…`).
        for pattern in [#"<!--[\s\S]*?-->"#, #"\{\{![\s\S]*?\}\}"#, #"<svg[\s\S]*?</svg>"#, #"<style[\s\S]*?</style>"#,
                        #"\{\{\$(bodyClass|screen|head|scripts)\}\}[\s\S]*?\{\{/\1\}\}"#] {
            text = replace(pattern, in: text) { String(repeating: "\n", count: $0.filter { $0 == "\n" }.count) }
        }
        return text
    }

    static func stripMustache(_ line: String) -> String {
        replace(#"\{\{\{?[^}]*\}?\}\}"#, in: line) { _ in "" }
    }

    static func attributeValues(_ name: String, in tag: String) -> [String] {
        matches(of: "(?:^|\\s)" + NSRegularExpression.escapedPattern(for: name) + #"\s*=\s*"([^"]*)""#, in: tag)
    }

    static func decodeEntities(_ text: String) -> String {
        replace(#"&[A-Za-z]+;|&#[0-9]+;|&#x[0-9A-Fa-f]+;"#, in: text) { _ in "" }
    }

    // MARK: Scripts

    /// String literals a person would read: a sentence (two words or more with a capital, or ending in
    /// punctuation), or any word handed to the page as text (`textContent`, `toast`, labels, `confirm`).
    static func scriptText(_ source: String) -> [String] {
        var found: [String] = []
        let sinks = ["textContent", "innerText", "aria-label", "ariaLabel", "toast(", "placeholder", "title =", "confirm(", "alert(", "actionLabel", "setCustomValidity("]
        for (index, line) in lines(of: source) where !line.contains(exempt) {
            let code = line.components(separatedBy: "//").first ?? line  // good enough: no URL literals hold "//" here
            let isSink = sinks.contains { code.contains($0) }
            for literal in stringLiterals(in: code, quotes: ["\"", "'", "`"]) {
                let shown = replace(#"\$\{[^}]*\}"#, in: literal) { _ in "${…}" }
                if isSink && isPlainWords(shown) && !looksLikeKey(shown) {
                    found.append("\(index): \(shown)")
                } else if !looksLikeCode(shown) && looksLikeSentence(shown) {
                    found.append("\(index): \(shown)")
                }
            }
        }
        return found
    }

    /// Keys passed to `WDiet.t("file.key"` or `t("file.key"`.
    static func scriptKeys(_ source: String) -> [String] {
        matches(of: #"\bt\(\s*["']([A-Za-z0-9]+\.[A-Za-z0-9]+)["']"#, in: source)
    }

    // MARK: Swift

    /// Literals that read as a sentence (see `looksLikeSentence`), outside comments, log lines, SQL and
    /// debug descriptions.
    static func swiftText(_ source: String) -> [String] {
        var found: [String] = []
        let skipped = ["logger.", "Logger(", "debugDescription", "fatalError(", "preconditionFailure(", "assertionFailure(",
                       "precondition(", "assert(", "#expect", "print(", "metadata:"]
        for (index, line) in lines(of: source) where !line.contains(exempt) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("//") || skipped.contains(where: { line.contains($0) }) { continue }
            let code = trimmed.components(separatedBy: " // ").first ?? trimmed
            for literal in stringLiterals(in: code, quotes: ["\""]) {
                let shown = replace(#"\\\([^)]*\)"#, in: literal) { _ in "\\(…)" }
                if looksLikeCode(shown) || looksLikeSQL(shown) { continue }
                if looksLikeSentence(shown) { found.append("\(index): \(shown)") }
            }
        }
        return found
    }

    /// Keys passed to a `Strings` value: `Strings.current("file.key"`, `strings("file.key"`.
    static func swiftKeys(_ source: String) -> [String] {
        matches(of: #"(?:Strings\.current|Strings\.english|Strings\.german|strings)\(\s*"([A-Za-z0-9]+\.[A-Za-z0-9]+)""#, in: source)
    }

    // MARK: Shared

    static func lines(of source: String) -> [(Int, String)] {
        source.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { ($0.offset + 1, String($0.element)) }
    }

    /// Letters of a script; symbols that Unicode counts as letters but that are emoji (ℹ️) are not words.
    static func hasLetters(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.properties.isAlphabetic && !$0.properties.isEmoji }
    }

    static func words(_ text: String) -> [Substring] {
        text.split { !($0.isLetter || $0 == "'" || $0 == "’") }.filter { $0.count > 0 }
    }

    /// Two words or more with a capital letter or ending punctuation, or a single capitalised word ending in
    /// punctuation ("Saved!").
    static func looksLikeSentence(_ text: String) -> Bool {
        let words = words(text)
        guard !words.isEmpty, text.contains(where: \.isLetter) else { return false }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let endsLikeProse = trimmed.last.map { ".!?…:".contains($0) } ?? false
        let capitalised = words.contains { $0.first?.isUppercase == true }
        if words.count >= 2 && text.contains(" ") {
            // Three lowercase words read as a phrase ("kcal left today"); class lists have hyphens.
            return capitalised || endsLikeProse || (words.count >= 3 && !text.contains("-"))
        }
        return capitalised && endsLikeProse && words.count == 1 && trimmed.count > 2
    }

    /// Selectors, paths, identifiers, MIME types, key names, format strings: text with code's punctuation and
    /// no spaces between words, or CSS selectors.
    static func looksLikeCode(_ text: String) -> Bool {
        if text.isEmpty { return true }
        if text.hasPrefix(".") || text.hasPrefix("#") || text.hasPrefix("[") || text.hasPrefix("/") || text.hasPrefix("(") { return true }
        if !text.contains(" ") {
            // One token: a key, a class, an event name; user-facing single words are caught only at sinks.
            return true
        }
        let codeMarks = CharacterSet(charactersIn: "=<>{}[];|_#")
        return text.unicodeScalars.contains { codeMarks.contains($0) } && !text.contains("${…}")
    }

    /// Words and sentence punctuation only, starting with a letter: what a sink shows as it is ("Save").
    static func isPlainWords(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.properties.isAlphabetic else { return false }
        return text.allSatisfy { $0.isLetter || $0.isNumber || " .,!?…'’:".contains($0) }
    }

    static func looksLikeKey(_ text: String) -> Bool {
        text.range(of: #"^[A-Za-z0-9]+\.[A-Za-z0-9]+$"#, options: .regularExpression) != nil
    }

    static func looksLikeSQL(_ text: String) -> Bool {
        let upper = text.uppercased()
        return ["SELECT ", "INSERT ", "UPDATE ", "DELETE ", "CREATE ", "ALTER ", " FROM ", " WHERE ", "BEGIN", "COMMIT", "DROP "]
            .contains { upper.hasPrefix($0) || text.contains($0) }
    }

    /// The contents of string literals on one line (no multi-line strings), escapes left as written.
    static func stringLiterals(in line: String, quotes: Set<Character>) -> [String] {
        var literals: [String] = []
        var quote: Character?
        var current = ""
        var escaped = false
        var interpolationDepth = 0
        for character in line {
            if let open = quote {
                if escaped { current.append(character); escaped = false; continue }
                if character == "\\" { current.append(character); escaped = true; continue }
                if open == "`" && character == "{" && current.hasSuffix("$") { interpolationDepth += 1 }
                if open == "`" && character == "}" && interpolationDepth > 0 { interpolationDepth -= 1 }
                if character == open && interpolationDepth == 0 { literals.append(current); quote = nil; current = ""; continue }
                current.append(character)
            } else if quotes.contains(character) {
                quote = character
            }
        }
        return literals
    }

    static func matches(of pattern: String, in text: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    static func replace(_ pattern: String, in text: String, with transform: (String) -> String) -> String {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return text }
        var result = ""
        var last = text.startIndex
        for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let range = Range(match.range, in: text) else { continue }
            result += text[last..<range.lowerBound]
            result += transform(String(text[range]))
            last = range.upperBound
        }
        return result + text[last...]
    }
}
