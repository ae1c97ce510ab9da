import Foundation
import WDietCore

/// What the Progress tab shows: the weight entries with their rolling average and trend, and the last 14 days of
/// calories against their targets, each as a server-drawn SVG chart with a table that says the same in text.
struct ProgressView: Sendable {
    var chrome: PageChrome
    var unit: String
    var weight: WeightChart
    var calories: CalorieChart
}

/// The weight chart: one dot per weighed day, the rolling average as a line, in a fixed 320 × 160 viewBox.
struct WeightChart: Sendable {
    static let width = 320.0
    static let height = 160.0
    /// Room for the axis labels on the left, and for the dots at the edges.
    static let left = 36.0, right = 8.0, top = 10.0, bottom = 22.0
    /// The chart shows the latest weighed days; the table lists the same ones.
    static let maxDays = 30

    struct Point: Sendable {
        var x: String
        var y: String
    }

    struct Row: Sendable {
        var date: String
        var weight: String
        var average: String
        var trend: String?
        var trendLabel: String?
        /// The day's dashboard, where its weights are edited and deleted; nil for a day more than a year back.
        var dayPath: String?
        var dayLinkLabel: String
    }

    struct Label: Sendable {
        var y: String
        var text: String
    }

    var hasEntries: Bool
    var dots: [Point]
    /// The rolling average as an SVG path ("M x y L x y ...").
    var averagePath: String
    var axisLabels: [Label]
    var firstDate: String
    var lastDate: String
    /// Newest first.
    var rows: [Row]
    var latest: String?
    var latestAverage: String?
    var trend: String?
    var trendLabel: String?
    /// Before the 7th weighed day: how many more are needed for the trend.
    var trendHint: String?
    var accessibilityLabel: String

    init(days allDays: [WeightDay], unit: WeightUnit, today: LocalDate) {
        let strings = Strings.current
        let days = Array(allDays.suffix(Self.maxDays))
        hasEntries = !days.isEmpty
        func display(_ kg: Double) -> Double { unit == .kg ? Units.tenth(kg) : Units.pounds(fromKilograms: kg) }
        let values = days.flatMap { [display($0.kg), display($0.average)] }
        // A range of at least 2 units so that a flat line sits in the middle rather than on an edge.
        var low = (values.min() ?? 0).rounded(.down), high = (values.max() ?? 1).rounded(.up)
        if high - low < 2 { let middle = (low + high) / 2; low = (middle - 1).rounded(.down); high = low + 2 }
        let plotWidth = Self.width - Self.left - Self.right
        let plotHeight = Self.height - Self.top - Self.bottom
        func x(_ index: Int) -> Double {
            days.count == 1 ? Self.left + plotWidth / 2 : Self.left + plotWidth * Double(index) / Double(days.count - 1)
        }
        func y(_ value: Double) -> Double { Self.top + plotHeight * (high - value) / (high - low) }
        dots = days.enumerated().map { Point(x: Self.number(x($0.offset)), y: Self.number(y(display($0.element.kg)))) }
        averagePath = days.enumerated().map { index, day in
            "\(index == 0 ? "M" : "L")\(Self.number(x(index))) \(Self.number(y(display(day.average))))"
        }.joined(separator: " ")
        axisLabels = hasEntries ? [
            Label(y: Self.number(y(high) + 4), text: Self.number(high)),
            Label(y: Self.number(y(low) + 4), text: Self.number(low)),
        ] : []
        firstDate = days.first?.date.shortLabel ?? ""
        lastDate = days.last?.date.shortLabel ?? ""
        rows = days.reversed().map { day in
            Row(
                date: day.date.shortLabel, weight: Units.format(kg: day.kg, in: unit), average: Units.format(kg: day.average, in: unit),
                trend: day.trend?.rawValue, trendLabel: day.trend.map(Self.name(of:)),
                dayPath: day.date >= PageDay.first(today: today) && day.date <= today
                    ? "/dashboard" + PageDay(date: day.date, today: today).query : nil,
                dayLinkLabel: strings("progress.weightDayLink", ["day": day.date.shortLabel])
            )
        }
        let last = days.last
        latest = last.map { Units.format(kg: $0.kg, in: unit) }
        latestAverage = last.map { Units.format(kg: $0.average, in: unit) }
        trend = last?.trend?.rawValue
        trendLabel = last?.trend.map(Self.name(of:))
        let weighed = allDays.count
        trendHint = hasEntries && last?.trend == nil
            ? strings("progress.trendHint", ["count": strings.number(weighed)])
            : nil
        if let last, let latest, let latestAverage {
            let span = strings("progress.weightChartSpan", count: days.count, ["first": firstDate, "last": lastDate])
            var arguments = ["latest": latest, "average": latestAverage]
            arguments["trend"] = last.trend.map(Self.nameInSentence(of:))
            let summary = strings(last.trend == nil ? "progress.weightChartLatest" : "progress.weightChartLatestTrend", arguments)
            accessibilityLabel = span + " " + summary
        } else {
            accessibilityLabel = strings("progress.noWeights")
        }
    }

    /// "Trending down", "Stable", "Trending up": a trend as a label of its own.
    static func name(of trend: WeightDay.Trend) -> String {
        switch trend {
        case .down: Strings.current("weights.trendDown")
        case .stable: Strings.current("weights.trendStable")
        case .up: Strings.current("weights.trendUp")
        }
    }

    /// "trending down": the same inside a sentence.
    static func nameInSentence(of trend: WeightDay.Trend) -> String {
        switch trend {
        case .down: Strings.current("weights.trendDownInSentence")
        case .stable: Strings.current("weights.trendStableInSentence")
        case .up: Strings.current("weights.trendUpInSentence")
        }
    }

    /// Short numbers for SVG attributes: one decimal at most.
    static func number(_ value: Double) -> String {
        let v = (value * 10).rounded() / 10
        return v == v.rounded() ? String(Int(v)) : String(v)
    }
}

/// The last 14 days of calories as bars, each day's target as a short line across its bar.
struct CalorieChart: Sendable {
    static let width = 320.0
    static let height = 160.0
    static let left = 8.0, right = 8.0, top = 10.0, bottom = 22.0
    static let days = 14

    struct Day: Sendable {
        var date: LocalDate
        var kcal: Double
        var targetKcal: Int
    }

    struct Bar: Sendable {
        var x: String
        var y: String
        var width: String
        var height: String
        var targetX1: String
        var targetX2: String
        var targetY: String
        var isOver: Bool
        var dayLetter: String
        var labelX: String
    }

    struct Row: Sendable {
        var date: String
        var eaten: String
        var target: String
        var difference: String
    }

    var hasMeals: Bool
    var bars: [Bar]
    /// Newest first.
    var rows: [Row]
    var averageEaten: String
    var daysLogged: Int
    /// "3 of 14 days logged · average 1,250 cal"; "1 of 1 day logged" on a new account's first day.
    var summary: String
    /// "Calories · last 14 days": as many days as the chart shows (fewer before the account is two weeks old).
    var title: String
    var accessibilityLabel: String

    init(days: [Day]) {
        let strings = Strings.current
        hasMeals = days.contains { $0.kcal > 0 }
        let scale = max(1, (days.map { max($0.kcal, Double($0.targetKcal)) }.max() ?? 1) * 1.1)
        let plotWidth = Self.width - Self.left - Self.right
        let plotHeight = Self.height - Self.top - Self.bottom
        let slot = plotWidth / Double(max(days.count, 1))
        let barWidth = slot * 0.6
        // Monday first, as `LocalDate.weekdayIndex` counts.
        let letters = (1...7).map { strings("progress.dayLetter\($0)") }
        bars = days.enumerated().map { index, day in
            let x = Self.left + slot * Double(index) + (slot - barWidth) / 2
            let barHeight = plotHeight * day.kcal / scale
            let targetY = Self.top + plotHeight * (1 - Double(day.targetKcal) / scale)
            return Bar(
                x: WeightChart.number(x), y: WeightChart.number(Self.top + plotHeight - barHeight),
                width: WeightChart.number(barWidth), height: WeightChart.number(barHeight),
                targetX1: WeightChart.number(x - 2), targetX2: WeightChart.number(x + barWidth + 2), targetY: WeightChart.number(targetY),
                isOver: day.kcal > Double(day.targetKcal) + 0.5,
                dayLetter: letters[((day.date.daysSinceEpoch + 3) % 7 + 7) % 7],
                labelX: WeightChart.number(x + barWidth / 2)
            )
        }
        rows = days.reversed().map { day in
            let difference = Int(day.kcal.rounded()) - day.targetKcal
            return Row(
                date: day.date.shortLabel, eaten: strings("progress.kcal", ["kcal": strings.number(day.kcal)]),
                target: strings("progress.kcal", ["kcal": strings.number(day.targetKcal)]),
                difference: day.kcal == 0 ? strings("progress.nothingLogged") : difference > 0
                    ? strings("progress.over", ["kcal": strings.number(difference)])
                    : difference < 0 ? strings("progress.under", ["kcal": strings.number(-difference)]) : strings("progress.onTarget")
            )
        }
        let logged = days.filter { $0.kcal > 0 }
        daysLogged = logged.count
        averageEaten = logged.isEmpty ? "0" : strings.number(logged.map(\.kcal).reduce(0, +) / Double(logged.count))
        summary = strings("progress.caloriesSummary", count: days.count, [
            "logged": strings.number(daysLogged), "average": averageEaten,
        ])
        title = strings("progress.caloriesTitle", count: days.count)
        accessibilityLabel = strings("progress.caloriesChart", count: daysLogged, [
            "days": strings.number(days.count), "average": averageEaten,
        ])
    }
}
