import Foundation
import Hummingbird
import Logging
import WDietCore
import WDietStore

/// The web app's Learn tab: the "Why like this?" articles (`/learn`, `/learn/{slug}`), rendered from Markdown by
/// `LearnLibrary`, and the Learn welcome tip. The coach's tips themselves are `assets/js/tips.js` and the tips API.
struct LearnPages: Sendable {
    let services: AppServices

    struct ArticleCard: Sendable {
        var slug: String
        var title: String
        var summary: String
        var emoji: String
        /// "4 min read" / "4 Min. Lesezeit".
        var readingTime: String

        init(_ article: LearnArticle) {
            slug = article.slug
            title = article.title
            summary = article.summary
            emoji = article.emoji
            readingTime = LearnPages.readingTime(article)
        }
    }

    struct IndexPage: Sendable {
        var chrome: PageChrome
        var articles: [ArticleCard]
    }

    struct ArticlePage: Sendable {
        var chrome: PageChrome
        var title: String
        var emoji: String
        var readingTime: String
        /// Ink's HTML of our own Markdown, inserted unescaped (`{{{html}}}`); nothing a user typed is in it.
        var html: String
        var moreArticles: [ArticleCard]
        /// Stored, not computed: templates read values by reflection.
        var hasMoreArticles: Bool
    }

    func register(on group: RouterGroup<WebUserContext>) {
        // Rendered now, at startup, rather than on the first reader's request; a broken article is logged here and
        // shown as the error page when asked for.
        for (language, library) in LearnLibrary.libraries {
            if case .failure(let error) = library {
                Logger(label: "wdiet.learn").error("Learn articles could not be rendered", metadata: [
                    "language": "\(language.rawValue)", "error": "\(error)",
                ])
            }
        }
        group.get("/learn", use: index)
        group.get("/learn/{slug}", use: article)
    }

    @Sendable func index(_ request: Request, context: WebUserContext) async throws -> Response {
        let articles = try LearnLibrary.articles(in: Strings.current.language)
        return try WebTemplates.page("learn", IndexPage(
            chrome: PageChrome(context: context, tab: .learn), articles: articles.map(ArticleCard.init)
        ))
    }

    @Sendable func article(_ request: Request, context: WebUserContext) async throws -> Response {
        let userId = context.userId
        let language = Strings.current.language
        guard let slug = context.parameters.get("slug"), let article = try LearnLibrary.article(slug: slug, in: language) else {
            throw APIError.notFound(Strings.current("learn.articleNotFound"))
        }
        await recordOpened(article, userId: userId, logger: context.logger)
        let others = try LearnLibrary.articles(in: language).filter { $0.slug != article.slug }
        return try WebTemplates.page("learn-article", ArticlePage(
            chrome: PageChrome(context: context, tab: .learn), title: article.title, emoji: article.emoji,
            readingTime: Self.readingTime(article), html: article.html, moreArticles: others.map(ArticleCard.init),
            hasMoreArticles: !others.isEmpty
        ))
    }

    static func readingTime(_ article: LearnArticle) -> String {
        Strings.current("learn.readingTime", count: article.readingMinutes)
    }

    /// `why_like_this_opened` (004 Story 2.3), which the education-engagement metric counts. The article is shown
    /// whether or not the event could be stored.
    private func recordOpened(_ article: LearnArticle, userId: UUID, logger: Logger) async {
        do {
            let event = AnalyticsEvent(name: .whyLikeThisOpened, properties: ["topic": article.slug], occurredAt: services.now())
            try await services.analytics.recordEvent(event, userId: userId)
        } catch {
            logger.warning("could not record why_like_this_opened", metadata: ["error": "\(error)"])
        }
    }
}
