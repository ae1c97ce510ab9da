import WDietCore

/// Messages made where the request's language is not known, read back in it.
///
/// The stores (SQLite, PostgreSQL) write on their own queues, outside the request's task, so a message they make
/// there (`StoreError.conflict("An account with this email already exists")`, a sync result's "This meal was
/// changed on another device; …") comes out in English, and a replayed sync result answers the words it was first
/// answered with. Every such message is a catalog text; the API finds which and answers it in the reader's
/// language. Text the catalog does not hold (a value someone typed, a detail from Foundation) is left as it is.
enum CatalogText {
    /// Catalog texts without placeholders, in every language, to the key they are the text of. Where two keys
    /// share a text ("This value is required"), the first key in sorted order answers for both.
    static let keys: [String: String] = {
        var keys: [String: String] = [:]
        for language in Language.allCases {
            let strings = Strings.of(language)
            for key in StringCatalog.shared.keys(of: language).sorted()
            where StringCatalog.shared.placeholders(of: key, in: language).isEmpty
                && StringCatalog.shared.pluralForms(of: key, in: language).isEmpty {
                let text = strings(key)
                if keys[text] == nil { keys[text] = key }
            }
        }
        return keys
    }()

    /// The catalog key whose text (in any language) `text` is, if any.
    static func key(of text: String) -> String? { keys[text] }

    /// `text` in the current language when it is a catalog text, else `text` itself.
    static func localized(_ text: String) -> String {
        guard let key = keys[text] else { return text }
        return Strings.current(key)
    }

    /// Whether `text` is one of the catalog's texts (in any language).
    static func isCatalogText(_ text: String) -> Bool { keys[text] != nil }
}
