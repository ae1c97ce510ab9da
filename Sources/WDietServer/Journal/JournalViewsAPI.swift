import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// The Journal's views for the signed-in user (issue 18, H4): `GET /journal/search?q=`, `calendar?month=YYYY-MM`,
/// `insights?period=…`, `recap?week=YYYY-MM-DD`, `items/{word}?period=…`, `onthisday`; `POST /journal/milestones/check`;
/// `GET|PUT /journal/reminders`; `GET /journal/entries/{id}/foods` (an entry's words against the food catalog).
/// Entries come from `services.journal`; the numbers are WDietCore's (`JournalInsights`, `JournalWeeklySummary`,
/// `JournalMilestones`), for the user's local today.
struct JournalViewsAPI: Sendable {
    let services: AppServices

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.get("journal/search", use: search)
        group.get("journal/calendar", use: calendar)
        group.get("journal/insights", use: insights)
        group.get("journal/recap", use: recap)
        group.get("journal/items/{word}", use: item)
        group.get("journal/onthisday", use: onThisDay)
        group.post("journal/milestones/check", use: milestone)
        group.get("journal/reminders", use: reminders)
        group.put("journal/reminders", use: saveReminders)
        group.get("journal/entries/{id}/foods", use: foods)
    }

    func today(_ context: AuthenticatedContext) async throws -> LocalDate {
        guard let profile = try await services.profiles.profile(userId: context.userId, seen: context.profileSeen)?.profile else {
            throw APIError.profileRequired
        }
        return LocalDate(services.now(), in: profile.timeZone)
    }

    static func period(_ request: Request) throws -> JournalPeriod {
        let text = request.uri.queryParameters.get("period")
        guard let period = JournalPeriodLink.parse(text) else {
            let message = Strings.current("journalViews.periodInvalid")
            throw APIError.badRequest(message, fields: ["period": message])
        }
        return period
    }

    // MARK: - Search

    @Sendable func search(_ request: Request, context: AuthenticatedContext) async throws -> JournalSearchJSON {
        let query = (request.uri.queryParameters.get("q") ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard query.count <= 200 else {
            let message = Strings.current("journalViews.queryTooLong")
            throw APIError.badRequest(message, fields: ["q": message])
        }
        var limit = JournalSearchPage.limit
        if let text = request.uri.queryParameters.get("limit") {
            guard let value = Int(text), (1...200).contains(value) else {
                let message = Strings.current("sync.limitInvalid", ["max": "200"])
                throw APIError.badRequest(message, fields: ["limit": message])
            }
            limit = value
        }
        let found = query.isEmpty ? [] : try await services.journal.search(userId: context.userId, query: query, limit: limit)
        return JournalSearchJSON(query: query, entries: found.map(\.entry))
    }

    // MARK: - Calendar

    @Sendable func calendar(_ request: Request, context: AuthenticatedContext) async throws -> JournalCalendarJSON {
        let today = try await today(context)
        let month: (year: Int, month: Int)
        if let text = request.uri.queryParameters.get("month"), !text.isEmpty {
            guard let parsed = JournalCalendarPage.parseMonth(text, today: today) else {
                let message = Strings.current("journalViews.monthInvalid")
                throw APIError.badRequest(message, fields: ["month": message])
            }
            month = parsed
        } else {
            month = (today.year, today.month)
        }
        let days = try await Self.monthDays(month, userId: context.userId, services: services)
        return JournalCalendarJSON(
            month: JournalCalendarPage.monthParameter(month.year, month.month),
            days: days.map { .init(date: $0.date, count: $0.count, level: JournalMonthGrid.level($0.count)) })
    }

    /// Every day of a month with its number of entries (the store's per-day counts, gap-filled).
    static func monthDays(_ month: (year: Int, month: Int), userId: UUID, services: AppServices) async throws -> [DailyCount] {
        let first = LocalDate(year: month.year, month: month.month, day: 1)!
        let last = first.adding(days: JournalSVG.daysIn(month: month.month, year: month.year) - 1)
        let counts = try await services.journal.dayCounts(userId: userId, from: first, through: last)
        return (0...first.days(until: last)).map { DailyCount(date: first.adding(days: $0), count: counts[first.adding(days: $0)] ?? 0) }
    }

    // MARK: - Insights

    @Sendable func insights(_ request: Request, context: AuthenticatedContext) async throws -> JournalInsightsJSON {
        let period = try Self.period(request)
        let today = try await today(context)
        return JournalInsightsJSON(try await services.journal.insights(userId: context.userId, today: today, period: period), period: period)
    }

    @Sendable func item(_ request: Request, context: AuthenticatedContext) async throws -> JournalItemJSON {
        let period = try Self.period(request)
        let word = (context.parameters.get("word") ?? "").removingPercentEncoding?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard !word.isEmpty, word.count <= 100 else {
            let message = Strings.current("journalViews.wordInvalid")
            throw APIError.badRequest(message, fields: ["word": message])
        }
        let today = try await today(context)
        let entries = try await services.journal.allEntries(userId: context.userId)
        return JournalItemJSON(JournalInsights(entries: entries, today: today), word: word, period: period)
    }

    @Sendable func onThisDay(_ request: Request, context: AuthenticatedContext) async throws -> JournalOnThisDayJSON {
        let today = try await today(context)
        var groups: [JournalOnThisDayJSON.Group] = []
        for (key, date) in JournalOnThisDay.days(today: today) {
            let entries = try await services.journal.entries(userId: context.userId, from: date, through: date).map(\.entry)
            groups.append(.init(key: key, date: date, entries: entries))
        }
        return JournalOnThisDayJSON(groups: groups)
    }

    // MARK: - Recap

    @Sendable func recap(_ request: Request, context: AuthenticatedContext) async throws -> JournalRecapJSON {
        let today = try await today(context)
        guard let monday = JournalRecapPage.parseWeek(request.uri.queryParameters.get("week"), today: today) else {
            let message = Strings.current("journalViews.weekInvalid")
            throw APIError.badRequest(message, fields: ["week": message])
        }
        let entries = try await services.journal.allEntries(userId: context.userId)
        let summary = JournalWeeklySummary(entries: entries, week: monday, today: today)
        return JournalRecapJSON(summary)
    }

    // MARK: - Milestones, reminders

    @Sendable func milestone(_ request: Request, context: AuthenticatedContext) async throws -> JournalMilestoneJSON {
        let milestone = try await JournalMilestoneState.check(userId: context.userId, services: services)
        return JournalMilestoneJSON(milestone: milestone, title: milestone.map(JournalMilestones.title))
    }

    @Sendable func reminders(_ request: Request, context: AuthenticatedContext) async throws -> JournalReminderSettings {
        try await JournalReminderSettings.load(userId: context.userId, services: services).0
    }

    @Sendable func saveReminders(_ request: Request, context: AuthenticatedContext) async throws -> JournalReminderSettings {
        let body = try await APIInput.decode(JournalReminderSettings.self, from: request, context: context)
        return try await JournalReminderSettings.save(body, userId: context.userId, services: services)
    }

    // MARK: - An entry as meals

    @Sendable func foods(_ request: Request, context: AuthenticatedContext) async throws -> JournalEntryFoodsJSON {
        let id = try APIInput.uuid(path: "id", of: context)
        guard let stored = try await services.journal.entry(userId: context.userId, id: id), !stored.isDeleted else {
            throw APIError.notFound(Strings.current("journalViews.entryNotFound"))
        }
        let words = try await JournalToMeals.matches(for: stored.entry, services: services)
        return JournalEntryFoodsJSON(
            entryId: stored.entry.id, date: stored.entry.date, slot: JournalToMeals.slot(of: stored.entry),
            words: words.map { .init(word: $0.word, foods: $0.foods) })
    }
}

extension JournalReminderSettings: ResponseEncodable {}

struct JournalSearchJSON: ResponseEncodable, Sendable {
    var query: String
    var entries: [JournalEntry]
}

struct JournalCalendarJSON: ResponseEncodable, Sendable {
    struct Day: Encodable, Sendable {
        var date: LocalDate
        var count: Int
        /// 0, 1, 2 or 3 (3 or more entries): the heatmap's shade.
        var level: Int
    }

    var month: String
    var days: [Day]
}

struct JournalInsightsJSON: ResponseEncodable, Sendable {
    struct Food: Encodable, Sendable { var name: String; var count: Int }
    struct Day: Encodable, Sendable { var date: LocalDate; var count: Int }
    struct Category: Encodable, Sendable { var category: String; var count: Int; var percentage: Double }
    struct InputType: Encodable, Sendable { var inputType: String; var count: Int; var percentage: Double }
    struct Hour: Encodable, Sendable { var hour: Int; var count: Int }
    struct Week: Encodable, Sendable { var thisWeek: Int; var lastWeek: Int; var change: Int; var percentChange: Int? }
    struct Pair: Encodable, Sendable { var first: String; var second: String; var count: Int }
    struct Records: Encodable, Sendable { var longestStreak: Int; var bestDay: Day?; var uniqueFoods: Int }

    var period: String
    var from: LocalDate
    var through: LocalDate
    var totalEntries: Int
    var currentStreak: Int
    var consistency: Int
    var topItems: [Food]
    var dailyCounts: [Day]
    var categories: [Category]
    var inputTypes: [InputType]
    var mealTiming: [Hour]
    var weekOverWeek: Week
    var coOccurrence: [Pair]
    var records: Records

    init(_ insights: JournalInsights, period: JournalPeriod) {
        self.period = period.rawValue
        let range = insights.range(period)
        from = range.lowerBound
        through = range.upperBound
        totalEntries = insights.totalEntries(period)
        currentStreak = insights.currentStreak.days
        consistency = insights.consistency(period)
        topItems = insights.topItems(period).map { Food(name: $0.name, count: $0.count) }
        dailyCounts = insights.dailyCounts(period).map { Day(date: $0.date, count: $0.count) }
        categories = insights.categoryDistribution(period).map { Category(category: $0.category.rawValue, count: $0.count, percentage: $0.percentage) }
        inputTypes = insights.inputTypeBreakdown(period).map { InputType(inputType: $0.inputType.rawValue, count: $0.count, percentage: $0.percentage) }
        mealTiming = insights.mealTiming(period).map { Hour(hour: $0.hour, count: $0.count) }
        let trend = insights.weekOverWeekTrend()
        weekOverWeek = Week(thisWeek: trend.thisWeek, lastWeek: trend.lastWeek, change: trend.change, percentChange: trend.percentChange)
        coOccurrence = insights.coOccurrence(period).map { Pair(first: $0.first, second: $0.second, count: $0.count) }
        records = Records(
            longestStreak: insights.longestStreak, bestDay: insights.bestDay.map { Day(date: $0.date, count: $0.count) },
            uniqueFoods: insights.uniqueFoods)
    }
}

struct JournalItemJSON: ResponseEncodable, Sendable {
    var word: String
    var period: String
    var total: Int
    var lastEaten: LocalDate?
    var dailyCounts: [JournalInsightsJSON.Day]
    var weekdays: [Weekday]
    var hours: [JournalInsightsJSON.Hour]
    var entries: [JournalEntry]

    struct Weekday: Encodable, Sendable { var weekday: Int; var count: Int }

    init(_ insights: JournalInsights, word: String, period: JournalPeriod) {
        self.word = word
        self.period = period.rawValue
        let matching = insights.entriesMatching(word)
        total = matching.count
        lastEaten = insights.lastEaten(word)
        dailyCounts = insights.itemDailyCounts(for: word, period).map { .init(date: $0.date, count: $0.count) }
        weekdays = insights.itemWeekdayPattern(for: word, period).map { .init(weekday: $0.weekday, count: $0.count) }
        hours = insights.itemMealTiming(for: word, period).map { .init(hour: $0.hour, count: $0.count) }
        entries = Array(matching.prefix(50))
    }
}

struct JournalRecapJSON: ResponseEncodable, Sendable {
    var weekStart: LocalDate
    var weekEnd: LocalDate
    var totalEntries: Int
    var lastWeekEntries: Int
    var vsLastWeek: Int
    var daysLogged: Int
    var missedDays: Int
    var topFood: String?
    var topFoodCount: Int
    var categories: [JournalInsightsJSON.Category]
    var streak: Int
    var headlineType: String
    var headline: String
    var subheadline: String
    var cardURL: String

    init(_ summary: JournalWeeklySummary) {
        weekStart = summary.weekStart
        weekEnd = summary.weekEnd
        totalEntries = summary.totalEntries
        lastWeekEntries = summary.lastWeekEntries
        vsLastWeek = summary.vsLastWeek
        daysLogged = summary.daysLogged
        missedDays = summary.missedDays
        topFood = summary.topFood
        topFoodCount = summary.topFoodCount
        categories = summary.categoryBreakdown.map { .init(category: $0.category.rawValue, count: $0.count, percentage: $0.percentage) }
        streak = summary.streak
        headlineType = summary.headlineType.rawValue
        headline = summary.headline
        subheadline = summary.subheadline
        cardURL = "/journal/recap/card.svg?week=\(summary.weekStart.iso)"
    }
}

struct JournalOnThisDayJSON: ResponseEncodable, Sendable {
    struct Group: Encodable, Sendable {
        /// `week`, `month` or `year`.
        var key: String
        var date: LocalDate
        var entries: [JournalEntry]
    }

    var groups: [Group]
}

struct JournalMilestoneJSON: ResponseEncodable, Sendable {
    /// The milestone to celebrate now (10, 25, 50, 100, 250), already recorded as celebrated; nil for none.
    var milestone: Int?
    var title: String?
}

struct JournalEntryFoodsJSON: ResponseEncodable, Sendable {
    struct Word: Encodable, Sendable {
        var word: String
        var foods: [FoodJSON]
    }

    var entryId: UUID
    var date: LocalDate
    /// The slot its meals are logged in (`breakfast`, `lunch`, `dinner`, `snack`).
    var slot: String
    var words: [Word]
}
