import Foundation
import Hummingbird
import Logging
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
        var readingMinutes: Int

        init(_ article: LearnArticle) {
            slug = article.slug
            title = article.title
            summary = article.summary
            emoji = article.emoji
            readingMinutes = article.readingMinutes
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
        var readingMinutes: Int
        /// Ink's HTML of our own Markdown, inserted unescaped (`{{{html}}}`); nothing a user typed is in it.
        var html: String
        var moreArticles: [ArticleCard]
        /// Stored, not computed: templates read values by reflection.
        var hasMoreArticles: Bool
    }

    func register(on group: RouterGroup<WebUserContext>) {
        // Rendered now, at startup, rather than on the first reader's request; a broken article is logged here and
        // shown as the error page when asked for.
        if case .failure(let error) = LearnLibrary.shared {
            Logger(label: "wdiet.learn").error("Learn articles could not be rendered: \(error)")
        }
        group.get("/learn", use: index)
        group.get("/learn/{slug}", use: article)
    }

    @Sendable func index(_ request: Request, context: WebUserContext) async throws -> Response {
        let articles = try LearnLibrary.shared.get()
        return try WebTemplates.page("learn", IndexPage(
            chrome: PageChrome(context: context, tab: .learn), articles: articles.map(ArticleCard.init)
        ))
    }

    @Sendable func article(_ request: Request, context: WebUserContext) async throws -> Response {
        let userId = context.userId
        guard let slug = context.parameters.get("slug"), let article = try LearnLibrary.article(slug: slug) else {
            throw APIError.notFound("We couldn't find that article.")
        }
        await recordOpened(article, userId: userId, logger: context.logger)
        let others = try LearnLibrary.shared.get().filter { $0.slug != article.slug }
        return try WebTemplates.page("learn-article", ArticlePage(
            chrome: PageChrome(context: context, tab: .learn), title: article.title, emoji: article.emoji,
            readingMinutes: article.readingMinutes, html: article.html, moreArticles: others.map(ArticleCard.init),
            hasMoreArticles: !others.isEmpty
        ))
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
