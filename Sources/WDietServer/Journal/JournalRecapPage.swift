import Foundation
import WDietCore

/// `/journal/recap?week=YYYY-MM-DD&page=1…6` (002's WeeklyRecapView): the week's recap as six pages — the headline,
/// the numbers, the top food, the categories, the days logged, and the share card (an SVG image to download or
/// share, `/journal/recap/card.svg?week=`).
struct JournalRecapPage: Sendable {
    static let pages = 6

    struct Day: Sendable {
        var letter: String
        var name: String
        var logged: Bool
        var isFuture: Bool
        var count: Int
    }

    var chrome: PageChrome
    var journalNav: JournalViewsNav
    var week: String
    var weekLabel: String
    var page: Int
    var pageLabel: String
    var isHero: Bool, isStats: Bool, isTopFood: Bool, isCategories: Bool, isConsistency: Bool, isShare: Bool
    var headlineEyebrow: String
    var headline: String
    var subheadline: String
    var stats: [JournalInsightsPage.Stat]
    var topFood: String?
    var topFoodLine: String?
    var topFoodHref: String?
    var categories: JournalDonut
    var hasCategories: Bool
    var days: [Day]
    var consistencyLine: String
    var isPerfect: Bool
    var cardHref: String
    var cardAlt: String
    var cardFileName: String
    var cardPngHref: String
    var cardPngFileName: String
    var backHref: String?
    var nextHref: String?
    var previousWeekHref: String
    var nextWeekHref: String?
    var dots: [Dot]

    struct Dot: Sendable { var isCurrent: Bool }

    /// `?week=`: any day of the week (its Monday is used), a year back through today; absent is this week.
    static func parseWeek(_ text: String?, today: LocalDate) -> LocalDate? {
        guard let text, !text.isEmpty else { return JournalWeeklySummary.monday(of: today) }
        guard let day = LocalDate(iso: text), day <= today, day >= today.adding(days: -366) else { return nil }
        return JournalWeeklySummary.monday(of: day)
    }

    static func weekLabel(_ summary: JournalWeeklySummary) -> String {
        Strings.current("journalViews.weekRange", [
            "start": Strings.current.date(summary.weekStart, .dayMonth), "end": Strings.current.date(summary.weekEnd, .full),
        ])
    }

    init(chrome: PageChrome, entries: [JournalEntry], week monday: LocalDate, today: LocalDate, page: Int) {
        let strings = Strings.current
        let summary = JournalWeeklySummary(entries: entries, week: monday, today: today)
        self.chrome = chrome
        journalNav = JournalViewsNav(current: .recap)
        week = monday.iso
        weekLabel = Self.weekLabel(summary)
        self.page = page
        pageLabel = strings("journalViews.recapPage", ["page": String(page), "pages": String(Self.pages)])
        isHero = page == 1; isStats = page == 2; isTopFood = page == 3; isCategories = page == 4; isConsistency = page == 5; isShare = page == 6
        headlineEyebrow = strings("journal.headlineEyebrow")
        headline = summary.headline
        subheadline = summary.subheadline
        let change = summary.vsLastWeek
        stats = [
            .init(label: strings("journalViews.recapEntries"), value: strings.number(summary.totalEntries)),
            .init(label: strings("journalViews.recapDaysLogged"), value: strings("journalViews.ofSeven", ["count": String(summary.daysLogged)])),
            .init(label: strings("journalViews.recapVsLastWeek"), value: (change > 0 ? "+" : "") + strings.number(change)),
            .init(label: strings("journalViews.statStreak"), value: strings("journalViews.days", count: summary.streak)),
        ]
        topFood = summary.topFood.map { $0.prefix(1).uppercased() + $0.dropFirst() }
        topFoodLine = summary.topFood.map { strings("journal.subheadlineTopFood", count: summary.topFoodCount, ["food": $0]) }
        topFoodHref = summary.topFood.map(JournalItemsPage.href(for:))
        categories = JournalDonut(summary.categoryBreakdown)
        hasCategories = !summary.categoryBreakdown.isEmpty
        let dates = Set(entries.map(\.date))
        var perDay: [LocalDate: Int] = [:]
        for entry in entries where entry.date >= monday && entry.date <= summary.weekEnd { perDay[entry.date, default: 0] += 1 }
        days = (0..<7).map { offset in
            let day = monday.adding(days: offset)
            return Day(
                letter: strings("progress.dayLetter\(offset + 1)"), name: strings("dates.weekday\(offset + 1)"),
                logged: dates.contains(day) && day <= today, isFuture: day > today, count: perDay[day] ?? 0)
        }
        consistencyLine = strings("journal.subheadlineDays", count: summary.daysLogged)
        isPerfect = summary.missedDays == 0 && summary.totalEntries > 0 && summary.weekEnd <= today
        cardHref = "/journal/recap/card.svg?week=\(monday.iso)"
        cardAlt = strings("journalViews.cardAlt", ["headline": summary.headline, "week": weekLabel])
        cardFileName = "w-diet-week-\(monday.iso).svg"
        cardPngHref = "/journal/recap/card.png?week=\(monday.iso)"
        cardPngFileName = "w-diet-week-\(monday.iso).png"
        let base = "/journal/recap?week=\(monday.iso)&page="
        backHref = page > 1 ? base + String(page - 1) : nil
        nextHref = page < Self.pages ? base + String(page + 1) : nil
        previousWeekHref = "/journal/recap?week=\(monday.adding(days: -7).iso)"
        nextWeekHref = monday.adding(days: 7) <= today ? "/journal/recap?week=\(monday.adding(days: 7).iso)" : nil
        dots = (1...Self.pages).map { Dot(isCurrent: $0 == page) }
    }
}

/// The recap's share card: a 360 × 360 SVG in 002's editorial style (void background, cream serif headline, orange
/// accents, the "YOUR FOOD. YOUR STORY." wordmark). Its text is escaped; fonts are generic families, so it looks the
/// same wherever it is opened.
enum JournalShareCard {
    static func svg(_ summary: JournalWeeklySummary, weekLabel: String) -> String {
        let strings = Strings.current
        let lines = wrap(summary.headline, width: 20).prefix(3)
        var text = ""
        for (index, line) in lines.enumerated() {
            text += "<text x=\"28\" y=\"\(112 + index * 34)\" class=\"h\">\(escape(line))</text>"
        }
        let statsY = 112 + lines.count * 34 + 30
        let stats: [(String, String)] = [
            (strings.number(summary.totalEntries), strings("journalViews.recapEntries")),
            (strings("journalViews.ofSeven", ["count": String(summary.daysLogged)]), strings("journalViews.recapDaysLogged")),
            (strings.number(summary.streak), strings("journalViews.statStreak")),
        ]
        for (index, stat) in stats.enumerated() {
            let x = 28 + index * 104
            text += "<text x=\"\(x)\" y=\"\(statsY)\" class=\"n\">\(escape(stat.0))</text>"
            text += "<text x=\"\(x)\" y=\"\(statsY + 18)\" class=\"l\">\(escape(stat.1.uppercased()))</text>"
        }
        if let food = summary.topFood {
            text += "<text x=\"28\" y=\"\(statsY + 50)\" class=\"s\">\(escape(strings("journal.subheadlineTopFood", count: summary.topFoodCount, ["food": food])))</text>"
        }
        return """
        <svg xmlns="http://www.w3.org/2000/svg" width="1080" height="1080" viewBox="0 0 360 360" role="img" aria-label="\(escape(summary.headline))">\
        <style>.e{font:700 11px sans-serif;letter-spacing:1.5px;fill:#FF6B35}.w{font:600 12px sans-serif;fill:#FFB347}\
        .h{font:900 28px Georgia,'Times New Roman',serif;fill:#F7F3EE}.n{font:900 24px sans-serif;fill:#F7F3EE}\
        .l{font:600 9px sans-serif;letter-spacing:1px;fill:#FFB347}.s{font:500 13px sans-serif;fill:#F7F3EE}\
        .m1{font:900 15px Georgia,serif;fill:#F7F3EE}.m2{font:italic 900 15px Georgia,serif;fill:#FF6B35}</style>\
        <rect width="360" height="360" fill="#070B18"/><rect x="0" y="0" width="360" height="6" fill="#FF6B35"/>\
        <text x="28" y="48" class="e">\(escape(strings("journal.headlineEyebrow").uppercased()))</text>\
        <text x="28" y="68" class="w">\(escape(weekLabel))</text>\(text)\
        <line x1="28" y1="318" x2="332" y2="318" stroke="#FF6B35" stroke-width="1"/>\
        <text x="28" y="342" class="m1">\(escape(strings("journalViews.wordmarkFood")))</text>\
        <text x="140" y="342" class="m2">\(escape(strings("journalViews.wordmarkStory")))</text>\
        <text x="332" y="342" text-anchor="end" class="w">w-diet</text></svg>
        """
    }

    /// Words in lines of at most `width` characters (a longer word alone on its line).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = [], current = ""
        for word in text.split(separator: " ") {
            if current.isEmpty { current = String(word) } else if current.count + 1 + word.count <= width { current += " " + word } else {
                lines.append(current); current = String(word)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
