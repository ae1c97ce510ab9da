import Foundation
import Ink

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

/// The Learn tab's articles: `Resources/learn/<slug>.md`, each with front matter (`title`, `summary`, `emoji`,
/// `order`) and a Markdown body. They are rendered once per process (the first `LearnPages.register` asks for
/// them) and served from memory.
///
/// The content is ours, but the pages run under a strict CSP, so rendering keeps the HTML to what Markdown
/// itself makes: raw HTML blocks are dropped (no inline style or script can slip in), links to other sites get
/// `rel="noopener"`, and tables get a scrolling wrapper for narrow screens.
enum LearnLibrary {
    static let shared: Result<[LearnArticle], any Error> = Result {
        guard let folder = Bundle.module.resourceURL?.appendingPathComponent("learn") else { throw LoadError.folderMissing }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".md") }
        let articles = try names.map { name in
            let markdown = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            return try render(markdown, slug: String(name.dropLast(".md".count)))
        }
        return articles.sorted { ($0.order, $0.slug) < ($1.order, $1.slug) }
    }

    static func article(slug: String) throws -> LearnArticle? {
        try shared.get().first { $0.slug == slug }
    }

    enum LoadError: Error, CustomStringConvertible {
        case folderMissing
        case missingMetadata(slug: String, key: String)

        var description: String {
            switch self {
            case .folderMissing: "The Learn articles are missing from the server's resources"
            case let .missingMetadata(slug, key): "The Learn article \(slug) has no \(key) in its front matter"
            }
        }
    }

    static func render(_ markdown: String, slug: String) throws -> LearnArticle {
        let parsed = parser.parse(markdown)
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

    private static var parser: MarkdownParser {
        MarkdownParser(modifiers: [
            // Raw HTML in a Markdown file could carry a style attribute or a script: none of it is rendered.
            Modifier(target: .html) { _ in "" },
            Modifier(target: .links) { input in
                guard input.html.hasPrefix("<a href=\"http") else { return input.html }
                return "<a rel=\"noopener\"" + input.html.dropFirst("<a".count)
            },
            Modifier(target: .tables) { input in "<div class=\"article__table\" role=\"region\" aria-label=\"Table\" tabindex=\"0\">\(input.html)</div>" },
        ])
    }
}
