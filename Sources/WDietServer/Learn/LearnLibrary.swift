import Foundation
import Ink
import WDietCore

/// One "Why like this?" article of the Learn tab, rendered from its Markdown file.
struct LearnArticle: Sendable {
    var slug: String
    var title: String
    var summary: String
    var emoji: String
    var order: Int
    var readingMinutes: Int
    /// Ink's HTML of the body (everything after the front matter).
    var html: String
}

/// The Learn tab's articles in each language: `Resources/learn/<slug>.md` in English and
/// `Resources/learn/<language>/<slug>.md` for the others (German: `learn/de/`), each with front matter (`title`,
/// `summary`, `emoji`, `order`) and a Markdown body. They are rendered once per process (the first
/// `LearnPages.register` asks for them) and served from memory. A language whose file for an article is missing
/// shows the English one (the Learn tests demand that none is missing).
///
/// The content is ours, but the pages run under a strict CSP, so rendering keeps the HTML to what Markdown
/// itself makes: raw HTML blocks are dropped (no inline style or script can slip in), links to other sites get
/// `rel="noopener"`, and tables get a scrolling wrapper for narrow screens.
enum LearnLibrary {
    /// The English articles (the slugs every language has).
    static var shared: Result<[LearnArticle], any Error> { libraries[.english] ?? .failure(LoadError.folderMissing) }

    static let libraries: [Language: Result<[LearnArticle], any Error>] = {
        let english = Result { try load(.english, fallback: [:]) }
        var libraries: [Language: Result<[LearnArticle], any Error>] = [.english: english]
        for language in Language.allCases where language != .english {
            libraries[language] = Result {
                let fallback = Dictionary(uniqueKeysWithValues: try english.get().map { ($0.slug, $0) })
                return try load(language, fallback: fallback)
            }
        }
        return libraries
    }()

    /// The articles in `language`, in their order.
    static func articles(in language: Language) throws -> [LearnArticle] {
        try (libraries[language] ?? shared).get()
    }

    static func article(slug: String, in language: Language = .english) throws -> LearnArticle? {
        try articles(in: language).first { $0.slug == slug }
    }

    /// The folder of a language's Markdown files.
    static func folder(of language: Language) -> URL? {
        let root = Bundle.module.resourceURL?.appendingPathComponent("learn")
        return language == .english ? root : root?.appendingPathComponent(language.rawValue)
    }

    /// The slugs a language has its own file for.
    static func slugs(in language: Language) -> Set<String> {
        guard let folder = folder(of: language),
              let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return Set(names.filter { $0.hasSuffix(".md") }.map { String($0.dropLast(".md".count)) })
    }

    /// Every article of a language: its own files, and for an English slug it lacks, the English article.
    static func load(_ language: Language, fallback: [String: LearnArticle]) throws -> [LearnArticle] {
        guard let folder = folder(of: language) else { throw LoadError.folderMissing }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".md") }
        if language == .english && names.isEmpty { throw LoadError.folderMissing }
        var articles = try names.map { name in
            let markdown = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            return try render(markdown, slug: String(name.dropLast(".md".count)), language: language)
        }
        let own = Set(articles.map(\.slug))
        articles += fallback.values.filter { !own.contains($0.slug) }
        return articles.sorted { ($0.order, $0.slug) < ($1.order, $1.slug) }
    }

    enum LoadError: Error, CustomStringConvertible {
        case folderMissing
        case missingMetadata(slug: String, key: String)

        var description: String {
            switch self {
            case .folderMissing: "The Learn articles are missing from the server's resources"  // catalog-exempt: a log line for operators
            case let .missingMetadata(slug, key): "The Learn article \(slug) has no \(key) in its front matter"  // catalog-exempt: a log line for operators
            }
        }
    }

    static func render(_ markdown: String, slug: String, language: Language = .english) throws -> LearnArticle {
        let parsed = parser(language).parse(markdown)
        func required(_ key: String) throws -> String {
            guard let value = parsed.metadata[key]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
                throw LoadError.missingMetadata(slug: slug, key: key)
            }
            return value
        }
        return LearnArticle(
            slug: slug,
            title: try required("title"),
            summary: try required("summary"),
            emoji: try required("emoji"),
            order: Int(try required("order")) ?? Int.max,
            readingMinutes: readingMinutes(of: markdown),
            html: parsed.html
        )
    }

    /// At about 200 words a minute, never less than one.
    static func readingMinutes(of markdown: String) -> Int {
        let words = markdown.split { $0.isWhitespace }.count
        return max(1, Int((Double(words) / 200).rounded()))
    }

    private static func parser(_ language: Language) -> MarkdownParser {
        let strings = Strings.of(language)
        let tableLabel = strings("learn.tableLabel")
        return MarkdownParser(modifiers: [
            // Raw HTML in a Markdown file could carry a style attribute or a script: none of it is rendered.
            Modifier(target: .html) { _ in "" },
            Modifier(target: .links) { input in
                guard input.html.hasPrefix("<a href=\"http") else { return input.html }
                return "<a rel=\"noopener\"" + input.html.dropFirst("<a".count)
            },
            Modifier(target: .tables) { input in "<div class=\"article__table\" role=\"region\" aria-label=\"\(tableLabel)\" tabindex=\"0\">\(input.html)</div>" },
        ])
    }
}
