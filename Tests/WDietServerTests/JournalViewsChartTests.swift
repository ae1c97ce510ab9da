import Foundation
import Testing
@testable import WDietServer
import WDietCore
import WDietTestSupport

/// The Journal views' page values and SVG geometry (issue 18, H4), from entries in memory.
@Suite("Journal views: charts and page values")
struct JournalViewsChartTests {
    static let today = Fixtures.date("2026-03-01")

    static func entry(_ date: String, _ time: String = "12:00", _ text: String, _ category: JournalCategory? = nil, _ type: JournalInputType = .text) -> JournalEntry {
        JournalEntry(
            date: Fixtures.date(date), time: JournalTime(time)!, inputType: type, rawInput: text, processedDescription: text,
            category: category, createdAt: Fixtures.utc("2026-01-01T00:00:00Z"))
    }

    @Test("columns: counts 1 and 3 in a 292-px plot of 2 slots: bars 102.2 wide from x 45.9 and 191.9, 40 and 120 px tall")
    func columns() {
        let chart = JournalColumns([
            (label: "A", title: "A: 1", count: 1, tone: "last"), (label: "B", title: "B: 3", count: 3, tone: "this"),
        ])
        // Plot x 24…316 (292 px, 146 per slot, bars 70 %), y 8…128 (120 px for the largest, 3).
        #expect(chart.bars.map(\.x) == ["45.9", "191.9"])
        #expect(chart.bars.map(\.width) == ["102.2", "102.2"])
        #expect(chart.bars.map(\.height) == ["40", "120"])
        #expect(chart.bars.map(\.y) == ["88", "8"])
        #expect(chart.labels.map(\.text) == ["A", "B"])
        #expect(chart.labels.map(\.x) == ["97", "243"])
        #expect(chart.maxLabel == "3")
        #expect(chart.hasData)
        #expect(!JournalColumns([(label: "", title: "", count: 0, tone: "")]).hasData)
    }

    @Test("daily line: 0, 2, 1 entries over 3 days from x 24 to 314, the largest at the top (y 8), zero on the baseline (128)")
    func line() {
        let days = [0, 2, 1].enumerated().map { DailyCount(date: Self.today.adding(days: $0.offset - 2), count: $0.element) }
        let line = JournalLine(days)
        #expect(line.linePath == "M24 128 L169 8 L314 68")
        #expect(line.areaPath == "M24 128 L169 8 L314 68 L314 128 L24 128 Z")
        #expect(line.firstLabel == "27 Feb")
        #expect(line.lastLabel == "1 Mar")
        #expect(line.maxLabel == "2")
    }

    @Test("donut: 2 breakfast, 1 lunch, 1 dinner are arcs of 50, 25 and 25 from 12 o'clock, each after the one before")
    func donut() {
        let entries = [
            Self.entry("2026-03-01", "08:00", "idli", .breakfast), Self.entry("2026-02-28", "08:00", "dosa", .breakfast),
            Self.entry("2026-03-01", "13:00", "rice", .lunch), Self.entry("2026-03-01", "19:00", "soup", .dinner),
            Self.entry("2026-03-01", "21:00", "something"),
        ]
        let donut = JournalDonut(JournalInsights(entries: entries, today: Self.today).categoryDistribution(.week))
        #expect(donut.segments.map(\.category) == ["breakfast", "lunch", "dinner"])
        #expect(donut.segments.map(\.dashArray) == ["50 50", "25 75", "25 75"])
        #expect(donut.segments.map(\.dashOffset) == ["25", "-25", "-50"])
        #expect(donut.segments.map(\.percent) == ["50", "25", "25"])
        #expect(donut.total == 4, "the entry without a category is not in the donut")
    }

    @Test("bars: 4, 2 and 0 entries are 100 %, 50 % and nothing of the row")
    func bars() {
        let list = JournalBarList([(label: "idli", count: 4, href: "/journal/items/idli"), (label: "dosa", count: 2, href: nil), (label: "x", count: 0, href: nil)])
        #expect(list.rows.map(\.percent) == ["100", "50", "0"])
        #expect(list.rows.first?.href == "/journal/items/idli")
        #expect(!list.isEmpty)
    }

    @Test("February 2026 as a grid: Sunday the 1st after 6 blank squares, 5 weeks; shades 0, 1, 2, 3 for 0, 1, 2 and 5 entries")
    func monthGrid() {
        var entries: [JournalEntry] = [Self.entry("2026-02-02", "12:00", "hi"), Self.entry("2026-02-03", "12:00", "a1"), Self.entry("2026-02-03", "12:00", "a2")]
        for _ in 0..<5 { entries.append(Self.entry("2026-02-04", "12:00", "x")) }
        let days = JournalInsights(entries: entries, today: Self.today).monthlyHeatmap(year: 2026, month: 2)
        let grid = JournalMonthGrid(year: 2026, month: 2, days: days, today: Self.today, selected: Fixtures.date("2026-02-03"))
        #expect(grid.weeks.count == 5)
        #expect(grid.weeks[0].cells.prefix(6).allSatisfy { $0.isBlank })
        #expect(grid.weeks[0].cells[6].day == 1)
        #expect(grid.weeks[4].cells.last?.isBlank == true, "Saturday 28 Feb, then one blank Sunday")
        #expect(grid.weeks[1].cells.prefix(3).map(\.level) == [1, 2, 3])
        #expect(grid.weeks[1].cells[1].isSelected)
        #expect(grid.weeks[1].cells[1].label == "Tue 3 Feb: 2 entries")
        #expect(grid.title == "February 2026")
        #expect(grid.weekdayNames.first?.short == "Mon")
        #expect(grid.weekdayNames.map(\.letter) == ["M", "T", "W", "T", "F", "S", "S"])
        // The SVG heatmap: the 1st in the 7th column (x 6 + 6 × 44), first row (y 18); the 2nd in the second row.
        #expect(grid.cells[0].x == "270" && grid.cells[0].y == "18")
        #expect(grid.cells[1].x == "6" && grid.cells[1].y == "62")
        #expect(grid.height == "238")
        // Its weekday letters centred over the columns: Monday at 6 + 20, Sunday at 6 + 6 × 44 + 20.
        #expect(grid.weekdayLabels.map(\.x) == ["26", "70", "114", "158", "202", "246", "290"])
        #expect(grid.weekdayLabels.first?.text == "M" && grid.weekdayLabels.last?.text == "S")
    }

    @Test("months for ?month=: YYYY-MM from 1900 through this month; anything else is refused")
    func monthParameter() {
        #expect(JournalCalendarPage.parseMonth("2026-02", today: Self.today)! == (2026, 2))
        #expect(JournalCalendarPage.parseMonth("2026-03", today: Self.today)! == (2026, 3))
        for bad in ["2026-04", "2026-13", "2026-00", "26-02", "2026-2", "1899-12", "abcd-ef", "2026-02-01"] {
            #expect(JournalCalendarPage.parseMonth(bad, today: Self.today) == nil, "\(bad)")
        }
        #expect(JournalCalendarPage.monthParameter(2026, 2) == "2026-02")
    }

    @Test("on this day: a week ago is 7 days back; a month and a year ago keep the day or take the month's last")
    func onThisDay() {
        #expect(JournalOnThisDay.days(today: Fixtures.date("2026-03-31")).map(\.date.iso) == ["2026-03-24", "2026-02-28", "2025-03-31"])
        #expect(JournalOnThisDay.days(today: Fixtures.date("2028-02-29")).map(\.date.iso) == ["2028-02-22", "2028-01-29", "2027-02-28"])
        #expect(JournalOnThisDay.days(today: Fixtures.date("2026-01-15")).map(\.date.iso) == ["2026-01-08", "2025-12-15", "2025-01-15"])
        let page = JournalOnThisDay(entries: [Self.entry("2026-02-22", "09:00", "poha"), Self.entry("2026-02-22", "07:00", "chai")], today: Self.today)
        #expect(page.groups.map(\.key) == ["week", "month", "year"])
        #expect(page.groups[0].entries.map(\.description) == ["chai", "poha"], "in the order of the day")
        #expect(page.groups[1].isEmpty && page.groups[2].isEmpty)
        #expect(page.hasAny)
    }

    @Test("a search result marks the first occurrence of the query's first word, ignoring case")
    func searchMark() {
        let entry = Self.entry("2026-02-27", "12:00", "Masala DOSA with chutney")
        let result = JournalListEntry(entry, term: "dosa chutney")
        #expect(result.before == "Masala " && result.match == "DOSA" && result.after == " with chutney")
        #expect(result.hasMatch)
        let id = entry.id.uuidString.lowercased()
        #expect(result.href == "/journal?date=2026-02-27&highlight=\(id)#entry-\(id)")
        #expect(!JournalListEntry(entry, term: "rice").hasMatch)
    }

    @Test("Insights for the last 7 days: consistency, streak, records, top foods and the week's trend, worked")
    func insightsPage() {
        // 24–28 Feb and 1 Mar: six days in a row (a day before, 20 Feb, last week): 4 of … entries this week.
        let entries = [
            Self.entry("2026-02-20", "08:00", "idli sambar", .breakfast),
            Self.entry("2026-02-24", "08:00", "idli sambar", .breakfast), Self.entry("2026-02-25", "08:00", "idli", .breakfast),
            Self.entry("2026-02-26", "13:00", "dosa", .lunch), Self.entry("2026-02-27", "19:00", "rice dal", .dinner),
            Self.entry("2026-02-28", "16:00", "chai", .beverage, .voice), Self.entry("2026-03-01", "08:30", "idli chutney", .breakfast, .photo),
        ]
        let page = JournalInsightsPage(chrome: PageChrome.test, entries: entries, today: Self.today, period: .week, heatmapMonth: nil, milestone: nil)
        // 6 of the 7 days (23 Feb – 1 Mar) have an entry: 86 %.
        #expect(page.consistency == 86)
        #expect(page.consistencyDash == "86 14")
        #expect(page.stats.map(\.value) == ["6 days", "86 %", "6"])
        #expect(page.records.map(\.value) == ["6 days", "1 entry on 1 Mar 2026", "7"])
        #expect(page.topFoods.rows.map(\.label) == ["idli", "chai", "chutney", "dal", "dosa", "rice", "sambar"], "sambar of 20 Feb is outside the 7 days")
        #expect(page.topFoods.rows.first?.countText == "3")
        #expect(page.topFoods.rows.first?.href == "/journal/items/idli")
        // The last 7 days against the 7 before: 6 vs 1, +500 %.
        #expect(page.week.thisWeek == 6 && page.week.lastWeek == 1)
        #expect(page.week.trend == "↑ 500 % more than last week")
        #expect(page.inputTypesSummary == "Text 4, Photo 1, Voice 1")
        #expect(page.timingSummary == "You write most often at 08:00.")
        #expect(page.periods.map(\.isCurrent) == [true, false, false, false, false])
        #expect(page.heatmap.title == "March 2026")
        #expect(page.heatmapNext == nil, "no month after this one")
        #expect(page.heatmapPrevious == "/journal/insights?period=week&month=2026-02#heatmap-title")
        #expect(page.dailySummary == "6 entries on 6 of 7 days")
    }

    @Test("a food's timeline: its days, weekdays (Monday first) and hours over the period, and every entry that names it")
    func itemPage() {
        let entries = [
            Self.entry("2026-02-23", "08:00", "Idli sambar"), Self.entry("2026-02-25", "09:00", "idli"),
            Self.entry("2026-03-01", "08:00", "two idlis"), Self.entry("2026-03-01", "20:00", "dosa"),
        ]
        let page = JournalItemsPage(chrome: PageChrome.test, term: "idli", entries: entries, today: Self.today, period: .week)
        #expect(page.title == "Idli")
        #expect(page.stats.map(\.value) == ["3", "1 Mar 2026", "3"])
        #expect(page.weekdays.bars.map(\.count) == [1, 0, 1, 0, 0, 0, 1], "Monday 23, Wednesday 25, Sunday 1")
        #expect(page.hours.bars[8].count == 2 && page.hours.bars[9].count == 1)
        #expect(page.occurrences.bars.count == 7)
        #expect(page.entries.map(\.description) == ["two idlis", "idli", "Idli sambar"], "newest first")
        #expect(page.occurrencesSummary == "idli on 3 of 7 days")
    }

    @Test("the recap of the week of 23 Feb: six pages, the headline by 002's priority, the days Monday to Sunday")
    func recap() {
        let entries = ["2026-02-23", "2026-02-24", "2026-02-25", "2026-02-26", "2026-02-27", "2026-02-28", "2026-03-01"]
            .map { Self.entry($0, "08:00", "poha and chai", .breakfast) }
        let page = JournalRecapPage(chrome: PageChrome.test, entries: entries, week: Fixtures.date("2026-02-23"), today: Self.today, page: 3)
        // 7 entries naming poha and chai: "top food ≥ 3" (the streak of 7 is not more than 7); equals alphabetically.
        #expect(page.headline == "Chai was your week's favorite")
        #expect(page.topFood == "Chai")
        #expect(page.topFoodLine == "Most logged: chai, 7 times")
        #expect(page.isTopFood && !page.isHero)
        #expect(page.days.map(\.logged) == Array(repeating: true, count: 7))
        #expect(page.isPerfect)
        #expect(page.stats.map(\.value) == ["7", "7/7", "+7", "7 days"])
        #expect(page.backHref == "/journal/recap?week=2026-02-23&page=2")
        #expect(page.nextHref == "/journal/recap?week=2026-02-23&page=4")
        #expect(page.nextWeekHref == nil, "the week of 2 March has not begun")
        #expect(page.weekLabel == "23 Feb – 1 Mar 2026")
        #expect(page.dots.map(\.isCurrent) == [false, false, true, false, false, false])
        #expect(JournalRecapPage.parseWeek("2026-02-26", today: Self.today) == Fixtures.date("2026-02-23"))
        #expect(JournalRecapPage.parseWeek("2026-03-02", today: Self.today) == nil)
        #expect(JournalRecapPage.parseWeek("2025-02-27", today: Self.today) == nil, "more than a year back")
    }

    @Test("the share card is an SVG of the headline in lines of at most 20 characters, its text escaped")
    func shareCard() {
        #expect(JournalShareCard.wrap("4 more entries than last week", width: 20) == ["4 more entries than", "last week"])
        let entries = [Self.entry("2026-02-23", "08:00", "fish & <chips>"), Self.entry("2026-02-24", "08:00", "fish & <chips>"),
                       Self.entry("2026-02-25", "08:00", "fish & <chips>")]
        let summary = JournalWeeklySummary(entries: entries, week: Fixtures.date("2026-02-23"), today: Self.today)
        let svg = JournalShareCard.svg(summary, weekLabel: "23 Feb – 1 Mar 2026")
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        // "chips" and "fish" 3 times each: chips first alphabetically; the headline in two lines.
        #expect(svg.contains(">Chips was your</text>"))
        #expect(svg.contains(">week's favorite</text>"))
        #expect(svg.contains(">3</text>"), "3 entries")
        #expect(svg.contains(">Most logged: chips, 3 times</text>"))
        #expect(JournalShareCard.escape("fish & <chips> \"x\"") == "fish &amp; &lt;chips&gt; &quot;x&quot;")
    }

    @Test("a settings row's id: the same for a user and collection on every call, another for another collection or user")
    func settingsRowId() {
        let user = UUID(uuidString: "0f3c2b1a-1111-4c2b-8f0e-0a1b2c3d4e01")!
        let other = UUID(uuidString: "0f3c2b1a-1111-4c2b-8f0e-0a1b2c3d4e02")!
        let a = JournalSettingsRow.id(userId: user, collection: "journal_milestones")
        #expect(a == JournalSettingsRow.id(userId: user, collection: "journal_milestones"))
        #expect(a != JournalSettingsRow.id(userId: user, collection: "journal_reminders"))
        #expect(a != JournalSettingsRow.id(userId: other, collection: "journal_milestones"))
        #expect(a != user)
    }

    @Test("an entry's slot for its meals: its category's, snacks for desserts and drinks, the hour's without one")
    func slots() {
        #expect(JournalToMeals.slot(of: Self.entry("2026-03-01", "21:00", "x", .breakfast)) == "breakfast")
        #expect(JournalToMeals.slot(of: Self.entry("2026-03-01", "08:00", "x", .dessert)) == "snack")
        #expect(JournalToMeals.slot(of: Self.entry("2026-03-01", "08:00", "x", .beverage)) == "snack")
        #expect(JournalToMeals.slot(of: Self.entry("2026-03-01", "13:00", "x")) == "lunch")
        #expect(JournalToMeals.slot(of: Self.entry("2026-03-01", "23:00", "x")) == "snack")
        #expect(JournalToMeals.words(of: Self.entry("2026-03-01", "12:00", "I had 2 eggs and toast with butter")) == ["eggs", "toast", "butter"])
    }
}

extension PageChrome {
    static var test: PageChrome { PageChrome(csrfToken: "t") }
}
