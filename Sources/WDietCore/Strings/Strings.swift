import Foundation

/// Every user-facing string of w-diet in one language, from the string catalog (`Resources/strings/<language>/`),
/// with the language's plural rules and number and date formats.
///
/// A key is `<file>.<name>`: `profile.heightTooLow` is `heightTooLow` in `strings/en/profile.json`. A value is a
/// string with named placeholders (`"{count} meals logged"`), or, for a count, an object of plural forms
/// (`{"one": "{count} day", "other": "{count} days"}`).
///
/// `Strings.current` is the language of the work in progress: the server sets it for each request (the account's
/// choice, else the browser's `Accept-Language`), so that messages made deep in validation come out in the
/// reader's language without every function passing it along. Outside a request it is English.
public struct Strings: Sendable {
    public let language: Language
    let entries: [String: CatalogEntry]

    @TaskLocal public static var current: Strings = .english

    public static let english = StringCatalog.shared.strings(for: .english)
    public static let german = StringCatalog.shared.strings(for: .german)

    public static func of(_ language: Language) -> Strings {
        switch language {
        case .english: english
        case .german: german
        }
    }

    /// The string for `key` with its placeholders filled (`arguments` are already formatted text).
    /// A key the catalog lacks comes back as itself, visible and harmless; the catalog test keeps that from shipping.
    public func callAsFunction(_ key: String, _ arguments: [String: String] = [:]) -> String {
        switch entries[key] {
        case .text(let text)?: Strings.fill(text, arguments)
        case .plural(let forms)?: Strings.fill(forms[.other] ?? key, arguments)
        case nil: key
        }
    }

    /// The plural form of `key` for `count`, with `{count}` written in this language's number format.
    public func callAsFunction(_ key: String, count: Int, _ arguments: [String: String] = [:]) -> String {
        var arguments = arguments
        arguments["count"] = arguments["count"] ?? number(count)
        switch entries[key] {
        case .plural(let forms)?:
            return Strings.fill(forms[pluralCategory(count)] ?? forms[.other] ?? key, arguments)
        case .text(let text)?:
            return Strings.fill(text, arguments)
        case nil:
            return key
        }
    }

    /// Whether the catalog has `key` (for strings that are optional, such as a tip's second paragraph).
    public func has(_ key: String) -> Bool { entries[key] != nil }

    /// CLDR's cardinal rule for English and German alike: "one" for exactly 1, "other" for everything else
    /// (0 days, 2 days, 1.5 days).
    func pluralCategory(_ count: Int) -> PluralCategory { count == 1 ? .one : .other }

    static func fill(_ text: String, _ arguments: [String: String]) -> String {
        guard !arguments.isEmpty, text.contains("{") else { return text }
        var result = ""
        result.reserveCapacity(text.count + 16)
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else {
                result += rest[open...]
                return result
            }
            let name = String(rest[rest.index(after: open)..<close])
            if let value = arguments[name] { result += value } else { result += rest[open...close] }
            rest = rest[rest.index(after: close)...]
        }
        result += rest
        return result
    }

    // MARK: Numbers

    var groupingSeparator: Character { language == .german ? "." : "," }
    var decimalSeparator: Character { language == .german ? "," : "." }

    /// A whole number with the language's thousands separator: 1234 → "1,234" / "1.234".
    public func number(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = value < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result.append(groupingSeparator) }
            result.append(digit)
        }
        return result
    }

    /// A number rounded (half away from zero) to `fractionDigits` decimals: 82.46 → "82.5" / "82,5", 1250.4 → "1,250".
    /// With `trimmingZeros`, a whole value drops its decimals (75.0 → "75").
    public func number(_ value: Double, fractionDigits: Int = 0, trimmingZeros: Bool = false) -> String {
        guard value.isFinite else { return "–" }
        let scale = (0..<fractionDigits).reduce(1) { product, _ in product * 10 }
        let scaled = Int((value * Double(scale)).rounded())
        let whole = scaled / scale
        let fraction = abs(scaled % scale)
        var text = (scaled < 0 && whole == 0 ? "-" : "") + number(whole)
        if fractionDigits > 0 && !(trimmingZeros && fraction == 0) {
            let digits = String(fraction)
            text.append(decimalSeparator)
            text += String(repeating: "0", count: fractionDigits - digits.count) + digits
        }
        return text
    }

    // MARK: Dates

    /// How a date is written; the patterns are the catalog's `dates.*` strings.
    public enum DateStyle: String, Sendable, CaseIterable {
        /// "25 Nov 2026" / "25.11.2026"
        case full
        /// "25 Nov" / "25. Nov."
        case dayMonth
        /// "Wed 25 Nov" / "Mi., 25. Nov."
        case weekdayDayMonth
        /// "Wednesday, 25 November" / "Mittwoch, 25. November"
        case long
    }

    public func date(_ date: LocalDate, _ style: DateStyle = .full) -> String {
        let weekday = date.weekdayIndex + 1
        return self("dates.\(style.rawValue)", [
            "day": String(date.day),
            "dd": date.day < 10 ? "0\(date.day)" : String(date.day),
            "mm": date.month < 10 ? "0\(date.month)" : String(date.month),
            "year": String(date.year),
            "month": self("dates.monthShort\(date.month)"),
            "monthLong": self("dates.month\(date.month)"),
            "weekday": self("dates.weekdayShort\(weekday)"),
            "weekdayLong": self("dates.weekday\(weekday)"),
        ])
    }

    // MARK: For pages

    /// The catalog as Mustache reads it: `{{t.profile.heightLabel}}` is `self("profile.heightLabel")`.
    /// Plural entries give their "other" form; placeholders stay as written (pages fill those in Swift).
    public var templateTree: [String: [String: String]] { StringCatalog.shared.templateTree(for: language) }

    /// The catalog as JSON for the web app's scripts (`WDiet.t`), plural forms as objects.
    public var scriptJSON: String { StringCatalog.shared.scriptJSON(for: language) }
}

public enum PluralCategory: String, Hashable, Sendable, CaseIterable {
    case zero, one, two, few, many, other
}

enum CatalogEntry: Hashable, Sendable {
    case text(String)
    case plural([PluralCategory: String])
}
