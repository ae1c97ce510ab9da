import Foundation
import WDietCore

/// The period picker's links (7D / 30D / 3M / 1Y / All) on Insights and a food's timeline.
struct JournalPeriodLink: Sendable {
    var period: String
    var label: String
    var name: String
    var href: String
    var isCurrent: Bool

    static func all(current: JournalPeriod, path: String) -> [JournalPeriodLink] {
        JournalPeriod.allCases.map { period in
            JournalPeriodLink(
                period: period.rawValue, label: period.label, name: name(of: period),
                href: "\(path)?period=\(period.rawValue)", isCurrent: period == current)
        }
    }

    /// "Last 7 days", "All time": a period's name in words (its label is "7D").
    static func name(of period: JournalPeriod) -> String {
        switch period {
        case .week: Strings.current("journalViews.periodWeek")
        case .month: Strings.current("journalViews.periodMonth")
        case .threeMonths: Strings.current("journalViews.periodThreeMonths")
        case .year: Strings.current("journalViews.periodYear")
        case .allTime: Strings.current("journalViews.periodAllTime")
        }
    }

    /// `?period=` of a page: absent is 30 days (002's default view is the month); anything else is nil.
    static func parse(_ text: String?) -> JournalPeriod? {
        guard let text, !text.isEmpty else { return .month }
        return JournalPeriod(rawValue: text)
    }
}

/// One entry in a list of the Journal's views (a calendar day, search results, a food's timeline, "On this day").
struct JournalListEntry: Sendable {
    var id: String
    var date: String
    var dayLabel: String
    var time: String
    var category: String
    var categoryLabel: String
    var description: String
    /// The description cut at the match, for a `<mark>` in search results.
    var before: String
    var match: String
    var after: String
    var hasMatch: Bool
    var href: String
    var mealsHref: String

    init(_ entry: JournalEntry, term: String? = nil) {
        id = entry.id.uuidString.lowercased()
        date = entry.date.iso
        dayLabel = entry.date.shortLabel
        time = entry.time.description
        category = entry.category?.rawValue ?? "none"
        categoryLabel = entry.category?.label ?? Strings.current("journalViews.noCategory")
        description = entry.processedDescription
        href = "/journal?date=\(entry.date.iso)&highlight=\(id)#entry-\(id)"
        mealsHref = "/journal/entries/\(id)/meals"
        let parts = Self.split(entry.processedDescription, at: term)
        before = parts.0; match = parts.1; after = parts.2
        hasMatch = !parts.1.isEmpty
    }

    /// The text before, at and after the first case-insensitive occurrence of the term's first word (the whole
    /// text before when there is none).
    static func split(_ text: String, at term: String?) -> (String, String, String) {
        guard let word = term?.split(whereSeparator: \.isWhitespace).first.map(String.init), !word.isEmpty,
              let range = text.range(of: word, options: [.caseInsensitive, .diacriticInsensitive]) else {
            return (text, "", "")
        }
        return (String(text[..<range.lowerBound]), String(text[range]), String(text[range.upperBound...]))
    }
}

/// "On this day": what was eaten a week, a month and a year ago.
struct JournalOnThisDay: Sendable {
    struct Group: Sendable {
        var key: String
        var title: String
        var dayLabel: String
        var href: String
        var entries: [JournalListEntry]
        var isEmpty: Bool
    }

    var groups: [Group]
    var hasAny: Bool

    /// A week ago is today − 7; a month ago the same day of the month before (the month's last day when it is
    /// shorter: 31 March → 28 February); a year ago the same date a year before (29 February → 28 February).
    static func days(today: LocalDate) -> [(key: String, date: LocalDate)] {
        [("week", today.adding(days: -7)), ("month", monthsBack(1, from: today)), ("year", monthsBack(12, from: today))]
    }

    static func monthsBack(_ months: Int, from day: LocalDate) -> LocalDate {
        let total = day.year * 12 + (day.month - 1) - months
        let year = total / 12, month = total % 12 + 1
        return LocalDate(year: year, month: month, day: min(day.day, JournalSVG.daysIn(month: month, year: year)))!
    }

    init(entries: [JournalEntry], today: LocalDate) {
        groups = Self.days(today: today).map { key, date in
            Group(
                key: key, title: key == "week" ? Strings.current("journalViews.onThisDayWeek")
                    : key == "month" ? Strings.current("journalViews.onThisDayMonth") : Strings.current("journalViews.onThisDayYear"),
                dayLabel: Strings.current.date(date, .long), href: "/journal?date=\(date.iso)",
                entries: entries.filter { $0.date == date }.sorted { $0.time < $1.time }.map { JournalListEntry($0) },
                isEmpty: !entries.contains { $0.date == date })
        }
        hasAny = groups.contains { !$0.isEmpty }
    }
}

/// The Insights page (002's InsightsView): the week's headline, the period picker, stats, records and the charts.
struct JournalInsightsPage: Sendable {
    struct Stat: Sendable {
        var label: String
        var value: String
    }

    struct Pair: Sendable {
        var first: String
        var second: String
        var countText: String
    }

    struct WeekBars: Sendable {
        var columns: JournalColumns
        var thisWeek: Int
        var lastWeek: Int
        var trend: String
        var trendClass: String
    }

    var chrome: PageChrome
    var journalNav: JournalViewsNav
    var periods: [JournalPeriodLink]
    var period: String
    var periodName: String
    var hasEntries: Bool
    var headlineEyebrow: String
    var headline: String
    var subheadline: String
    var stats: [Stat]
    var consistency: Int
    /// The consistency ring's arc ("71 29").
    var consistencyDash: String
    var records: [Stat]
    var topFoods: JournalBarList
    var topFoodsSummary: String
    var daily: JournalLine
    var dailySummary: String
    var categories: JournalDonut
    var categoriesSummary: String
    var inputTypes: JournalBarList
    var inputTypesSummary: String
    var timing: JournalColumns
    var timingSummary: String
    var week: WeekBars
    var weekSummary: String
    var heatmap: JournalMonthGrid
    var heatmapSummary: String
    var heatmapPrevious: String?
    var heatmapNext: String?
    var pairs: [Pair]
    var onThisDay: JournalOnThisDay
    var milestone: JournalMilestoneOverlay?

    init(chrome: PageChrome, entries: [JournalEntry], today: LocalDate, period: JournalPeriod, heatmapMonth: (year: Int, month: Int)?,
         milestone: JournalMilestoneOverlay?) {
        self.init(chrome: chrome, insights: JournalInsights(entries: entries, today: today), onThisDay: entries, period: period,
                  heatmapMonth: heatmapMonth, milestone: milestone)
    }

    /// `insights` as `JournalStore.insights` reads them for the period and month; `onThisDay` holds (at least) the
    /// entries of the days "On this day" shows.
    init(chrome: PageChrome, insights: JournalInsights, onThisDay: [JournalEntry], period: JournalPeriod,
         heatmapMonth: (year: Int, month: Int)?, milestone: JournalMilestoneOverlay?) {
        let strings = Strings.current
        let today = insights.today
        self.chrome = chrome
        journalNav = JournalViewsNav(current: .insights)
        periods = JournalPeriodLink.all(current: period, path: "/journal/insights")
        self.period = period.rawValue
        periodName = JournalPeriodLink.name(of: period)
        hasEntries = !insights.history.dayCounts.isEmpty
        self.milestone = milestone

        let summary = JournalWeeklySummary(entries: insights.entries, today: today, history: insights.history)
        headlineEyebrow = strings("journal.headlineEyebrow")
        headline = summary.headline
        subheadline = summary.subheadline

        let total = insights.totalEntries(period)
        let streak = insights.currentStreak.days
        consistency = insights.consistency(period)
        consistencyDash = "\(consistency) \(100 - consistency)"
        stats = [
            Stat(label: strings("journalViews.statStreak"), value: strings("journalViews.days", count: streak)),
            Stat(label: strings("journalViews.statConsistency"), value: strings("journalViews.percent", ["value": strings.number(consistency)])),
            Stat(label: strings("journalViews.statEntries"), value: strings.number(total)),
        ]
        let best = insights.bestDay
        records = [
            Stat(label: strings("journalViews.recordLongestStreak"), value: strings("journalViews.days", count: insights.longestStreak)),
            Stat(label: strings("journalViews.recordBestDay"), value: best.map {
                strings("journalViews.bestDay", count: $0.count, ["day": strings.date($0.date, .full)])
            } ?? "–"),
            Stat(label: strings("journalViews.recordUniqueFoods"), value: strings.number(insights.uniqueFoods)),
        ]

        let top = insights.topItems(period, limit: 10)
        topFoods = JournalBarList(top.map { (label: $0.name, count: $0.count, href: JournalItemsPage.href(for: $0.name)) })
        topFoodsSummary = top.isEmpty ? strings("journalViews.noData")
            : strings("journalViews.topFoodsSummary", ["list": top.prefix(3).map { "\($0.name) \(strings.number($0.count))" }.joined(separator: ", ")])

        let daily = insights.dailyCounts(period)
        self.daily = JournalLine(daily)
        let activeDays = daily.filter { $0.count > 0 }.count
        dailySummary = strings("journalViews.dailySummary", count: daily.count, [
            "entries": strings.number(total), "active": strings.number(activeDays),
        ])

        let categories = insights.categoryDistribution(period)
        self.categories = JournalDonut(categories)
        categoriesSummary = categories.isEmpty ? strings("journalViews.noData")
            : categories.map { "\($0.category.label) \(strings.number($0.percentage)) %" }.joined(separator: ", ")

        let types = insights.inputTypeBreakdown(period)
        inputTypes = JournalBarList(types.map { (label: $0.inputType.label, count: $0.count, href: nil) })
        inputTypesSummary = types.map { "\($0.inputType.label) \(strings.number($0.count))" }.joined(separator: ", ")

        let hours = insights.mealTiming(period)
        timing = Self.hourColumns(hours)
        let busiest = hours.max { ($0.count, -$0.hour) < ($1.count, -$1.hour) }
        timingSummary = (busiest?.count ?? 0) == 0 ? strings("journalViews.noData")
            : strings("journalViews.timingSummary", ["hour": Self.hourLabel(busiest!.hour)])

        let trend = insights.weekOverWeekTrend()
        let trendText: String
        if let percent = trend.percentChange {
            trendText = strings(percent >= 0 ? "journalViews.trendUp" : "journalViews.trendDown", ["percent": strings.number(abs(percent))])
        } else {
            trendText = strings("journalViews.trendNew")
        }
        week = WeekBars(
            columns: JournalColumns([
                (label: strings("journalViews.lastWeek"), title: strings("journalViews.lastWeek") + ": " + strings("journalViews.entries", count: trend.lastWeek), count: trend.lastWeek, tone: "last"),
                (label: strings("journalViews.thisWeek"), title: strings("journalViews.thisWeek") + ": " + strings("journalViews.entries", count: trend.thisWeek), count: trend.thisWeek, tone: "this"),
            ]),
            thisWeek: trend.thisWeek, lastWeek: trend.lastWeek, trend: trendText,
            trendClass: trend.change > 0 ? "up" : trend.change < 0 ? "down" : "flat")
        weekSummary = strings("journalViews.weekSummary", ["this": strings.number(trend.thisWeek), "last": strings.number(trend.lastWeek)])

        let month = heatmapMonth ?? (today.year, today.month)
        let days = insights.monthlyHeatmap(year: month.year, month: month.month)
        heatmap = JournalMonthGrid(year: month.year, month: month.month, days: days, today: today, selected: nil)
        heatmapSummary = strings("journalViews.heatmapSummary", count: days.filter { $0.count > 0 }.count, ["month": heatmap.title])
        let (py, pm) = month.month == 1 ? (month.year - 1, 12) : (month.year, month.month - 1)
        let (ny, nm) = month.month == 12 ? (month.year + 1, 1) : (month.year, month.month + 1)
        heatmapPrevious = "/journal/insights?period=\(period.rawValue)&month=\(JournalCalendarPage.monthParameter(py, pm))#heatmap-title"
        heatmapNext = (ny, nm) <= (today.year, today.month)
            ? "/journal/insights?period=\(period.rawValue)&month=\(JournalCalendarPage.monthParameter(ny, nm))#heatmap-title" : nil

        pairs = insights.coOccurrence(period, limit: 8).map {
            Pair(first: $0.first, second: $0.second, countText: strings("journalViews.days", count: $0.count))
        }
        self.onThisDay = JournalOnThisDay(entries: onThisDay, today: today)
    }

    /// "07:00", the hour as the clock shows it.
    static func hourLabel(_ hour: Int) -> String { (hour < 10 ? "0" : "") + "\(hour):00" }

    /// 24 hour bars, coloured by 002's time-of-day bands (morning 5–10, midday 11–14, afternoon 15–16, evening
    /// 17–20, night otherwise), labelled every 6 hours.
    static func hourColumns(_ hours: [HourCount]) -> JournalColumns {
        JournalColumns(hours.map { item in
            let tone: String
            switch item.hour {
            case 5...10: tone = "morning"
            case 11...14: tone = "midday"
            case 15...16: tone = "afternoon"
            case 17...20: tone = "evening"
            default: tone = "night"
            }
            return (label: item.hour % 6 == 0 ? String(item.hour) : "", title: hourLabel(item.hour) + ": " + Strings.current("journalViews.entries", count: item.count),
                    count: item.count, tone: tone)
        }, labelEvery: 1)
    }
}

/// Which of the Journal's sections is current, for the `journal-header` partial's links (the day is `/journal`).
struct JournalViewsNav: Sendable {
    enum Current { case calendar, search, insights, recap, reminders, none }
    var day = false
    var calendar = false
    var search = false
    var insights = false
    var recap = false
    var reminders = false

    init(current: Current) {
        switch current {
        case .calendar: calendar = true
        case .search: search = true
        case .insights: insights = true
        case .recap: recap = true
        case .reminders: reminders = true
        case .none: break
        }
    }
}
