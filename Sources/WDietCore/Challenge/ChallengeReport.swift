import Foundation

/// Everything the Progress screen, the summary PDF and the share image show, worked out once from `ChallengeData`
/// (pure: "today" and the MATADOR cycle are passed in, so tests give worked numbers). The server adds only the
/// words and number formats (`ChallengeReport+Text` in WDietServer).
public struct ChallengeReport: Sendable {
    public var challenge: Challenge
    public var today: LocalDate
    /// The weeks that have begun (1 through the current one); none before the start.
    public var weeks: [Int]
    public var scores: [ChallengeWeekScore]
    /// Each begun week's weight as the chart draws it (`WeekWeight`); weeks without a weight absent.
    public var weekWeights: [Int: WeekWeight]
    public var goalPace: ChallengeGoalPace?
    public var pace: ChallengePace?
    public var startKg: Double?
    public var latest: (kg: Double, date: LocalDate)?
    public var streaks: [ChallengeStreak]
    public var macros: [ChallengeMacroAverage]
    public var insights: [ChallengeInsight]
    /// The challenge's photos of the begun weeks, by week.
    public var photos: [ChallengePhoto]

    /// A week's weight (the weigh-in, else the week's latest weight in the weight log) on the day it is drawn.
    public struct WeekWeight: Hashable, Sendable {
        public var kg: Double
        /// Within the week (Monday–Sunday): a weigh-in logged after its week (late) is drawn on the week's Sunday,
        /// not in the week it was logged in.
        public var date: LocalDate
        public var fromWeighIn: Bool

        public init(kg: Double, date: LocalDate, fromWeighIn: Bool) {
            self.kg = kg
            self.date = date
            self.fromWeighIn = fromWeighIn
        }
    }

    public init(data: ChallengeData, today: LocalDate, matador: MatadorCycle?) {
        let challenge = data.challenge
        self.challenge = challenge
        self.today = today
        weeks = today >= challenge.startDate ? Array(1...challenge.currentWeek(today: today)) : []
        scores = weeks.map { data.score(week: $0, today: today) }
        var weights: [Int: WeekWeight] = [:]
        for week in weeks {
            if let weight = data.weekWeight(week), weight.date <= today {
                let monday = challenge.monday(ofWeek: week)
                let date = min(max(weight.date, monday), monday.adding(days: 6))
                weights[week] = WeekWeight(kg: weight.kg, date: date, fromWeighIn: weight.fromWeighIn)
            }
        }
        weekWeights = weights
        goalPace = data.goalPace(matador: matador)
        pace = data.pace(today: today, matador: matador)
        startKg = data.startKg
        latest = data.latestWeight(today: today)
        streaks = data.streaks(today: today)
        macros = weeks.map { data.macroAverage(week: $0, today: today) }
        insights = ChallengeInsights.of(data, today: today, matador: matador)
        let lastWeek = weeks.last ?? 0
        photos = data.photos.values.filter { $0.week <= lastWeek }.sorted { $0.week < $1.week }
    }

    public var unit: WeightUnit { challenge.weightUnit }
    public var currentWeek: Int { weeks.last ?? 0 }
    public var firstPhoto: ChallengePhoto? { photos.first }
    /// The latest photo when it is another week's than the first.
    public var latestPhoto: ChallengePhoto? { photos.count > 1 ? photos.last : nil }

    /// A weight in the challenge's unit, rounded as shown (kg to 0.1; lb as `Units.pounds`).
    public func display(_ kg: Double) -> Double { unit == .kg ? Units.tenth(kg) : Units.pounds(fromKilograms: kg) }

    /// The same without rounding (for drawing).
    public func unscaled(_ kg: Double) -> Double { unit == .kg ? kg : kg / Units.kilogramsPerPound }

    /// The mean score of the finished weeks, rounded half up (nil before one has finished): the running week does
    /// not pull the average down while it is still open.
    public var averageScore: Int? {
        let finished = scores.filter(\.isComplete)
        guard !finished.isEmpty else { return nil }
        return Int((Double(finished.map(\.score).reduce(0, +)) / Double(finished.count)).rounded())
    }
}
