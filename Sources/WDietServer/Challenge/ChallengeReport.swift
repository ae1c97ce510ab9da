import Foundation
import WDietCore

/// The words and number formats of `ChallengeReport` (WDietCore: the numbers and rules) for Progress, the summary
/// PDF and the share image.
extension ChallengeReport {
    func format(_ kg: Double) -> String {
        let strings = Strings.current
        return strings.number(display(kg), fractionDigits: 1) + (unit == .kg ? " kg" : " lb")
    }

    /// "0.5 kg": an amount (a difference) in the challenge's unit, always positive.
    func formatAmount(_ kg: Double) -> String {
        let value = unit == .kg ? abs(kg) : abs(kg) / Units.kilogramsPerPound
        return Strings.current.number(value, fractionDigits: 1) + (unit == .kg ? " kg" : " lb")
    }

    /// "Week 12 of 17" (or the dates before the start).
    var weekLabel: String {
        let strings = Strings.current
        if weeks.isEmpty { return strings("challengeProgress.startsOn", ["date": strings.date(challenge.startDate, .full)]) }
        return strings("challengeProgress.weekOf", ["week": String(currentWeek), "weeks": String(challenge.weeks)])
    }

    var dateRange: String {
        let strings = Strings.current
        return strings("challengeProgress.dateRange", ["first": strings.date(challenge.startDate, .full), "last": strings.date(challenge.lastDate, .full)])
    }

    /// Current vs expected pace in one sentence, with its numbers: "86.0 kg on 12 Oct; the pace expected 86.5 kg
    /// (0.5 kg ahead)". Behind is said plainly, without colour.
    var paceSentence: String? {
        guard let pace else { return nil }
        let strings = Strings.current
        let values = ["current": format(pace.currentKg), "date": strings.date(pace.date, .dayMonth), "expected": format(pace.expectedKg),
                      "amount": formatAmount(pace.aheadKg)]
        if abs(pace.aheadKg) < 0.05 { return strings("challengeProgress.paceOn", values) }
        return strings(pace.aheadKg > 0 ? "challengeProgress.paceAhead" : "challengeProgress.paceBehind", values)
    }

    /// "−0.6 kg a week so far (pace −0.6 kg)".
    var perWeekSentence: String? {
        guard let pace else { return nil }
        let strings = Strings.current
        func signed(_ kg: Double) -> String {
            let value = unit == .kg ? kg : kg / Units.kilogramsPerPound
            let text = strings.number(abs(value), fractionDigits: 1) + (unit == .kg ? " kg" : " lb")
            return (value < -0.05 ? "−" : value > 0.05 ? "+" : "") + text
        }
        return strings("challengeProgress.perWeek", ["actual": signed(pace.actualPerWeekKg), "expected": signed(pace.expectedPerWeekKg)])
    }
}

/// The score's colour (PRODUCT.md: green ≥ 80, yellow 60–79, gray < 60) as 003's colours, and its name for people
/// who do not see colour.
enum ChallengeScoreStyle {
    static func fill(_ colour: ChallengeScoreColour) -> String {
        switch colour {
        case .green: "#34C759"
        case .yellow: "#FFCC00"
        case .gray: "#8E8E93"
        }
    }

    static func name(_ colour: ChallengeScoreColour) -> String {
        switch colour {
        case .green: Strings.current("challengeProgress.scoreGreen")
        case .yellow: Strings.current("challengeProgress.scoreYellow")
        case .gray: Strings.current("challengeProgress.scoreGray")
        }
    }
}

/// The weight chart of the whole challenge: the weekly weights (the weigh-in, else the week's latest logged weight)
/// as a solid line with dots, the goal pace as a dotted line (flat in MATADOR maintenance blocks, drawn from the
/// day-by-day pace so its corners fall on the right days), dashed gridlines, weeks along the bottom. Drawn as SVG
/// elements for a `width` × `height` box; the same code draws the Progress page's chart and the summary's.
/// Colours are presentation attributes; the page's CSS overrides them through the classes (dark mode).
struct ChallengeWeightChart: Sendable {
    var width: Double
    var height: Double
    var left = 40.0, right = 10.0, top = 10.0, bottom = 24.0
    var fontSize = 11.0

    struct Point: Sendable, Equatable {
        var x: Double
        var y: Double
    }

    /// What the chart draws, in chart coordinates (tests read these).
    struct Geometry: Sendable {
        var low: Double
        var high: Double
        var weights: [Point]
        var pace: [Point]
        var gridValues: [Double]
    }

    func geometry(_ report: ChallengeReport) -> Geometry {
        let challenge = report.challenge
        let weighed = report.weeks.compactMap { week in report.weekWeights[week].map { (week, $0) } }
        var pacePoints: [(day: Int, value: Double)] = []
        if let line = report.goalPace {
            // Day by day, keeping only the corners (where the slope changes), so a 17-week line is a few points.
            let all: [(day: Int, value: Double)] = (0...challenge.dayCount).map {
                ($0, report.unscaled(line.expectedKg(on: challenge.startDate.adding(days: $0))))
            }
            for (index, point) in all.enumerated() {
                if index == 0 || index == all.count - 1 { pacePoints.append(point); continue }
                let before = point.value - all[index - 1].value, after = all[index + 1].value - point.value
                if abs(before - after) > 1e-9 { pacePoints.append(point) }
            }
        }
        let values = weighed.map { report.unscaled($0.1.kg) } + pacePoints.map(\.value)
            + [report.unscaled(challenge.goalWeightKg)]
        var low = (values.min() ?? 0).rounded(.down), high = (values.max() ?? 1).rounded(.up)
        if high - low < 4 { let middle = ((low + high) / 2).rounded(); low = middle - 2; high = middle + 2 }
        let step = Self.niceStep((high - low) / 4)
        low = (low / step).rounded(.down) * step
        high = (high / step).rounded(.up) * step
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        func x(day: Int) -> Double { left + plotWidth * Double(day) / Double(challenge.dayCount) }
        func y(_ value: Double) -> Double { top + plotHeight * (high - value) / (high - low) }
        let weights = weighed.map { Point(x: x(day: challenge.startDate.days(until: $0.1.date)), y: y(report.unscaled($0.1.kg))) }
        let pace = pacePoints.map { Point(x: x(day: $0.day), y: y($0.value)) }
        let grid = stride(from: low, through: high + step / 2, by: step).map { $0 }
        return Geometry(low: low, high: high, weights: weights, pace: pace, gridValues: grid)
    }

    /// 1, 2, 2.5, 5 × a power of ten at or above `raw`.
    static func niceStep(_ raw: Double) -> Double {
        guard raw > 0 else { return 1 }
        let power = pow(10, floor(log10(raw)))
        for factor in [1.0, 2.0, 2.5, 5.0, 10.0] where factor * power >= raw - 1e-9 { return factor * power }
        return 10 * power
    }

    /// The chart's elements (no `<svg>` around them).
    func elements(_ report: ChallengeReport, colours: ChartColours = .light) -> String {
        let strings = Strings.current
        let geometry = geometry(report)
        let challenge = report.challenge
        let plotWidth = width - left - right
        func y(_ value: Double) -> Double { top + (height - top - bottom) * (geometry.high - value) / (geometry.high - geometry.low) }
        var svg = ""
        for value in geometry.gridValues {
            let lineY = Self.n(y(value))
            svg += "<line class=\"cchart__grid\" x1=\"\(Self.n(left))\" y1=\"\(lineY)\" x2=\"\(Self.n(width - right))\" y2=\"\(lineY)\" stroke=\"\(colours.grid)\" stroke-width=\"1\" stroke-dasharray=\"3 3\"/>"
            svg += "<text class=\"cchart__label\" x=\"\(Self.n(left - 6))\" y=\"\(Self.n(y(value) + fontSize / 3))\" text-anchor=\"end\" font-family=\"DejaVu Sans, sans-serif\" font-size=\"\(Self.n(fontSize))\" fill=\"\(colours.secondary)\">\(ChallengeSVG.escape(strings.number(value, fractionDigits: value == value.rounded() ? 0 : 1)))</text>"
        }
        // Week numbers at their Mondays: every week up to 9 weeks, else every 4th (1, 5, 9, 13, 17).
        let every = challenge.weeks <= 9 ? 1 : 4
        for week in stride(from: 1, through: challenge.weeks, by: every) {
            let x = left + plotWidth * Double((week - 1) * 7) / Double(challenge.dayCount)
            svg += "<text class=\"cchart__label\" x=\"\(Self.n(x))\" y=\"\(Self.n(height - 6))\" text-anchor=\"middle\" font-family=\"DejaVu Sans, sans-serif\" font-size=\"\(Self.n(fontSize))\" fill=\"\(colours.secondary)\">\(ChallengeSVG.escape(strings("challengeProgress.weekShort", ["week": String(week)])))</text>"
        }
        if !geometry.pace.isEmpty {
            svg += "<path class=\"cchart__pace\" d=\"\(Self.path(geometry.pace))\" fill=\"none\" stroke=\"\(colours.pace)\" stroke-width=\"2\" stroke-dasharray=\"2 5\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>"
        }
        if geometry.weights.count > 1 {
            svg += "<path class=\"cchart__weight\" d=\"\(Self.path(geometry.weights))\" fill=\"none\" stroke=\"\(colours.line)\" stroke-width=\"2\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>"
        }
        for point in geometry.weights {
            svg += "<circle class=\"cchart__dot\" cx=\"\(Self.n(point.x))\" cy=\"\(Self.n(point.y))\" r=\"3.5\" fill=\"\(colours.line)\"/>"
        }
        return svg
    }

    /// The chart in words, for a screen reader (the chart itself is an image).
    func accessibilityLabel(_ report: ChallengeReport) -> String {
        let strings = Strings.current
        var parts = [strings("challengeProgress.chartLabel", count: report.weekWeights.count, ["count": String(report.weekWeights.count),
                                                                                             "weeks": String(report.challenge.weeks)])]
        if let latest = report.latest { parts.append(strings("challengeProgress.chartLatest", ["weight": report.format(latest.kg)])) }
        parts.append(strings("challengeProgress.chartGoal", ["weight": report.format(report.challenge.goalWeightKg)]))
        if let sentence = report.paceSentence { parts.append(sentence) }
        return parts.joined(separator: ". ")
    }

    static func path(_ points: [Point]) -> String {
        points.enumerated().map { "\($0.offset == 0 ? "M" : "L")\(n($0.element.x)) \(n($0.element.y))" }.joined(separator: " ")
    }

    /// Short numbers for SVG attributes: one decimal at most.
    static func n(_ value: Double) -> String {
        let v = (value * 10).rounded() / 10
        return v == v.rounded() ? String(Int(v)) : String(v)
    }
}

struct ChartColours: Sendable {
    var line: String
    var pace: String
    var grid: String
    var secondary: String
    var text: String

    static let light = ChartColours(line: "#007AFF", pace: "#8E8E93", grid: "#E5E5E5", secondary: "#666666", text: "#000000")
}

enum ChallengeSVG {
    /// Text for SVG and XML: every markup character escaped (the copy and the numbers are the server's own, but a
    /// translation may hold an ampersand).
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
