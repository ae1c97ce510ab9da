import Foundation
import WDietCore

/// `/journal/calendar` (002's CalendarTabView): a month's heatmap (0, 1, 2, 3+ entries), the months before and after,
/// and the chosen day's entries under it.
struct JournalCalendarPage: Sendable {
    var chrome: PageChrome
    var journalNav: JournalViewsNav
    var grid: JournalMonthGrid
    var monthName: String
    var year: String
    var previousHref: String?
    var nextHref: String?
    var previousLabel: String
    var nextLabel: String
    var selectedLabel: String?
    var selectedDate: String?
    var dayHref: String?
    var entries: [JournalListEntry]
    var hasEntries: Bool
    var hasSelection: Bool
    var milestone: JournalMilestoneOverlay?

    /// "2026-03".
    static func monthParameter(_ year: Int, _ month: Int) -> String { String(year) + (month < 10 ? "-0" : "-") + String(month) }

    /// `YYYY-MM` from 1900 through the current month; nil otherwise.
    static func parseMonth(_ text: String, today: LocalDate) -> (year: Int, month: Int)? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2, let year = Int(parts[0]), let month = Int(parts[1]),
              (1...12).contains(month), year >= 1900, (year, month) <= (today.year, today.month) else { return nil }
        return (year, month)
    }

    init(chrome: PageChrome, month: (year: Int, month: Int), days: [DailyCount], today: LocalDate, selected: LocalDate?,
         entries: [JournalEntry], milestone: JournalMilestoneOverlay?) {
        let strings = Strings.current
        self.chrome = chrome
        self.milestone = milestone
        journalNav = JournalViewsNav(current: .calendar)
        grid = JournalMonthGrid(year: month.year, month: month.month, days: days, today: today, selected: selected)
        monthName = strings("dates.month\(month.month)")
        year = String(month.year)
        let (py, pm) = month.month == 1 ? (month.year - 1, 12) : (month.year, month.month - 1)
        let (ny, nm) = month.month == 12 ? (month.year + 1, 1) : (month.year, month.month + 1)
        previousHref = py >= 1900 ? "/journal/calendar?month=\(Self.monthParameter(py, pm))" : nil
        nextHref = (ny, nm) <= (today.year, today.month) ? "/journal/calendar?month=\(Self.monthParameter(ny, nm))" : nil
        previousLabel = strings("journalViews.previousMonth", ["month": strings("dates.month\(pm)") + " " + String(py)])
        nextLabel = strings("journalViews.nextMonth", ["month": strings("dates.month\(nm)") + " " + String(ny)])
        selectedDate = selected?.iso
        hasSelection = selected != nil
        selectedLabel = selected.map { strings.date($0, .long) }
        dayHref = selected.map { "/journal?date=\($0.iso)" }
        self.entries = entries.map { JournalListEntry($0) }
        hasEntries = !entries.isEmpty
    }
}

/// `/journal/search` (002's SearchView): the results of `?q=` rendered by the server (the page works without
/// script), refreshed as one types by `journal-search.js`; a result opens its day with the entry highlighted.
struct JournalSearchPage: Sendable {
    static let limit = 50

    var chrome: PageChrome
    var journalNav: JournalViewsNav
    var query: String
    var hasQuery: Bool
    var results: [JournalListEntry]
    var resultCount: String
    var hasResults: Bool
}

/// `/journal/items/{word}` (002's FoodItemTimelineView): one food's days, weekdays and hours over a period, with its
/// entries.
struct JournalItemsPage: Sendable {
    var chrome: PageChrome
    var journalNav: JournalViewsNav
    var term: String
    var title: String
    var periods: [JournalPeriodLink]
    var stats: [JournalInsightsPage.Stat]
    var occurrences: JournalColumns
    var occurrencesSummary: String
    var weekdays: JournalColumns
    var weekdaysSummary: String
    var hours: JournalColumns
    var hoursSummary: String
    var entries: [JournalListEntry]
    var hasEntries: Bool

    static func href(for word: String) -> String {
        "/journal/items/" + (word.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))) ?? word)
    }

    init(chrome: PageChrome, term: String, entries: [JournalEntry], today: LocalDate, period: JournalPeriod) {
        let strings = Strings.current
        let insights = JournalInsights(entries: entries, today: today)
        self.chrome = chrome
        journalNav = JournalViewsNav(current: .insights)
        self.term = term
        title = term.prefix(1).uppercased() + term.dropFirst()
        periods = JournalPeriodLink.all(current: period, path: Self.href(for: term))
        let matching = insights.entriesMatching(term)
        let daily = insights.itemDailyCounts(for: term, period)
        let inPeriod = daily.map(\.count).reduce(0, +)
        stats = [
            JournalInsightsPage.Stat(label: strings("journalViews.itemTotal"), value: strings.number(matching.count)),
            JournalInsightsPage.Stat(label: strings("journalViews.itemLastEaten"), value: insights.lastEaten(term).map { strings.date($0, .full) } ?? "–"),
            JournalInsightsPage.Stat(label: strings("journalViews.itemInPeriod"), value: strings.number(inPeriod)),
        ]
        occurrences = JournalColumns(daily.map { day in
            (label: "", title: day.date.shortLabel + ": " + strings("journalViews.entries", count: day.count), count: day.count, tone: "day")
        })
        occurrencesSummary = strings("journalViews.itemDaysSummary", count: daily.filter { $0.count > 0 }.count, [
            "food": term, "days": strings.number(daily.count),
        ])
        let weekdays = insights.itemWeekdayPattern(for: term, period)
        self.weekdays = JournalColumns(weekdays.map { item in
            let name = strings("dates.weekdayShort\(item.weekday)")
            return (label: name, title: name + ": " + strings("journalViews.entries", count: item.count), count: item.count, tone: "day")
        })
        weekdaysSummary = weekdays.map { strings("dates.weekdayShort\($0.weekday)") + " " + strings.number($0.count) }.joined(separator: ", ")
        let hours = insights.itemMealTiming(for: term, period)
        self.hours = JournalInsightsPage.hourColumns(hours)
        let busiest = hours.max { ($0.count, -$0.hour) < ($1.count, -$1.hour) }
        hoursSummary = (busiest?.count ?? 0) == 0 ? strings("journalViews.noData")
            : strings("journalViews.timingSummary", ["hour": JournalInsightsPage.hourLabel(busiest!.hour)])
        self.entries = matching.prefix(30).map { JournalListEntry($0, term: term) }
        hasEntries = !self.entries.isEmpty
    }
}
