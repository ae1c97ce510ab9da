import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// The Journal's views in the web app (issue 18, H4): calendar, search, Insights, a food's timeline, the weekly
/// recap and its share card, the reminder settings, and an entry turned into meals. Server-rendered (every page
/// works without script); `journal-search.js` searches as one types, `journal-views.js` shows the milestone overlay
/// and logs an entry's foods.
struct JournalViewsPages: Sendable {
    let services: AppServices

    func register(on group: RouterGroup<WebUserContext>) {
        group.get("/journal/calendar") { request, context in try await calendar(request, context) }
        group.get("/journal/search") { request, context in try await search(request, context) }
        group.get("/journal/insights") { request, context in try await insights(request, context) }
        group.get("/journal/items/{word}") { request, context in try await item(request, context) }
        group.get("/journal/recap") { request, context in try await recap(request, context) }
        group.get("/journal/recap/card.svg") { request, context in try await card(request, context, png: false) }
        group.get("/journal/recap/card.png") { request, context in try await card(request, context, png: true) }
        group.get("/journal/reminders") { request, context in try await reminders(request, context, saved: request.uri.queryParameters.get("saved") != nil) }
        group.post("/journal/reminders") { request, context in try await saveReminders(request, context) }
        group.post("/journal/sample-data") { _, context in try await addSampleData(context) }
        group.post("/journal/sample-data/remove") { _, context in try await removeSampleData(context) }
        group.get("/journal/entries/{id}/meals") { request, context in try await meals(request, context) }
    }

    func today(_ context: WebUserContext) async throws -> LocalDate {
        let stored = try await WebPage.requireProfile(services, userId: context.userId)
        return LocalDate(services.now(), in: stored.profile.timeZone)
    }

    func chrome(_ context: WebUserContext) -> PageChrome { PageChrome(context: context, tab: .journal) }

    func milestone(_ context: WebUserContext) async throws -> JournalMilestoneOverlay? {
        JournalMilestoneOverlay(try await JournalMilestoneState.check(userId: context.userId, services: services))
    }

    // MARK: - Calendar

    func calendar(_ request: Request, _ context: WebUserContext) async throws -> Response {
        let today = try await today(context)
        var month = (year: today.year, month: today.month)
        if let text = request.uri.queryParameters.get("month"), !text.isEmpty {
            guard let parsed = JournalCalendarPage.parseMonth(text, today: today) else {
                throw APIError.badRequest(Strings.current("journalViews.monthInvalidPage", ["month": text]))
            }
            month = parsed
        }
        var selected: LocalDate?
        if let text = request.uri.queryParameters.get("date"), !text.isEmpty {
            guard let day = LocalDate(iso: text), day <= today else {
                throw APIError.badRequest(Strings.current("journalViews.dateInvalidPage", ["date": text]))
            }
            selected = day
            month = (day.year, day.month)
        } else if month == (today.year, today.month) {
            selected = today
        }
        let days = try await JournalViewsAPI.monthDays(month, userId: context.userId, services: services)
        var entries: [JournalEntry] = []
        if let selected { entries = try await services.journal.entries(userId: context.userId, from: selected, through: selected).map(\.entry) }
        let page = JournalCalendarPage(
            chrome: chrome(context), month: month, days: days, today: today, selected: selected, entries: entries,
            milestone: try await milestone(context))
        return try WebTemplates.page("journal-calendar", page)
    }

    // MARK: - Search

    func search(_ request: Request, _ context: WebUserContext) async throws -> Response {
        _ = try await today(context)
        let query = String((request.uri.queryParameters.get("q") ?? "").trimmingCharacters(in: .whitespacesAndNewlines).prefix(200))
        let found = query.isEmpty ? [] : try await services.journal.search(userId: context.userId, query: query, limit: JournalSearchPage.limit)
        let page = JournalSearchPage(
            chrome: chrome(context), journalNav: JournalViewsNav(current: .search), query: query, hasQuery: !query.isEmpty,
            results: found.map { JournalListEntry($0.entry, term: query) },
            resultCount: Strings.current("journalViews.resultCount", count: found.count), hasResults: !found.isEmpty)
        return try WebTemplates.page("journal-search", page)
    }

    // MARK: - Insights

    func insights(_ request: Request, _ context: WebUserContext) async throws -> Response {
        let today = try await today(context)
        guard let period = JournalPeriodLink.parse(request.uri.queryParameters.get("period")) else {
            throw APIError.badRequest(Strings.current("journalViews.periodInvalid"))
        }
        var month: (year: Int, month: Int)?
        if let text = request.uri.queryParameters.get("month"), !text.isEmpty {
            guard let parsed = JournalCalendarPage.parseMonth(text, today: today) else {
                throw APIError.badRequest(Strings.current("journalViews.monthInvalidPage", ["month": text]))
            }
            month = parsed
        }
        let insights = try await services.journal.insights(userId: context.userId, today: today, period: period, heatmapMonth: month)
        var onThisDay: [JournalEntry] = []
        for (_, date) in JournalOnThisDay.days(today: today) {
            onThisDay += try await services.journal.entries(userId: context.userId, from: date, through: date).map(\.entry)
        }
        let page = JournalInsightsPage(
            chrome: chrome(context), insights: insights, onThisDay: onThisDay, period: period, heatmapMonth: month,
            milestone: try await milestone(context))
        return try WebTemplates.page("journal-insights", page)
    }

    func item(_ request: Request, _ context: WebUserContext) async throws -> Response {
        let today = try await today(context)
        guard let period = JournalPeriodLink.parse(request.uri.queryParameters.get("period")) else {
            throw APIError.badRequest(Strings.current("journalViews.periodInvalid"))
        }
        let word = (context.parameters.get("word") ?? "").removingPercentEncoding?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard !word.isEmpty, word.count <= 100 else { throw APIError.badRequest(Strings.current("journalViews.wordInvalid")) }
        let entries = try await services.journal.allEntries(userId: context.userId)
        let page = JournalItemsPage(chrome: chrome(context), term: word.lowercased(), entries: entries, today: today, period: period)
        return try WebTemplates.page("journal-item", page)
    }

    // MARK: - Recap

    func recap(_ request: Request, _ context: WebUserContext) async throws -> Response {
        let today = try await today(context)
        guard let monday = JournalRecapPage.parseWeek(request.uri.queryParameters.get("week"), today: today) else {
            throw APIError.badRequest(Strings.current("journalViews.weekInvalid"))
        }
        var page = 1
        if let text = request.uri.queryParameters.get("page"), !text.isEmpty {
            guard let number = Int(text), (1...JournalRecapPage.pages).contains(number) else {
                throw APIError.badRequest(Strings.current("journalViews.recapPageInvalid", ["pages": String(JournalRecapPage.pages)]))
            }
            page = number
        }
        let entries = try await services.journal.allEntries(userId: context.userId)
        return try WebTemplates.page("journal-recap", JournalRecapPage(chrome: chrome(context), entries: entries, week: monday, today: today, page: page))
    }

    /// The share card as SVG, or as a PNG drawn from it by `vips` (503 without it).
    func card(_ request: Request, _ context: WebUserContext, png: Bool) async throws -> Response {
        let today = try await today(context)
        guard let monday = JournalRecapPage.parseWeek(request.uri.queryParameters.get("week"), today: today) else {
            throw APIError.badRequest(Strings.current("journalViews.weekInvalid"))
        }
        let entries = try await services.journal.allEntries(userId: context.userId)
        let summary = JournalWeeklySummary(entries: entries, week: monday, today: today)
        let svg = JournalShareCard.svg(summary, weekLabel: JournalRecapPage.weekLabel(summary))
        let name = "w-diet-week-\(monday.iso)." + (png ? "png" : "svg")
        var body = ByteBuffer(string: svg)
        if png {
            guard let data = await JournalRecapCardPNG.render(svg: svg) else {
                throw APIError(.serviceUnavailable, code: "image_tools_missing", message: Strings.current("journalViews.pngUnavailable"))
            }
            body = ByteBuffer(bytes: data)
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: png ? "image/png" : "image/svg+xml; charset=utf-8", .cacheControl: "private, no-store",
                .contentDisposition: "inline; filename=\"\(name)\"",
            ],
            body: .init(byteBuffer: body))
    }

    // MARK: - Reminders

    struct RemindersPage: Sendable {
        var chrome: PageChrome
        var journalNav: JournalViewsNav
        var settings: JournalReminderSettings
        var saved: Bool
        var timeError: String?
        /// The sample entries' card: whether the journal has any, and what the last add or remove did.
        var sample = JournalSampleCard()
    }

    func reminders(_ request: Request, _ context: WebUserContext, saved: Bool) async throws -> Response {
        _ = try await today(context)
        let (settings, _) = try await JournalReminderSettings.load(userId: context.userId, services: services)
        let sample = try await JournalSampleCard.load(request, userId: context.userId, services: services)
        return try WebTemplates.page("journal-reminders", RemindersPage(chrome: chrome(context), journalNav: JournalViewsNav(current: .reminders),
                                                                        settings: settings, saved: saved, sample: sample))
    }

    func saveReminders(_ request: Request, _ context: WebUserContext) async throws -> Response {
        let form = try context.form()
        let settings = JournalReminderSettings(
            daily: form["daily"] == "on", dailyTime: form.text("dailyTime"),
            weeklyRecap: form["weeklyRecap"] == "on", streakRisk: form["streakRisk"] == "on")
        do {
            _ = try await JournalReminderSettings.save(settings, userId: context.userId, services: services)
        } catch let invalid as InvalidInput {
            let sample = try await JournalSampleCard.load(nil, userId: context.userId, services: services)
            let page = RemindersPage(chrome: chrome(context), journalNav: JournalViewsNav(current: .reminders), settings: settings, saved: false,
                                     timeError: invalid.fields["dailyTime"], sample: sample)
            return try WebTemplates.page("journal-reminders", page, status: .unprocessableContent)
        }
        return Response(status: .seeOther, headers: [.location: "/journal/reminders?saved=1", .cacheControl: "no-store"])
    }

    // MARK: - An entry as meals

    func meals(_ request: Request, _ context: WebUserContext) async throws -> Response {
        _ = try await today(context)
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)),
              let stored = try await services.journal.entry(userId: context.userId, id: id), !stored.isDeleted else {
            throw APIError.notFound(Strings.current("journalViews.entryNotFound"))
        }
        var words: [JournalToMeals.Word] = []
        var missing = false
        do {
            words = try await JournalToMeals.matches(for: stored.entry, services: services)
        } catch {
            // Without the catalog the page still shows the entry and says why nothing matches.
            missing = true
            words = JournalToMeals.words(of: stored.entry).map { JournalToMeals.Word(word: $0, foods: []) }
        }
        return try WebTemplates.page("journal-meals", JournalToMealsPage(chrome: chrome(context), entry: stored.entry, words: words, catalogMissing: missing))
    }
}
