import Foundation
import WDietCore

/// The Journal's charts (002's Insights cards), drawn by the server as SVG in a fixed 320-wide viewBox, so that they
/// stay readable on a 320 px screen. Each chart is plain values for a template; the numbers are rounded to one
/// decimal (`JournalSVG.number`). Every chart has a sentence that says the same in words (`summary`) for its
/// `aria-label`.
enum JournalSVG {
    static let width = 320.0

    /// One decimal at most: "12", "12.5".
    static func number(_ value: Double) -> String { WeightChart.number(value) }

    /// Monday 0 … Sunday 6 (1 January 1970 was a Thursday).
    static func weekdayIndex(_ date: LocalDate) -> Int { ((date.daysSinceEpoch + 3) % 7 + 7) % 7 }

    /// The number of days in a month.
    static func daysIn(month: Int, year: Int) -> Int {
        let first = LocalDate(year: year, month: month, day: 1)!
        let next = month == 12 ? LocalDate(year: year + 1, month: 1, day: 1)! : LocalDate(year: year, month: month + 1, day: 1)!
        return first.days(until: next)
    }
}

/// Horizontal bars with a label and the count: the top foods (each a link to its timeline) and the input types. A
/// list in HTML, each row's bar a small SVG as wide as its share of the largest (`percent`, 0–100).
struct JournalBarList: Sendable {
    struct Row: Sendable {
        var label: String
        var count: Int
        var countText: String
        /// Where the food's own timeline is (top foods only).
        var href: String?
        var percent: String
    }

    var rows: [Row]
    var isEmpty: Bool

    init(_ items: [(label: String, count: Int, href: String?)]) {
        let largest = max(1, items.map(\.count).max() ?? 1)
        rows = items.map { item in
            Row(label: item.label, count: item.count, countText: Strings.current.number(item.count), href: item.href,
                percent: JournalSVG.number(item.count == 0 ? 0 : max(2, 100 * Double(item.count) / Double(largest))))
        }
        isEmpty = items.isEmpty
    }
}

/// Vertical bars, one per slot (a day, an hour, a weekday), with labels under some of them and the largest value on
/// the left: daily activity, meal timing, the week against the last, a food's days, weekdays and hours.
struct JournalColumns: Sendable {
    static let height = 150.0
    static let left = 24.0, right = 4.0, top = 8.0, bottom = 22.0
    static var baseline: Double { height - bottom }

    struct Bar: Sendable {
        var x: String
        var y: String
        var width: String
        var height: String
        var count: Int
        /// The slot's name in words ("Mon 23 Nov: 2 entries"), the bar's `<title>`.
        var title: String
        var tone: String
    }

    struct Label: Sendable {
        var x: String
        var text: String
    }

    var bars: [Bar]
    var labels: [Label]
    var maxLabel: String
    var maxY: String
    var baselineY = JournalSVG.number(JournalColumns.baseline)
    var hasData: Bool

    /// `slots` in order; `labelEvery` puts a label under every n-th slot (and the last); `tone` names a bar's
    /// colour class (meal timing's morning/midday/afternoon/evening bands).
    init(_ slots: [(label: String, title: String, count: Int, tone: String)], labelEvery: Int = 1) {
        let largest = slots.map(\.count).max() ?? 0
        hasData = largest > 0
        let scale = Double(max(1, largest))
        let plotWidth = JournalSVG.width - Self.left - Self.right
        let plotHeight = Self.baseline - Self.top
        let slot = plotWidth / Double(max(1, slots.count))
        let barWidth = max(1, slot * (slots.count > 60 ? 0.9 : 0.7))
        var bars: [Bar] = [], labels: [Label] = []
        for (index, item) in slots.enumerated() {
            let x = Self.left + slot * Double(index) + (slot - barWidth) / 2
            let h = plotHeight * Double(item.count) / scale
            bars.append(Bar(
                x: JournalSVG.number(x), y: JournalSVG.number(Self.baseline - h), width: JournalSVG.number(barWidth),
                height: JournalSVG.number(h), count: item.count, title: item.title, tone: item.tone))
            if !item.label.isEmpty && (index % max(1, labelEvery) == 0 || index == slots.count - 1) {
                labels.append(Label(x: JournalSVG.number(x + barWidth / 2), text: item.label))
            }
        }
        self.bars = bars
        self.labels = labels
        maxLabel = Strings.current.number(largest)
        maxY = JournalSVG.number(Self.top + 4)
    }
}

/// Daily activity as a line over a filled area (002's LineMark + AreaMark).
struct JournalLine: Sendable {
    static let height = 150.0
    static let left = 24.0, right = 6.0, top = 8.0, bottom = 22.0

    var linePath: String
    var areaPath: String
    var maxLabel: String
    var firstLabel: String
    var lastLabel: String
    var hasData: Bool

    init(_ days: [DailyCount]) {
        let largest = days.map(\.count).max() ?? 0
        hasData = largest > 0
        let scale = Double(max(1, largest))
        let plotWidth = JournalSVG.width - Self.left - Self.right
        let baseline = Self.height - Self.bottom
        let plotHeight = baseline - Self.top
        func x(_ index: Int) -> Double {
            days.count <= 1 ? Self.left + plotWidth / 2 : Self.left + plotWidth * Double(index) / Double(days.count - 1)
        }
        func y(_ count: Int) -> Double { baseline - plotHeight * Double(count) / scale }
        let points = days.enumerated().map { (x($0.offset), y($0.element.count)) }
        linePath = points.enumerated().map { "\($0.offset == 0 ? "M" : "L")\(JournalSVG.number($0.element.0)) \(JournalSVG.number($0.element.1))" }
            .joined(separator: " ")
        if let first = points.first, let last = points.last {
            let x0 = JournalSVG.number(first.0), x1 = JournalSVG.number(last.0), y = JournalSVG.number(baseline)
            areaPath = linePath + " L\(x1) \(y) L\(x0) \(y) Z" // catalog-exempt: SVG path data
        } else {
            areaPath = ""
        }
        maxLabel = Strings.current.number(largest)
        firstLabel = days.first.map { Strings.current.date($0.date, .dayMonth) } ?? ""
        lastLabel = days.last.map { Strings.current.date($0.date, .dayMonth) } ?? ""
    }
}

/// The categories as a donut (002's SectorMark, inner radius 60 %): each category an arc of a circle whose
/// circumference is 100, so a share is its dash length; the total in the middle.
struct JournalDonut: Sendable {
    /// r = 100 / 2π: the circle's length is 100.
    static let radius = "15.9155"

    struct Segment: Sendable {
        var category: String
        var label: String
        var count: Int
        var percent: String
        /// "25 75": the arc and the gap.
        var dashArray: String
        /// Starts at 12 o'clock (25) and goes clockwise after the segments before it.
        var dashOffset: String
    }

    var segments: [Segment]
    var total: Int
    var totalText: String

    init(_ counts: [CategoryCount]) {
        let total = counts.map(\.count).reduce(0, +)
        self.total = total
        totalText = Strings.current.number(total)
        var before = 0.0
        segments = counts.map { item in
            let share = total == 0 ? 0 : Double(item.count) * 100 / Double(total)
            defer { before += share }
            return Segment(
                category: item.category.rawValue, label: item.category.label, count: item.count,
                percent: Strings.current.number(item.percentage),
                dashArray: "\(JournalSVG.number(share)) \(JournalSVG.number(100 - share))",
                dashOffset: JournalSVG.number(25 - before)
            )
        }
    }
}

/// A month as a grid of days, Monday first (the calendar and the Insights heatmap): 002's accent opacity for 0, 1, 2
/// and 3+ entries as levels 0–3.
struct JournalMonthGrid: Sendable {
    struct Cell: Sendable {
        var date: String
        var day: Int
        var count: Int
        var level: Int
        var isToday: Bool
        var isSelected: Bool
        var isFuture: Bool
        /// "Mon 23 Nov: 2 entries".
        var label: String
        // The SVG heatmap's square.
        var x: String
        var y: String
        /// A square before the 1st or after the last day, to fill the week.
        var isBlank = false
    }

    struct Week: Sendable {
        var cells: [Cell]
    }

    static let cellSize = 40.0, gap = 4.0

    var weeks: [Week]
    var cells: [Cell]
    /// The calendar's column heads: the short name, and the letter shown instead when large text leaves a column too
    /// narrow for it (journal-views.css).
    struct WeekdayName: Sendable {
        var short: String
        var letter: String
    }

    var weekdayNames: [WeekdayName]
    /// The SVG heatmap's weekday letters over its columns.
    var weekdayLabels: [JournalColumns.Label]
    var height: String
    var title: String
    var year: Int
    var month: Int

    static func level(_ count: Int) -> Int { min(count, 3) }

    init(year: Int, month: Int, days: [DailyCount], today: LocalDate, selected: LocalDate?) {
        self.year = year
        self.month = month
        let strings = Strings.current
        title = strings("dates.month\(month)") + " " + String(year)
        weekdayNames = (1...7).map { WeekdayName(short: strings("dates.weekdayShort\($0)"), letter: strings("progress.dayLetter\($0)")) }
        weekdayLabels = weekdayNames.enumerated().map { column, name in
            JournalColumns.Label(x: JournalSVG.number(Double(column) * (Self.cellSize + Self.gap) + 6 + Self.cellSize / 2), text: name.letter)
        }
        let lead = days.first.map { JournalSVG.weekdayIndex($0.date) } ?? 0
        var cells: [Cell] = []
        for (index, day) in days.enumerated() {
            let slot = lead + index
            let column = slot % 7, row = slot / 7
            cells.append(Cell(
                date: day.date.iso, day: day.date.day, count: day.count, level: Self.level(day.count),
                isToday: day.date == today, isSelected: day.date == selected, isFuture: day.date > today,
                label: strings("journalViews.dayCount", count: day.count, ["day": day.date.shortLabel]),
                x: JournalSVG.number(Double(column) * (Self.cellSize + Self.gap) + 6),
                y: JournalSVG.number(Double(row) * (Self.cellSize + Self.gap) + 18)
            ))
        }
        self.cells = cells
        var weeks: [Week] = []
        let blank = Cell(date: "", day: 0, count: 0, level: 0, isToday: false, isSelected: false, isFuture: false, label: "", x: "0", y: "0", isBlank: true)
        var current: [Cell] = Array(repeating: blank, count: lead)
        for cell in cells {
            current.append(cell)
            if current.count == 7 { weeks.append(Week(cells: current)); current = [] }
        }
        if !current.isEmpty { weeks.append(Week(cells: current + Array(repeating: blank, count: 7 - current.count))) }
        self.weeks = weeks
        height = JournalSVG.number(Double(weeks.count) * (Self.cellSize + Self.gap) + 18)
    }
}
