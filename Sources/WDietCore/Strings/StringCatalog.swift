import Foundation

/// The string catalog as shipped: `Resources/strings/<language>/<file>.json`, read once per process.
/// Each file is one flat JSON object; its keys are addressed as `<file>.<key>` (see `Strings`).
public final class StringCatalog: Sendable {
    public static let shared = StringCatalog(folder: Bundle.module.resourceURL?.appendingPathComponent("strings"))

    /// Entries by language; a language whose files are missing or unreadable has none (its keys show as
    /// themselves, and `problems` says why: the catalog test fails on any).
    let entries: [Language: [String: CatalogEntry]]
    /// What could not be read, as "<file>: <reason>", for the catalog test (developers' words, not copy: the lines
    /// that make them are marked catalog-exempt).
    public let problems: [String]
    private let trees: [Language: [String: [String: String]]]
    private let scripts: [Language: String]

    init(folder: URL?) {
        var entries: [Language: [String: CatalogEntry]] = [:]
        var problems: [String] = []
        for language in Language.allCases {
            var table: [String: CatalogEntry] = [:]
            guard let directory = folder?.appendingPathComponent(language.rawValue),
                  let files = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
            else {
                problems.append("\(language.rawValue): no catalog folder") // catalog-exempt: a developer's diagnostic
                entries[language] = table
                continue
            }
            for file in files.sorted() where file.hasSuffix(".json") {
                let area = String(file.dropLast(".json".count))
                do {
                    let data = try Data(contentsOf: directory.appendingPathComponent(file))
                    guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                        problems.append("\(language.rawValue)/\(file): not a JSON object") // catalog-exempt: a developer's diagnostic
                        continue
                    }
                    for (name, value) in object {
                        if let text = value as? String {
                            table["\(area).\(name)"] = .text(text)
                        } else if let forms = value as? [String: String] {
                            var plural: [PluralCategory: String] = [:]
                            for (category, text) in forms {
                                guard let category = PluralCategory(rawValue: category) else {
                                    problems.append("\(language.rawValue)/\(file): \(name) has an unknown plural form \(category)") // catalog-exempt: a developer's diagnostic
                                    continue
                                }
                                plural[category] = text
                            }
                            table["\(area).\(name)"] = .plural(plural)
                        } else {
                            problems.append("\(language.rawValue)/\(file): \(name) is neither a string nor plural forms") // catalog-exempt: a developer's diagnostic
                        }
                    }
                } catch {
                    problems.append("\(language.rawValue)/\(file): \(error)") // catalog-exempt: a developer's diagnostic
                }
            }
            entries[language] = table
        }
        self.entries = entries
        self.problems = problems

        var trees: [Language: [String: [String: String]]] = [:]
        var scripts: [Language: String] = [:]
        for (language, table) in entries {
            var tree: [String: [String: String]] = [:]
            var script: [String: Any] = [:]
            for (key, entry) in table {
                guard let dot = key.firstIndex(of: ".") else { continue }
                let area = String(key[..<dot]), name = String(key[key.index(after: dot)...])
                switch entry {
                case .text(let text):
                    tree[area, default: [:]][name] = text
                    script[key] = text
                case .plural(let forms):
                    tree[area, default: [:]][name] = forms[.other] ?? ""
                    script[key] = Dictionary(uniqueKeysWithValues: forms.map { ($0.key.rawValue, $0.value) })
                }
            }
            trees[language] = tree
            let json = try? JSONSerialization.data(withJSONObject: script, options: [.sortedKeys, .withoutEscapingSlashes])
            scripts[language] = json.flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
        }
        self.trees = trees
        self.scripts = scripts
    }

    func strings(for language: Language) -> Strings { Strings(language: language, entries: entries[language] ?? [:]) }

    func templateTree(for language: Language) -> [String: [String: String]] { trees[language] ?? [:] }

    func scriptJSON(for language: Language) -> String { scripts[language] ?? "{}" }

    /// Every key of a language, for the catalog test.
    public func keys(of language: Language) -> Set<String> { Set((entries[language] ?? [:]).keys) }

    /// The placeholders (`{name}`) a key's text uses in a language, over all its plural forms.
    public func placeholders(of key: String, in language: Language) -> Set<String> {
        let texts: [String] = switch entries[language]?[key] {
        case .text(let text)?: [text]
        case .plural(let forms)?: Array(forms.values)
        case nil: []
        }
        var names: Set<String> = []
        for text in texts {
            var rest = Substring(text)
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                names.insert(String(rest[rest.index(after: open)..<close]))
                rest = rest[rest.index(after: close)...]
            }
        }
        return names
    }

    /// The plural forms a key has in a language (empty for a plain string).
    public func pluralForms(of key: String, in language: Language) -> Set<PluralCategory> {
        if case .plural(let forms)? = entries[language]?[key] { return Set(forms.keys) }
        return []
    }
}
