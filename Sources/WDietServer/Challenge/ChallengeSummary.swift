import Foundation
import WDietCore

/// The summary to keep (issue 20 item 5): two A4 pages as SVG that `rsvg-convert` turns into a PDF with real,
/// selectable text, and a 1080 × 1350 share image (PNG) drawn the same way. Page 1: the challenge, its dates and week,
/// start / latest / goal weight, the weight against the goal pace, current vs expected pace, the compliance grid and
/// the positive insights. Page 2: every begun week (score, weight, the pace's weight that Monday, days logged) and the
/// first vs the latest photo. The share image leaves the photos out: body photos are never shared by a button.
/// Every text is escaped; fonts are the generic `sans-serif` (DejaVu Sans on Debian), so German umlauts print.
struct ChallengeSummary: Sendable {
    var report: ChallengeReport
    /// The first and the latest photo's JPEG bytes (the media store's display size), when there are any.
    var firstPhoto: Data?
    var latestPhoto: Data?

    static let pageWidth = 595.0, pageHeight = 842.0
    private static let margin = 40.0

    private var strings: Strings { Strings.current }

    private func text(_ x: Double, _ y: Double, _ value: String, size: Double = 11, weight: Int = 400, fill: String = "#000000",
                      anchor: String = "start") -> String {
        "<text x=\"\(ChallengeWeightChart.n(x))\" y=\"\(ChallengeWeightChart.n(y))\" font-family=\"DejaVu Sans, sans-serif\" font-size=\"\(ChallengeWeightChart.n(size))\" font-weight=\"\(weight)\" fill=\"\(fill)\" text-anchor=\"\(anchor)\">\(ChallengeSVG.escape(value))</text>"
    }

    private func page(_ body: String) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"210mm\" height=\"297mm\" viewBox=\"0 0 595 842\"><rect width=\"595\" height=\"842\" fill=\"#FFFFFF\"/>\(body)</svg>"
    }

    /// Words in lines of at most `width` characters.
    static func wrap(_ text: String, width: Int) -> [String] { JournalShareCard.wrap(text, width: width) }

    // MARK: - Page 1

    var firstPage: String {
        let m = Self.margin, report = report
        var svg = ""
        svg += text(m, 58, strings("challengeProgress.summaryTitle", ["weeks": String(report.challenge.weeks)]), size: 24, weight: 700)
        svg += text(m, 80, report.dateRange + " · " + report.weekLabel, size: 11, fill: "#666666")
        // Start, latest, goal, average score.
        let stats: [(String, String)] = [
            (strings("challengeProgress.statStart"), report.startKg.map(report.format) ?? "–"),
            (strings("challengeProgress.statLatest"), report.latest.map { report.format($0.kg) } ?? "–"),
            (strings("challengeProgress.statGoal"), report.format(report.challenge.goalWeightKg)),
            (strings("challengeProgress.statAverageScore"), report.averageScore.map { strings("challengeProgress.scoreOutOf", ["score": String($0)]) } ?? "–"),
        ]
        let column = (Self.pageWidth - 2 * m) / 4
        for (index, stat) in stats.enumerated() {
            let x = m + column * Double(index)
            svg += "<rect x=\"\(ChallengeWeightChart.n(x))\" y=\"96\" width=\"\(ChallengeWeightChart.n(column - 8))\" height=\"52\" rx=\"10\" fill=\"#F9F9F9\" stroke=\"#E5E5E5\"/>"
            svg += text(x + 10, 115, stat.0, size: 9, fill: "#666666")
            svg += text(x + 10, 138, stat.1, size: 15, weight: 700)
        }
        // Weight against the goal pace.
        svg += text(m, 178, strings("challengeProgress.weightTitle"), size: 14, weight: 700)
        let chart = ChallengeWeightChart(width: Self.pageWidth - 2 * m, height: 190, fontSize: 9)
        svg += "<g transform=\"translate(\(ChallengeWeightChart.n(m)) 188)\">\(chart.elements(report))</g>"
        svg += "<line x1=\"\(m)\" y1=\"392\" x2=\"\(m + 18)\" y2=\"392\" stroke=\"#007AFF\" stroke-width=\"2\"/>"
        svg += text(m + 24, 395, strings("challengeProgress.legendWeight"), size: 9, fill: "#666666")
        svg += "<line x1=\"\(m + 150)\" y1=\"392\" x2=\"\(m + 168)\" y2=\"392\" stroke=\"#8E8E93\" stroke-width=\"2\" stroke-dasharray=\"2 5\" stroke-linecap=\"round\"/>"
        svg += text(m + 174, 395, strings("challengeProgress.legendPace"), size: 9, fill: "#666666")
        var y = 416.0
        if let sentence = report.paceSentence {
            svg += text(m, y, sentence, size: 10)
            y += 15
        }
        if let perWeek = report.perWeekSentence {
            svg += text(m, y, perWeek, size: 10, fill: "#666666")
            y += 15
        }
        // Compliance grid: one cell a week, its score and colour; weeks not begun in outline.
        y += 14
        svg += text(m, y, strings("challengeProgress.complianceTitle"), size: 14, weight: 700)
        y += 10
        let perRow = 9, cell = (Self.pageWidth - 2 * m) / Double(perRow)
        for week in 1...report.challenge.weeks {
            let row = (week - 1) / perRow, col = (week - 1) % perRow
            let x = m + Double(col) * cell, top = y + Double(row) * 46
            if let score = report.scores.first(where: { $0.week == week }) {
                svg += "<rect x=\"\(ChallengeWeightChart.n(x))\" y=\"\(ChallengeWeightChart.n(top))\" width=\"\(ChallengeWeightChart.n(cell - 6))\" height=\"40\" rx=\"8\" fill=\"\(ChallengeScoreStyle.fill(score.colour))\"/>"
                svg += text(x + (cell - 6) / 2, top + 16, strings("challengeProgress.weekShort", ["week": String(week)]), size: 8,
                            fill: score.colour == .yellow ? "#000000" : "#FFFFFF", anchor: "middle")
                svg += text(x + (cell - 6) / 2, top + 32, String(score.score), size: 13, weight: 700, fill: score.colour == .yellow ? "#000000" : "#FFFFFF",
                            anchor: "middle")
            } else {
                svg += "<rect x=\"\(ChallengeWeightChart.n(x))\" y=\"\(ChallengeWeightChart.n(top))\" width=\"\(ChallengeWeightChart.n(cell - 6))\" height=\"40\" rx=\"8\" fill=\"none\" stroke=\"#E5E5E5\"/>"
                svg += text(x + (cell - 6) / 2, top + 16, strings("challengeProgress.weekShort", ["week": String(week)]), size: 8, fill: "#666666", anchor: "middle")
            }
        }
        y += Double((report.challenge.weeks + perRow - 1) / perRow) * 46 + 8
        svg += text(m, y, strings("challengeProgress.complianceKey"), size: 8.5, fill: "#666666")
        // Insights: only good and true statements.
        y += 28
        svg += text(m, y, strings("challengeProgress.insightsTitle"), size: 14, weight: 700)
        y += 20
        if report.insights.isEmpty {
            svg += text(m, y, strings("challengeProgress.insightsEmptySummary"), size: 10.5, fill: "#666666")
        }
        for insight in report.insights where y < Self.pageHeight - 50 {
            for (index, line) in Self.wrap(insight.text, width: 84).enumerated() where y < Self.pageHeight - 50 {
                if index == 0 { svg += "<circle cx=\"\(m + 4)\" cy=\"\(ChallengeWeightChart.n(y - 3.5))\" r=\"2.5\" fill=\"#34C759\"/>" }
                svg += text(m + 14, y, line, size: 10.5)
                y += 15
            }
            y += 2
        }
        svg += footer(1)
        return page(svg)
    }

    private func footer(_ number: Int) -> String {
        text(Self.margin, Self.pageHeight - 22, strings("challengeProgress.summaryFooter", ["date": strings.date(report.today, .full)]), size: 8, fill: "#666666")
            + text(Self.pageWidth - Self.margin, Self.pageHeight - 22, strings("challengeProgress.pageOf", ["page": String(number), "pages": "2"]),
                   size: 8, fill: "#666666", anchor: "end")
    }

    // MARK: - Page 2

    var secondPage: String {
        let m = Self.margin, report = report
        var svg = text(m, 58, strings("challengeProgress.weeksTitle"), size: 18, weight: 700)
        let columns: [(String, Double, String)] = [
            (strings("challengeProgress.columnWeek"), m, "start"),
            (strings("challengeProgress.columnScore"), m + 150, "end"),
            (strings("challengeProgress.columnWeight"), m + 235, "end"),
            (strings("challengeProgress.columnPace"), m + 320, "end"),
            (strings("challengeProgress.columnNutrition"), m + 420, "end"),
            (strings("challengeProgress.columnWorkouts"), Self.pageWidth - m, "end"),
        ]
        for column in columns { svg += text(column.1, 84, column.0, size: 9, weight: 700, fill: "#666666", anchor: column.2) }
        var y = 100.0
        let rowHeight = min(17.0, 290.0 / Double(max(report.challenge.weeks, 1)))
        for week in 1...report.challenge.weeks {
            if week % 2 == 1 {
                svg += "<rect x=\"\(m - 4)\" y=\"\(ChallengeWeightChart.n(y - rowHeight + 4))\" width=\"\(Self.pageWidth - 2 * m + 8)\" height=\"\(ChallengeWeightChart.n(rowHeight))\" fill=\"#F9F9F9\"/>"
            }
            let monday = report.challenge.monday(ofWeek: week)
            svg += text(m, y, strings("challengeProgress.weekRow", ["week": String(week), "date": strings.date(monday, .dayMonth)]), size: 9)
            if let score = report.scores.first(where: { $0.week == week }) {
                svg += "<circle cx=\"\(m + 122)\" cy=\"\(ChallengeWeightChart.n(y - 3))\" r=\"3.5\" fill=\"\(ChallengeScoreStyle.fill(score.colour))\"/>"
                svg += text(m + 150, y, String(score.score), size: 9, anchor: "end")
                svg += text(m + 420, y, strings("challengeProgress.ofSeven", ["count": String(score.nutritionDays)]), size: 9, anchor: "end")
                svg += text(Self.pageWidth - m, y, strings("challengeProgress.ofSeven", ["count": String(score.workoutDays)]), size: 9, anchor: "end")
            } else {
                svg += text(m + 150, y, "–", size: 9, fill: "#666666", anchor: "end")
            }
            svg += text(m + 235, y, report.weekWeights[week].map { report.format($0.kg) } ?? "–", size: 9, anchor: "end")
            svg += text(m + 320, y, report.goalPace.map { report.format($0.expectedKg(on: monday)) } ?? "–", size: 9, fill: "#666666", anchor: "end")
            y += rowHeight
        }
        // First vs latest photo, side by side.
        y += 26
        svg += text(m, y, strings("challengeProgress.photosTitle"), size: 14, weight: 700)
        y += 12
        let boxWidth = (Self.pageWidth - 2 * m - 16) / 2, boxHeight = min(Self.pageHeight - 60 - y - 20, boxWidth * 4 / 3)
        let photos: [(ChallengePhoto?, Data?)] = [(report.firstPhoto, firstPhoto), (report.latestPhoto, latestPhoto)]
        if report.firstPhoto == nil {
            svg += text(m, y + 20, strings("challengeProgress.noPhotosSummary"), size: 10.5, fill: "#666666")
        } else {
            for (index, (photo, bytes)) in photos.enumerated() {
                let x = m + Double(index) * (boxWidth + 16)
                guard let photo else { continue }
                svg += "<rect x=\"\(ChallengeWeightChart.n(x))\" y=\"\(ChallengeWeightChart.n(y))\" width=\"\(ChallengeWeightChart.n(boxWidth))\" height=\"\(ChallengeWeightChart.n(boxHeight))\" rx=\"12\" fill=\"#F9F9F9\" stroke=\"#E5E5E5\"/>"
                if let bytes {
                    svg += "<image x=\"\(ChallengeWeightChart.n(x))\" y=\"\(ChallengeWeightChart.n(y))\" width=\"\(ChallengeWeightChart.n(boxWidth))\" height=\"\(ChallengeWeightChart.n(boxHeight))\" preserveAspectRatio=\"xMidYMid meet\" xlink:href=\"data:image/jpeg;base64,\(bytes.base64EncodedString())\"/>"
                }
                svg += text(x, y + boxHeight + 16, strings("challengeProgress.photoCaption", ["week": String(photo.week), "date": strings.date(photo.takenOn, .full)]),
                            size: 10, weight: 700)
            }
        }
        svg += footer(2)
        return page(svg)
    }

    // MARK: - Share image

    /// 1080 × 1350 (4:5, what photo apps take): the challenge's week, weight moved, average score, the chart and up to
    /// three insights. No photos.
    var shareImage: String {
        let report = report
        var svg = "<rect width=\"360\" height=\"450\" fill=\"#FFFFFF\"/><rect x=\"16\" y=\"16\" width=\"328\" height=\"418\" rx=\"16\" fill=\"#F9F9F9\" stroke=\"#E5E5E5\"/>"
        svg += text(32, 52, strings("challengeProgress.summaryTitle", ["weeks": String(report.challenge.weeks)]), size: 18, weight: 700)
        svg += text(32, 72, report.weekLabel, size: 11, fill: "#666666")
        var stats: [(String, String)] = []
        if let start = report.startKg, let latest = report.latest {
            let moved = start - latest.kg
            let towards = report.challenge.goalWeightKg < start ? moved : -moved
            if towards >= 0.1 { stats.append((strings("challengeProgress.statMoved"), report.formatAmount(towards))) }
        }
        if let average = report.averageScore { stats.append((strings("challengeProgress.statAverageScore"), strings("challengeProgress.scoreOutOf", ["score": String(average)]))) }
        stats.append((strings("challengeProgress.statGoal"), report.format(report.challenge.goalWeightKg)))
        for (index, stat) in stats.prefix(3).enumerated() {
            let x = 32.0 + Double(index) * 100
            svg += text(x, 100, stat.0, size: 8.5, fill: "#666666")
            svg += text(x, 120, stat.1, size: 15, weight: 700)
        }
        let chart = ChallengeWeightChart(width: 296, height: 150, left: 30, right: 6, top: 8, bottom: 20, fontSize: 8)
        svg += "<g transform=\"translate(32 136)\">\(chart.elements(report))</g>"
        var y = 312.0
        for insight in report.insights.prefix(3) {
            for (index, line) in Self.wrap(insight.text, width: 46).prefix(2).enumerated() {
                if index == 0 { svg += "<circle cx=\"36\" cy=\"\(ChallengeWeightChart.n(y - 3.5))\" r=\"2.5\" fill=\"#34C759\"/>" }
                svg += text(46, y, line, size: 10.5)
                y += 14
            }
            y += 4
        }
        svg += text(328, 420, "w-diet", size: 10, weight: 700, fill: "#007AFF", anchor: "end")
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1080\" height=\"1350\" viewBox=\"0 0 360 450\">\(svg)</svg>"
    }
}

/// Turns the summary's SVG into a PDF or a PNG with librsvg's `rsvg-convert` (Debian `librsvg2-bin`), run as a child
/// process like the media store's vips tools: the server links no drawing library, so a machine without the tool
/// builds and runs, and the summary answers 503 there. Why rsvg-convert: the PDF it writes (through cairo) keeps the
/// text as text (selectable, searchable, read by `pdftotext`), embeds the fonts and writes each page at A4; one tool
/// draws both the PDF and the PNG from the same SVG, so they look the same. vips' own SVG loader is librsvg too, but
/// vips writes no PDF.
enum ChallengeSummaryRenderer {
    enum Format: String, Sendable { case pdf, png }

    static let timeLimit: Duration = .seconds(20)

    /// The tool's path, or nil when it is missing. `WDIET_RSVG_CONVERT` overrides it (tests point it at a missing path).
    static var tool: String? {
        if let path = ProcessInfo.processInfo.environment["WDIET_RSVG_CONVERT"] {
            return FileManager.default.isExecutableFile(atPath: path) ? path : nil
        }
        return ToolProcess.find("rsvg-convert")
    }

    enum Failure: Error { case toolMissing, failed }

    /// The longer side of a photo in the PDF: its frame is 3.5 × 4.6 in, so 1,000 px is about 290 dpi across a
    /// landscape photo and 220 dpi down a portrait one.
    static let printPixels = 1_000

    /// A JPEG scaled down to `printPixels` on its longer side by `vipsthumbnail` (a photo already that small, or a
    /// machine without the tool, or a failed run: the bytes as they are). Why: cairo, under rsvg-convert, re-encodes
    /// an embedded photo's pixels instead of passing the JPEG through, so its time and the PDF's size grow with the
    /// pixels — 1,600 px photos took 0.8–1.0 s of rsvg-convert's time and made a 950 KiB PDF (docs/benchmarks.md).
    static func printSize(_ jpeg: Data?, tool: String? = ToolProcess.find("vipsthumbnail")) async -> Data? {
        guard let jpeg else { return nil }
        guard let tool else { return jpeg }
        let scaled = await ToolProcess.convert(tool: tool, inputs: [(name: "photo.jpg", data: jpeg)], output: "print.jpg", timeLimit: timeLimit) { folder in
            [folder.appendingPathComponent("photo.jpg").path, "--size", "\(printPixels)x\(printPixels)>",
             "-o", folder.appendingPathComponent("print.jpg").path + "[Q=85,strip]"]
        }
        return scaled ?? jpeg
    }

    /// The pages (SVG documents) as one PDF, or the first as a PNG at its own width and height.
    static func render(_ pages: [String], as format: Format, tool: String? = Self.tool) async throws(Failure) -> Data {
        guard let tool, FileManager.default.isExecutableFile(atPath: tool) else { throw .toolMissing }
        let inputs = (format == .png ? Array(pages.prefix(1)) : pages).enumerated().map { (name: "page\($0.offset).svg", data: Data($0.element.utf8)) }
        let output = "summary.\(format.rawValue)"
        let data = await ToolProcess.convert(tool: tool, inputs: inputs, output: output, timeLimit: timeLimit) { folder in
            ["--format", format.rawValue, "--output", folder.appendingPathComponent(output).path]
                + inputs.map { folder.appendingPathComponent($0.name).path }
        }
        guard let data else { throw .failed }
        return data
    }
}
