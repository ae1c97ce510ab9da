import Foundation
import Hummingbird
import NIOCore
import WDietCore
import WDietStore

/// The Challenge's Progress screen (003 "Progress Screen": Charts | Photos | Insights), the full-screen photo view,
/// Photo Comparison and the summary downloads, on C2's frame (`ChallengeFrame`, `challenge-*.mustache`). Each tab is
/// its own server-rendered page (`?tab=`), so the segmented control is three links and works without script;
/// `challenge-progress.js` adds arrow keys and swipe to the photo view and drags the comparison's slider.
struct ChallengeProgressPages: Sendable {
    let services: AppServices

    var service: ChallengeService { ChallengeService(services: services) }

    func register(on group: RouterGroup<WebUserContext>) {
        group.get("/challenge/progress") { request, context in try await progress(request, context) }
        group.get("/challenge/progress/photos/{week}") { request, context in try await photo(request, context) }
        group.get("/challenge/progress/compare") { request, context in try await compare(request, context) }
        group.get("/challenge/summary.pdf") { _, context in
            try await service.summaryResponse(userId: context.userId, dataVersion: context.userDataVersion, format: .pdf)
        }
        group.get("/challenge/summary.png") { _, context in
            try await service.summaryResponse(userId: context.userId, dataVersion: context.userDataVersion, format: .png)
        }
        registerDemo(on: group)
    }

    enum Tab: String, Sendable { case charts, photos, insights }

    struct TabLink: Sendable {
        var href: String
        var label: String
        var current: Bool
        var id: String
    }

    struct ProgressPage: Sendable {
        var chrome: PageChrome
        var frame: ChallengeFrame
        var title: String
        var tabs: [TabLink]
        var showTabs = true
        var empty: ChallengeEmpty?
        var charts: Charts?
        var photos: Photos?
        var insights: Insights?
        var weekLabel: String?
    }

    struct Charts: Sendable {
        var chartSVG: String
        var chartLabel: String
        var paceSentence: String?
        var perWeekSentence: String?
        var weightRows: [WeightRow]
        var hasWeights: Bool
        var macroRows: [MacroRow]
        var hasMacros: Bool
        var grid: [GridCell]
    }

    struct WeightRow: Sendable {
        var week: String
        var weight: String
        var pace: String
    }

    struct MacroRow: Sendable {
        var week: String
        var days: String
        var kcal: String
        var protein: String
        var carbs: String
        var fat: String
        /// The kcal bar's width, percent of the highest week.
        var barPercent: Int
    }

    struct GridCell: Sendable {
        var week: Int
        var score: String?
        var colour: String
        var label: String
    }

    struct Photos: Sendable {
        var items: [PhotoItem]
        var compareHref: String?
    }

    struct PhotoItem: Sendable {
        var week: Int
        var href: String
        var src: String
        var alt: String
        var weekLabel: String
        var late: Bool
    }

    struct Insights: Sendable {
        var items: [String]
    }

    func frame(_ context: WebUserContext) async throws -> ChallengeFrame {
        try await ChallengeFrame.load(services, userId: context.userId, tab: .progress)
    }

    func tabs(_ current: Tab) -> [TabLink] {
        let strings = Strings.current
        return [
            TabLink(href: "/challenge/progress", label: strings("challengeProgress.tabCharts"), current: current == .charts, id: "ch-progress-tab-charts"),
            TabLink(href: "/challenge/progress?tab=photos", label: strings("challengeProgress.tabPhotos"), current: current == .photos, id: "ch-progress-tab-photos"),
            TabLink(href: "/challenge/progress?tab=insights", label: strings("challengeProgress.tabInsights"), current: current == .insights, id: "ch-progress-tab-insights"),
        ]
    }

    /// The report, or nil without a challenge (the page then shows 003's empty state).
    func report(_ context: WebUserContext) async throws -> ChallengeReport? {
        let snapshot = try await service.snapshot(userId: context.userId, dataVersion: context.userDataVersion)
        guard snapshot.current != nil else { return nil }
        return try ChallengeService.report(snapshot, now: services.now())
    }

    func progress(_ request: Request, _ context: WebUserContext) async throws -> Response {
        let strings = Strings.current
        let tab = Tab(rawValue: request.uri.queryParameters.get("tab") ?? "charts") ?? .charts
        var page = ProgressPage(chrome: PageChrome(context: context), frame: try await frame(context), title: strings("challengeProgress.title"),
                                tabs: tabs(tab))
        guard let report = try await report(context) else {
            page.showTabs = false
            page.empty = ChallengeEmpty(icon: "bar-chart", prompt: strings("challengeProgress.emptyNoChallenge"), actionHref: "/challenge/start",
                                        actionLabel: strings("challengeProgress.startChallenge"))
            return try WebTemplates.page("challenge-progress", page)
        }
        page.weekLabel = report.weekLabel
        switch tab {
        case .charts:
            if report.weeks.isEmpty {
                page.empty = ChallengeEmpty(icon: "bar-chart", prompt: strings("challengeProgress.emptyNotStarted", ["date": strings.date(report.challenge.startDate, .full)]))
            } else {
                page.charts = charts(report)
            }
        case .photos:
            let items = report.photos.map { photo in
                PhotoItem(week: photo.week, href: "/challenge/progress/photos/\(photo.week)", src: "/api/v1/media/\(photo.mediaId.uuidString.lowercased())?size=thumb",
                          alt: strings("challengeProgress.photoAlt", ["week": String(photo.week)]),
                          weekLabel: strings("challengeProgress.weekShort", ["week": String(photo.week)]), late: photo.isLate(in: report.challenge))
            }
            if items.isEmpty {
                page.empty = ChallengeEmpty(icon: "camera", prompt: strings("challengeProgress.emptyPhotos"), actionHref: "/challenge/check-in",
                                            actionLabel: strings("challengeProgress.addPhoto"))
            } else {
                let first = items.first!.week, last = items.last!.week
                page.photos = Photos(items: items, compareHref: items.count > 1 ? "/challenge/progress/compare?before=\(first)&after=\(last)" : nil)
            }
        case .insights:
            if report.insights.isEmpty {
                page.empty = ChallengeEmpty(icon: "trending-up", prompt: strings("challengeProgress.emptyInsights"), actionHref: "/challenge/log",
                                            actionLabel: strings("challengeProgress.logToday"))
            } else {
                page.insights = Insights(items: report.insights.map(\.text))
            }
        }
        return try WebTemplates.page("challenge-progress", page)
    }

    func charts(_ report: ChallengeReport) -> Charts {
        let strings = Strings.current
        let chart = ChallengeWeightChart(width: 340, height: 200, left: 38, right: 8, top: 10, bottom: 24, fontSize: 11)
        let maxKcal = report.macros.compactMap(\.kcal).max() ?? 0
        func grams(_ value: Double?) -> String { value.map { strings("challengeProgress.grams", ["grams": strings.number($0)]) } ?? "–" }
        let challenge = report.challenge
        return Charts(
            chartSVG: chart.elements(report), chartLabel: chart.accessibilityLabel(report),
            paceSentence: report.paceSentence, perWeekSentence: report.perWeekSentence,
            weightRows: report.weeks.reversed().map { week in
                WeightRow(week: strings("challengeProgress.weekRow", ["week": String(week), "date": strings.date(challenge.monday(ofWeek: week), .dayMonth)]),
                          weight: report.weekWeights[week].map { report.format($0.kg) } ?? "–",
                          pace: report.goalPace.map { report.format($0.expectedKg(on: challenge.monday(ofWeek: week))) } ?? "–")
            },
            hasWeights: !report.weekWeights.isEmpty,
            macroRows: report.macros.reversed().map { average in
                MacroRow(week: strings("challengeProgress.weekShort", ["week": String(average.week)]),
                         days: strings("challengeProgress.ofSeven", ["count": String(average.days)]),
                         kcal: average.kcal.map { strings.number($0) } ?? "–", protein: grams(average.protein), carbs: grams(average.carbs), fat: grams(average.fat),
                         barPercent: maxKcal > 0 ? Int(((average.kcal ?? 0) / maxKcal * 100).rounded()) : 0)
            },
            hasMacros: report.macros.contains { $0.days > 0 },
            grid: (1...challenge.weeks).map { week in
                if let score = report.scores.first(where: { $0.week == week }) {
                    let colour = ChallengeScoreStyle.name(score.colour)
                    return GridCell(week: week, score: String(score.score), colour: score.colour.rawValue,
                                    label: strings("challengeProgress.gridCell", ["week": String(week), "score": String(score.score), "colour": colour]))
                }
                return GridCell(week: week, score: nil, colour: "future", label: strings("challengeProgress.gridCellFuture", ["week": String(week)]))
            })
    }

    // MARK: - Full-screen photo

    struct PhotoPage: Sendable {
        var chrome: PageChrome
        var frame: ChallengeFrame
        var title: String
        var src: String
        var alt: String
        var caption: String
        var late: Bool
        var previousHref: String?
        var nextHref: String?
        var position: String
    }

    static func week(_ context: WebUserContext) throws -> Int {
        guard let text = context.parameters.get("week"), let week = Int(text), Challenge.weeksRange.contains(week) else {
            throw APIError.badRequest(Strings.current("challenge.weekRange", ["max": String(Challenge.weeksRange.upperBound)]))
        }
        return week
    }

    func photo(_ request: Request, _ context: WebUserContext) async throws -> Response {
        let strings = Strings.current
        let week = try Self.week(context)
        guard let report = try await report(context) else { throw ChallengeService.noChallenge }
        guard let index = report.photos.firstIndex(where: { $0.week == week }) else {
            throw StoreError.notFound(strings("challengeProgress.photoNotFound"))
        }
        let photo = report.photos[index]
        let page = PhotoPage(
            chrome: PageChrome(context: context), frame: try await frame(context),
            title: strings("challengeProgress.photoTitle", ["week": String(week)]),
            src: "/api/v1/media/\(photo.mediaId.uuidString.lowercased())", alt: strings("challengeProgress.photoAlt", ["week": String(week)]),
            caption: strings("challengeProgress.photoCaption", ["week": String(week), "date": strings.date(photo.takenOn, .full)]),
            late: photo.isLate(in: report.challenge),
            previousHref: index > 0 ? "/challenge/progress/photos/\(report.photos[index - 1].week)" : nil,
            nextHref: index + 1 < report.photos.count ? "/challenge/progress/photos/\(report.photos[index + 1].week)" : nil,
            position: strings("challengeProgress.photoPosition", ["index": String(index + 1), "count": String(report.photos.count)]))
        return try WebTemplates.page("challenge-photo", page)
    }

    // MARK: - Photo Comparison

    struct ComparePage: Sendable {
        var chrome: PageChrome
        var frame: ChallengeFrame
        var title: String
        var before: [WeekOption]
        var after: [WeekOption]
        var beforeSrc: String
        var afterSrc: String
        var beforeAlt: String
        var afterAlt: String
        var beforeWeek: Int
        var afterWeek: Int
        var slider: Bool
        var sideHref: String
        var sliderHref: String
        var empty: ChallengeEmpty?
    }

    struct WeekOption: Sendable {
        var week: Int
        var label: String
        var selected: Bool
    }

    /// Two weeks' photos side by side (`view=side`) or one over the other with a slider (`view=slider`); the week
    /// pickers are a GET form, so the page works without script.
    func compare(_ request: Request, _ context: WebUserContext) async throws -> Response {
        let strings = Strings.current
        guard let report = try await report(context) else { throw ChallengeService.noChallenge }
        let query = request.uri.queryParameters
        let weeks = report.photos.map(\.week)
        let frame = try await frame(context)
        guard weeks.count >= 2 else {
            return try WebTemplates.page("challenge-compare", ComparePage(
                chrome: PageChrome(context: context), frame: frame, title: strings("challengeProgress.compareTitle"), before: [], after: [],
                beforeSrc: "", afterSrc: "", beforeAlt: "", afterAlt: "", beforeWeek: 0, afterWeek: 0, slider: false, sideHref: "", sliderHref: "",
                empty: ChallengeEmpty(icon: "columns", prompt: strings("challengeProgress.compareNeedsTwo"), actionHref: "/challenge/check-in",
                                      actionLabel: strings("challengeProgress.addPhoto"))))
        }
        func pick(_ name: String, _ fallback: Int) -> Int {
            query.get(name).flatMap(Int.init).flatMap { weeks.contains($0) ? $0 : nil } ?? fallback
        }
        let before = pick("before", weeks.first!), after = pick("after", weeks.last!)
        let slider = query.get("view") == "slider"
        func media(_ week: Int) -> String {
            "/api/v1/media/\(report.photos.first { $0.week == week }!.mediaId.uuidString.lowercased())"
        }
        func options(_ selected: Int) -> [WeekOption] {
            weeks.map { WeekOption(week: $0, label: strings("challengeProgress.weekOption", ["week": String($0)]), selected: $0 == selected) }
        }
        let base = "/challenge/progress/compare?before=\(before)&after=\(after)"
        return try WebTemplates.page("challenge-compare", ComparePage(
            chrome: PageChrome(context: context), frame: frame, title: strings("challengeProgress.compareTitle"),
            before: options(before), after: options(after), beforeSrc: media(before), afterSrc: media(after),
            beforeAlt: strings("challengeProgress.photoAlt", ["week": String(before)]), afterAlt: strings("challengeProgress.photoAlt", ["week": String(after)]),
            beforeWeek: before, afterWeek: after, slider: slider, sideHref: base + "&view=side", sliderHref: base + "&view=slider", empty: nil))
    }
}
