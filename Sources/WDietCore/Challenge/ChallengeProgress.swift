import Foundation

/// Everything of one challenge a rule reads, gathered once (from the store or the client's rows), plus what w-diet's
/// own logs add: the day totals of the logged meals (a day with meals and no nutrition log counts as logged from
/// the meal log) and the weight log (the chart's weeks without a weigh-in). Pure: "today" is always passed in.
public struct ChallengeData: Hashable, Sendable {
    public var challenge: Challenge
    public var nutrition: [LocalDate: ChallengeNutritionLog]
    public var workouts: [LocalDate: ChallengeWorkoutLog]
    public var habits: [LocalDate: ChallengeHabitsLog]
    public var photos: [Int: ChallengePhoto]
    public var weighIns: [Int: ChallengeWeighIn]
    public var settings: ChallengeSettings?
    /// w-diet's meal log: each day's totals (days without meals absent).
    public var mealTotals: [LocalDate: DailyTotals]
    /// w-diet's weight log: each day's current weight in kg.
    public var weights: [LocalDate: Double]

    public init(
        challenge: Challenge, nutrition: [ChallengeNutritionLog] = [], workouts: [ChallengeWorkoutLog] = [],
        habits: [ChallengeHabitsLog] = [], photos: [ChallengePhoto] = [], weighIns: [ChallengeWeighIn] = [],
        settings: ChallengeSettings? = nil, mealTotals: [LocalDate: DailyTotals] = [:], weights: [LocalDate: Double] = [:]
    ) {
        self.challenge = challenge
        let own = { (id: UUID) in id == challenge.id }
        self.nutrition = Dictionary(nutrition.filter { own($0.challengeId) }.map { ($0.date, $0) }, uniquingKeysWith: { a, _ in a })
        self.workouts = Dictionary(workouts.filter { own($0.challengeId) }.map { ($0.date, $0) }, uniquingKeysWith: { a, _ in a })
        self.habits = Dictionary(habits.filter { own($0.challengeId) }.map { ($0.date, $0) }, uniquingKeysWith: { a, _ in a })
        self.photos = Dictionary(photos.filter { own($0.challengeId) }.map { ($0.week, $0) }, uniquingKeysWith: { a, _ in a })
        self.weighIns = Dictionary(weighIns.filter { own($0.challengeId) }.map { ($0.week, $0) }, uniquingKeysWith: { a, _ in a })
        self.settings = settings
        self.mealTotals = mealTotals
        self.weights = weights
    }

    // MARK: - A day

    /// A day's nutrition as the score reads it.
    public enum NutritionState: Hashable, Sendable {
        /// Logged: typed totals or the meal log's (`fromMeals`).
        case done(kcal: Double?, protein: Double?, carbs: Double?, fat: Double?, fromMeals: Bool)
        case skipped
        case pending
    }

    /// The log decides when there is one (typed totals; "the day's logged meals" read from the meal log, done once
    /// the day has a meal; skipped); without a log, a day with logged meals is done from the meal log; otherwise
    /// pending.
    public func nutritionState(on date: LocalDate) -> NutritionState {
        if let log = nutrition[date] {
            switch (log.status, log.source) {
            case (.skipped, _): return .skipped
            case (.logged, .typed): return .done(kcal: log.kcal, protein: log.protein, carbs: log.carbs, fat: log.fat, fromMeals: false)
            case (.logged, .meals):
                // "Use my logged meals" counts once the day has a meal.
                guard let totals = mealTotals[date], totals.mealCount > 0 else { return .pending }
                return .done(kcal: totals.kcal, protein: totals.protein, carbs: totals.carbs, fat: totals.fat, fromMeals: true)
            }
        }
        if let totals = mealTotals[date], totals.mealCount > 0 {
            return .done(kcal: totals.kcal, protein: totals.protein, carbs: totals.carbs, fat: totals.fat, fromMeals: true)
        }
        return .pending
    }

    public func nutritionDone(on date: LocalDate) -> Bool {
        if case .done = nutritionState(on: date) { return true }
        return false
    }

    /// A workout or a planned Rest.
    public func workoutDone(on date: LocalDate) -> Bool { workouts[date] != nil }

    public func habitsTicked(on date: LocalDate) -> Int { habits[date]?.ticked ?? 0 }

    /// All three habits ticked (the habits streak's day).
    public func habitsDone(on date: LocalDate) -> Bool { habitsTicked(on: date) == 3 }

    public func done(_ kind: ChallengeStreakKind, on date: LocalDate) -> Bool {
        switch kind {
        case .nutrition: nutritionDone(on: date)
        case .workout: workoutDone(on: date)
        case .habits: habitsDone(on: date)
        }
    }

    /// The challenge's days up to and including `today` (none before the start, all after the end).
    public func elapsedDays(today: LocalDate) -> Int {
        min(max(challenge.startDate.days(until: today) + 1, 0), challenge.dayCount)
    }
}

// MARK: - Compliance score

/// Green ≥ 80, yellow 60–79, gray < 60 (PRODUCT.md; never red).
public enum ChallengeScoreColour: String, Codable, Hashable, Sendable {
    case green, yellow, gray

    public init(score: Int) {
        self = score >= 80 ? .green : score >= 60 ? .yellow : .gray
    }
}

/// A week's compliance score (PRODUCT.md): nutrition 50 × done days / 7, workout 20 × days with a workout or a
/// planned Rest / 7, habits 15 × ticked habits / 21, photo 10 when the week's photo exists (late counts), weigh-in
/// 5 when the week's weigh-in exists; the sum rounded (half up). Days after `today` count as not done yet.
public struct ChallengeWeekScore: Hashable, Codable, Sendable {
    public var week: Int
    public var nutritionDays: Int
    public var workoutDays: Int
    public var habitTicks: Int
    public var hasPhoto: Bool
    public var hasWeighIn: Bool
    /// How many of the week's days have begun (7 for a past week).
    public var daysElapsed: Int

    public var nutritionPoints: Double { 50 * Double(nutritionDays) / 7 }
    public var workoutPoints: Double { 20 * Double(workoutDays) / 7 }
    public var habitPoints: Double { 15 * Double(habitTicks) / 21 }
    public var photoPoints: Double { hasPhoto ? 10 : 0 }
    public var weighInPoints: Double { hasWeighIn ? 5 : 0 }

    public var score: Int {
        Int((nutritionPoints + workoutPoints + habitPoints + photoPoints + weighInPoints).rounded(.toNearestOrAwayFromZero))
    }

    public var colour: ChallengeScoreColour { ChallengeScoreColour(score: score) }
    public var isComplete: Bool { daysElapsed == 7 }
}

extension ChallengeData {
    public func score(week: Int, today: LocalDate) -> ChallengeWeekScore {
        let days = challenge.days(ofWeek: week).filter { $0 <= today }
        return ChallengeWeekScore(
            week: week,
            nutritionDays: days.filter(nutritionDone).count,
            workoutDays: days.filter(workoutDone).count,
            habitTicks: days.map(habitsTicked).reduce(0, +),
            hasPhoto: photos[week] != nil,
            hasWeighIn: weighIns[week] != nil,
            daysElapsed: days.count)
    }

    /// Every week that has begun by `today`, week 1 first (the compliance grid).
    public func scores(today: LocalDate) -> [ChallengeWeekScore] {
        guard today >= challenge.startDate else { return [] }
        return (1...challenge.currentWeek(today: today)).map { score(week: $0, today: today) }
    }
}

// MARK: - Streaks

public enum ChallengeStreakKind: String, Codable, CaseIterable, Hashable, Sendable {
    case nutrition, workout, habits
}

/// A kind's streak: `current` counts done days back from today, or from yesterday while today is not done yet (the
/// house rule of w-diet's streak; a nutrition day marked skipped today is done with, so it ends the streak at once);
/// a day not done ends it. `longest` is the longest run within the challenge so far.
/// Days before the challenge never count.
public struct ChallengeStreak: Hashable, Codable, Sendable {
    public var kind: ChallengeStreakKind
    public var current: Int
    public var longest: Int
}

extension ChallengeData {
    public func streak(_ kind: ChallengeStreakKind, today: LocalDate) -> ChallengeStreak {
        let last = min(today, challenge.lastDate)
        var longest = 0, run = 0
        var day = challenge.startDate
        while day <= last {
            run = done(kind, on: day) ? run + 1 : 0
            longest = max(longest, run)
            day = day.adding(days: 1)
        }
        var current = 0
        var cursor = last
        // Today still open counts from yesterday; a day marked skipped is decided, not open.
        if cursor == today && !done(kind, on: cursor) {
            if kind == .nutrition, nutritionState(on: today) == .skipped { return ChallengeStreak(kind: kind, current: 0, longest: longest) }
            cursor = cursor.adding(days: -1)
        }
        while cursor >= challenge.startDate && done(kind, on: cursor) {
            current += 1
            cursor = cursor.adding(days: -1)
        }
        return ChallengeStreak(kind: kind, current: current, longest: longest)
    }

    public func streaks(today: LocalDate) -> [ChallengeStreak] {
        ChallengeStreakKind.allCases.map { streak($0, today: today) }
    }
}

// MARK: - Goal pace

/// The goal pace (PRODUCT.md): a line from the start weight on the first day to the goal weight on the day after the
/// last week. For someone on w-diet's Lose plan (`matador`: the plan's cycle) the line is flat in MATADOR maintenance
/// blocks: the whole change is spread over the diet days, since maintenance weeks aim to hold weight. Days before the
/// plan starts count as maintenance. Without diet days in the challenge (or without a cycle) the line is straight.
public struct ChallengeGoalPace: Hashable, Sendable {
    public var challenge: Challenge
    public var startKg: Double
    public var matador: MatadorCycle?

    public init(challenge: Challenge, startKg: Double, matador: MatadorCycle?) {
        self.challenge = challenge
        self.startKg = startKg
        self.matador = matador
    }

    private func isDietDay(_ date: LocalDate) -> Bool {
        guard let matador else { return true }
        return matador.status(on: date)?.phase == .diet
    }

    private var totalDietDays: Int {
        (0..<challenge.dayCount).filter { isDietDay(challenge.startDate.adding(days: $0)) }.count
    }

    /// The expected weight at the start of `date` (held to the challenge: the start weight before it, the goal after).
    public func expectedKg(on date: LocalDate) -> Double {
        let elapsed = min(max(challenge.startDate.days(until: date), 0), challenge.dayCount)
        let total = totalDietDays
        let change = challenge.goalWeightKg - startKg
        guard total > 0, matador != nil else {
            return startKg + change * Double(elapsed) / Double(challenge.dayCount)
        }
        let dietSoFar = (0..<elapsed).filter { isDietDay(challenge.startDate.adding(days: $0)) }.count
        return startKg + change * Double(dietSoFar) / Double(total)
    }

    /// The line's points at each week's Monday, week 1's start through the end (weeks + 1 points).
    public var weeklyPoints: [(date: LocalDate, kg: Double)] {
        (0...challenge.weeks).map { index in
            let date = challenge.startDate.adding(days: index * 7)
            return (date, expectedKg(on: date))
        }
    }
}

/// Current vs expected pace on the latest weight: how far the person is from the pace line (negative `aheadKg`
/// means behind), and the change per week so far against the pace's per week.
public struct ChallengePace: Hashable, Codable, Sendable {
    public var date: LocalDate
    public var currentKg: Double
    public var expectedKg: Double
    /// How far the person is ahead of the pace towards the goal (kg; negative: behind).
    public var aheadKg: Double
    /// Change per week since the start (negative: lost).
    public var actualPerWeekKg: Double
    /// The pace's change per week over the same days.
    public var expectedPerWeekKg: Double
    public var onPace: Bool { aheadKg >= -0.05 }
}

extension ChallengeData {
    /// The challenge's start weight: as set, else the first weigh-in, else the weight log's latest on or before the
    /// first day (looking back up to 7 days), else its first within the challenge.
    public var startKg: Double? {
        if let kg = challenge.startWeightKg { return kg }
        if let first = weighIns.keys.min() { return weighIns[first]!.kg }
        let before = weights.filter { $0.key <= challenge.startDate && $0.key >= challenge.startDate.adding(days: -7) }
        if let latest = before.max(by: { $0.key < $1.key }) { return latest.value }
        return weights.filter { challenge.contains($0.key) }.min(by: { $0.key < $1.key })?.value
    }

    public func goalPace(matador: MatadorCycle?) -> ChallengeGoalPace? {
        startKg.map { ChallengeGoalPace(challenge: challenge, startKg: $0, matador: matador) }
    }

    /// A week's weight for the chart: the weigh-in, else the latest weight of the week in w-diet's weight log.
    public func weekWeight(_ week: Int) -> (kg: Double, date: LocalDate, fromWeighIn: Bool)? {
        if let weighIn = weighIns[week] { return (weighIn.kg, weighIn.loggedOn, true) }
        let days = Set(challenge.days(ofWeek: week))
        return weights.filter { days.contains($0.key) }.max(by: { $0.key < $1.key }).map { ($0.value, $0.key, false) }
    }

    /// The latest known weight within the challenge up to `today`: a weigh-in (dated the day it was logged) or the
    /// weight log, whichever is later (the weigh-in on a tie).
    public func latestWeight(today: LocalDate) -> (kg: Double, date: LocalDate)? {
        var candidates: [(kg: Double, date: LocalDate, rank: Int)] = []
        for weighIn in weighIns.values where weighIn.loggedOn <= today { candidates.append((weighIn.kg, weighIn.loggedOn, 1)) }
        for (date, kg) in weights where challenge.contains(date) && date <= today { candidates.append((kg, date, 0)) }
        return candidates.max { ($0.date, $0.rank) < ($1.date, $1.rank) }.map { ($0.kg, $0.date) }
    }

    public func pace(today: LocalDate, matador: MatadorCycle?) -> ChallengePace? {
        guard let line = goalPace(matador: matador), let latest = latestWeight(today: today) else { return nil }
        let expected = line.expectedKg(on: latest.date)
        let direction: Double = challenge.goalWeightKg < line.startKg ? -1 : 1
        let weeks = Double(max(challenge.startDate.days(until: latest.date), 1)) / 7
        return ChallengePace(
            date: latest.date, currentKg: latest.kg, expectedKg: expected,
            aheadKg: (latest.kg - expected) * direction,
            actualPerWeekKg: (latest.kg - line.startKg) / weeks,
            expectedPerWeekKg: (expected - line.startKg) / weeks)
    }
}

// MARK: - Weekly macro averages

/// A week's average day of nutrition, over the days logged (typed or from meals) up to today; each macro over
/// the days that have it. Skipped and pending days are left out, so a skipped day does not drag an average down.
public struct ChallengeMacroAverage: Hashable, Codable, Sendable {
    public var week: Int
    public var days: Int
    public var kcal: Double?
    public var protein: Double?
    public var carbs: Double?
    public var fat: Double?
}

extension ChallengeData {
    public func macroAverage(week: Int, today: LocalDate) -> ChallengeMacroAverage {
        var values: [[Double?]] = []
        for day in challenge.days(ofWeek: week) where day <= today {
            if case let .done(kcal, protein, carbs, fat, _) = nutritionState(on: day) { values.append([kcal, protein, carbs, fat]) }
        }
        func mean(_ index: Int) -> Double? {
            let present = values.compactMap { $0[index] }
            return present.isEmpty ? nil : present.reduce(0, +) / Double(present.count)
        }
        return ChallengeMacroAverage(week: week, days: values.count, kcal: mean(0), protein: mean(1), carbs: mean(2), fat: mean(3))
    }

    public func macroAverages(today: LocalDate) -> [ChallengeMacroAverage] {
        guard today >= challenge.startDate else { return [] }
        return (1...challenge.currentWeek(today: today)).map { macroAverage(week: $0, today: today) }
    }
}
