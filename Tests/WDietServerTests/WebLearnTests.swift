import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WDietServer
import WDietStore

@Suite("Web: Learn tab")
struct WebLearnTests {
    static let slugs = ["matador-study", "why-maintenance-first", "six-hour-window"]

    /// A guest signed in through the API, browsing with a web session cookie.
    static func browser(_ client: some TestClientProtocol, _ t: TestApp) async throws -> (WebTestSession, UUID) {
        let guest = try await client.signInAsGuest()
        return (try await WebTestSession.make(for: guest.userId, in: t), guest.userId)
    }

    @Test("the index lists the three articles as cards, in order, with the Learn tab current and the welcome tip hidden")
    func index() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let (web, _) = try await Self.browser(client, t)
            let response = try await client.execute(uri: "/learn", method: .get, headers: [.cookie: web.cookie])
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/html; charset=utf-8")
            let html = response.text
            #expect(html.contains("<h1 id=\"learn-title\">Why like this?</h1>"))
            let links = Self.slugs.map { "href=\"/learn/\($0)\"" }
            let positions = links.compactMap { html.range(of: $0)?.lowerBound }
            #expect(positions.count == 3)
            #expect(positions == positions.sorted(), "MATADOR first, then Week 1, then the window")
            #expect(html.contains("The MATADOR study"))
            #expect(html.contains("Why Week 1 starts at maintenance"))
            #expect(html.contains("Why a 6-hour eating window"))
            #expect(html.contains("min read"))
            #expect(html.contains("href=\"/learn\" aria-current=\"page\""))
            #expect(html.contains("<div class=\"tip\" data-tip=\"learn-welcome\" role=\"note\" aria-labelledby=\"tip-learn-welcome-title\" hidden>"))
            #expect(html.contains("data-tip-open=\"learn-welcome\""))
            #expect(html.contains("<script src=\"/assets/js/tips.js\" defer></script>"))
        }
    }

    @Test("the MATADOR article renders its headings, the study's numbers and its reference")
    func matadorArticle() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let (web, _) = try await Self.browser(client, t)
            let response = try await client.execute(uri: "/learn/matador-study", method: .get, headers: [.cookie: web.cookie])
            #expect(response.status == .ok)
            let html = response.text
            #expect(html.contains("<h1 id=\"article-title\">The MATADOR study</h1>"))
            #expect(html.contains("<title>The MATADOR study · w-diet</title>"))
            for heading in ["What the researchers did", "What they found", "How w-diet uses it", "References"] {
                #expect(html.contains("<h2>\(heading)</h2>"), "\(heading)")
            }
            // PRODUCT.md's figures: 51 men, 16 weeks at 67 % of maintenance, 2-week blocks; 14.1 vs 9.1 kg, 12.3 vs 8.0 kg.
            for figure in ["<strong>51 men</strong>", "<strong>67 % of their maintenance energy needs</strong>", "<strong>16 weeks</strong>",
                           "<strong>2-week blocks</strong>", "14.1 vs 9.1 kg", "12.3 vs 8.0 kg", "<td>9.1 kg</td>", "<td><strong>14.1 kg</strong></td>"] {
                #expect(html.contains(figure), "\(figure)")
            }
            #expect(html.contains("<table>"))
            #expect(html.contains("<a rel=\"noopener\" href=\"https://doi.org/10.1038/ijo.2017.206\">"))
            #expect(html.contains("International Journal of Obesity</em> 2018; 42: 129–138"))
            // The back link, and the other two articles to keep reading.
            #expect(html.contains("<a class=\"article-nav__back\" href=\"/learn\">"))
            #expect(html.contains("href=\"/learn/why-maintenance-first\""))
            #expect(html.contains("href=\"/learn/six-hour-window\""))
            #expect(!html.contains("href=\"/learn/matador-study\""))
        }
    }

    @Test("every article renders to HTML that the CSP allows: no inline style or script, no raw HTML", arguments: slugs)
    func safeHTML(slug: String) throws {
        let article = try #require(try LearnLibrary.article(slug: slug))
        #expect(article.html.contains("<h2>"))
        #expect(article.html.contains("<h2>References</h2>"))
        for forbidden in ["style=", "<style", "<script", "javascript:", "onclick=", "onerror=", "onload=", "<iframe"] {
            #expect(!article.html.lowercased().contains(forbidden), "\(forbidden)")
        }
        #expect(!article.title.isEmpty && !article.summary.isEmpty && !article.emoji.isEmpty)
        #expect(article.readingMinutes >= 1)
    }

    @Test("raw HTML in a Markdown file is dropped; links to other sites get rel=noopener, ours do not")
    func rendering() throws {
        let markdown = """
            ---
            title: Test
            summary: A test
            emoji: 🧪
            order: 9
            ---

            <div style="color: red"><script>alert(1)</script></div>

            Read [the study](https://doi.org/10.1/x) and [the window](/learn/six-hour-window).
            """
        let article = try LearnLibrary.render(markdown, slug: "test")
        #expect(article.title == "Test")
        #expect(article.order == 9)
        #expect(!article.html.contains("style="))
        #expect(!article.html.contains("<script"))
        #expect(article.html.contains("<a rel=\"noopener\" href=\"https://doi.org/10.1/x\">the study</a>"))
        #expect(article.html.contains("<a href=\"/learn/six-hour-window\">the window</a>"))
    }

    @Test("an article without its front matter is refused when rendered, naming what is missing")
    func missingMetadata() {
        #expect(throws: LearnLibrary.LoadError.self) {
            try LearnLibrary.render("## Just a heading\n\nText.", slug: "bare")
        }
    }

    @Test("an unknown article is the 404 error page")
    func unknownSlug() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let (web, _) = try await Self.browser(client, t)
            for path in ["/learn/no-such-article", "/learn/MATADOR-STUDY", "/learn/matador-study.md"] {
                let response = try await client.execute(uri: path, method: .get, headers: [.cookie: web.cookie])
                #expect(response.status == .notFound, "\(path)")
                #expect(response.text.contains("Something went wrong"), "\(path)")
                #expect(response.text.contains("We couldn&#39;t find that page.") || response.text.contains("We couldn't find that page."), "\(path)")
            }
        }
    }

    @Test("signed out, the Learn pages send the visitor to the welcome screen")
    func signedOut() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            for path in ["/learn", "/learn/matador-study"] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .seeOther, "\(path)")
                #expect(response.headers[.location] == "/", "\(path)")
            }
        }
    }

    @Test("opening an article records why_like_this_opened with its topic, for that user only")
    func analytics() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let (web, userId) = try await Self.browser(client, t)
            let (_, otherId) = try await Self.browser(client, t)
            _ = try await client.execute(uri: "/learn/six-hour-window", method: .get, headers: [.cookie: web.cookie])
            _ = try await client.execute(uri: "/learn", method: .get, headers: [.cookie: web.cookie])

            let events = try await t.services.analytics.events(userId: userId).filter { $0.name == .whyLikeThisOpened }
            #expect(events.map(\.properties) == [["topic": "six-hour-window"]])
            #expect(try await t.services.analytics.events(userId: otherId).filter { $0.name == .whyLikeThisOpened }.isEmpty)
        }
    }

    @Test("the tips script and styles are served")
    func assets() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            for path in ["/assets/js/tips.js", "/assets/css/tips.css", "/assets/css/learn.css"] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .ok, "\(path)")
            }
            let script = try await client.execute(uri: "/assets/js/tips.js", method: .get).text
            #expect(script.contains("/api/v1/tips"))
        }
    }
}
