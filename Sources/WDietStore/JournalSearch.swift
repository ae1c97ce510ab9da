import Foundation
import WDietCore

/// The journal search's rule, the same on every backend and in the client: every word of the query (split at
/// white space, lowercased) must occur somewhere in the entry's description or raw input, in any case. The stores
/// narrow the rows with SQL (`LIKE`/`ILIKE`, which fold ASCII letters) and check the rest here.
public struct JournalSearch: Sendable {
    public let words: [String]

    public init(_ query: String) {
        var seen = Set<String>()
        words = query.lowercased().split(whereSeparator: { $0.isWhitespace }).map(String.init).filter { seen.insert($0).inserted }
    }

    /// Patterns for `LIKE … ESCAPE '\'` over the text folded to lower case in ASCII at least (SQLite's `LIKE`,
    /// PostgreSQL's `lower(…)`) that every matching entry contains: an ASCII word whole; of a word with other
    /// letters ("müsli"), each run of two or more ASCII characters in it ("sli"), as the database may fold the other
    /// letters differently from Swift.
    public var likePatterns: [String] {
        var patterns: [String] = []
        for word in words {
            if word.allSatisfy(\.isASCII) {
                patterns.append("%" + Self.likeEscaped(word) + "%")
                continue
            }
            for run in word.split(whereSeparator: { !$0.isASCII }) where run.count >= 2 {
                patterns.append("%" + Self.likeEscaped(String(run)) + "%")
            }
        }
        return patterns
    }

    /// Every word is ASCII: the patterns decide alone (the database may limit the rows); otherwise the rows they
    /// let through must still pass `matches`.
    public var patternsAreExact: Bool { words.allSatisfy { $0.allSatisfy(\.isASCII) } }

    public func matches(_ entry: JournalEntry) -> Bool {
        guard !words.isEmpty else { return false }
        let text = (entry.processedDescription + "\n" + entry.rawInput).lowercased()
        return words.allSatisfy { text.contains($0) }
    }

    /// A word for `LIKE … ESCAPE '\'`: `%`, `_` and `\` taken literally.
    public static func likeEscaped(_ word: String) -> String {
        var result = ""
        for character in word {
            if character == "%" || character == "_" || character == "\\" { result.append("\\") }
            result.append(character)
        }
        return result
    }
}

/// How the backends' journal tables spell what SQL has no type for.
public enum JournalColumns {
    /// The instant of milliseconds since 1970.
    public static func instant(ms: Int64) -> Date { Date(timeIntervalSince1970: Double(ms) / 1_000) }

    /// Media ids from the JSON array text of the entry's `mediaIds` (`["…","…"]`); nil when it is not one.
    public static func mediaIds(_ text: String) -> [UUID]? {
        if text == "[]" { return [] }
        guard text.hasPrefix("["), text.hasSuffix("]") else { return nil }
        var ids: [UUID] = []
        for part in text.dropFirst().dropLast().split(separator: ",") {
            let trimmed = part.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
            guard let id = UUID(uuidString: trimmed) else { return nil }
            ids.append(id)
        }
        return ids
    }
}
