import Foundation

/// A language the string catalog is complete in. English is the product's first language; German follows it
/// string for string (the catalog test refuses a key that one of them lacks).
public enum Language: String, CaseIterable, Hashable, Sendable, Codable {
    case english = "en"
    case german = "de"

    /// The BCP 47 tag pages and responses declare (`<html lang>`, `Content-Language`).
    public var tag: String { rawValue }

    /// What a person picks in Settings: each language by its own name, so that someone who cannot read the
    /// current one still finds theirs.
    public var nativeName: String {
        switch self {
        case .english: "English"
        case .german: "Deutsch"
        }
    }

    /// A stored or submitted choice ("de", "de-AT", "EN"); nil for anything the catalog has no language for.
    public init?(tag: String) {
        let primary = tag.split(separator: "-", maxSplits: 1).first.map { $0.lowercased() } ?? ""
        guard let language = Language(rawValue: primary) else { return nil }
        self = language
    }

    /// The catalog language a browser prefers most, from its `Accept-Language` header
    /// ("de-DE,de;q=0.9,en;q=0.8" → German). Ranges are taken by their quality, highest first, and in the order
    /// written among equals; a range the catalog lacks is skipped, and `q=0` rules one out. Nil when the header
    /// names none of ours (or only `*`): the caller falls back to English.
    public static func preferred(acceptLanguage header: String?) -> Language? {
        guard let header, !header.isEmpty else { return nil }
        var ranges: [(language: Language, quality: Double, position: Int)] = []
        for (position, item) in header.split(separator: ",").enumerated() {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let range = parts.first, !range.isEmpty, range != "*", let language = Language(tag: range) else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.lowercased().hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 0
            }
            if quality > 0 { ranges.append((language, quality, position)) }
        }
        return ranges.min { ($0.quality, -$0.position) > ($1.quality, -$1.position) }?.language
    }
}
