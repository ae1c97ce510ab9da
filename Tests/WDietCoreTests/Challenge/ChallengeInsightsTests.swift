import Foundation
import Testing
@testable import WDietCore

/// The Insights tab's positive-only statements (issue 20): each true, with its numbers, and only when good; none at
/// all when nothing good and true can be said.
@Suite("Challenge insights")
struct ChallengeInsightsTests {
    typealias T = ChallengeTestData

    /// A person in week 3 (today day 16, 17 days elapsed): nutrition on days 0–13 and 15–16 (16 of 17), workouts on
    /// every day but Sundays (days 6 and 13: Rest), all habits on days 12–16, photos in weeks 1–3 (week 3's on its
    /// Monday), weigh-ins 90.0 → 88.6 → 88.0 all on Mondays, waist 100 → 97.5.
    static func goodData() -> ChallengeData {
        let nutritionDays = Array(0...13) + [15, 16]
        return ChallengeData(
            challenge: T.challenge(startKg: 90),
            nutrition: nutritionDays.map { T.nutrition($0) },
            workouts: (0...16).map { T.workout($0, $0 % 7 == 6 ? .rest : .push, minutes: 40) },
            habits: (12...16).map { T.habits($0, ticks: 3) },
            photos: [T.photo(week: 1), T.photo(week: 2), T.photo(week: 3)],
            weighIns: [T.weighIn(week: 1, kg: 90, waist: 100), T.weighIn(week: 2, kg: 88.6), T.weighIn(week: 3, kg: 88.0, waist: 97.5)])
    }

    @Test("a good three weeks: every statement true, with its numbers")
    func good() {
        let insights = ChallengeInsights.of(Self.goodData(), today: T.day(16), matador: nil)
        let byKind = Dictionary(insights.map { ($0.kind, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(byKind[.nutritionDays]?.text == "You've logged nutrition 16 of 17 days")
        // 17 days minus 2 Rest days = 15 workouts of 40 minutes.
        #expect(byKind[.workouts]?.text == "You've completed 15 workouts")
        #expect(byKind[.workouts]?.values == ["count": 15, "minutes": 600])
        // Streaks: nutrition days 15–16 = 2 (not said), workouts (Rest counts) 17, habits 12–16 = 5.
        #expect(insights.filter { $0.kind == .streak }.map(\.text) == ["17 days of workouts in a row", "5 days of all your habits in a row"])
        #expect(byKind[.towardGoal]?.text == "You're 2.0 kg closer to your goal weight")
        // Day 14 (week 3's Monday): straight pace expects 90 − 10 × 14/119 = 88.82; 88.0 is 0.82 ahead.
        #expect(byKind[.aheadOfPace]?.text == "You're 0.8 kg ahead of your goal pace")
        #expect(abs(byKind[.aheadOfPace]!.values["kg"]! - 0.8235) < 0.0001)
        #expect(byKind[.photos]?.text == "You've taken 3 weekly photos")
        #expect(byKind[.weighInsOnTime]?.text == "Every weigh-in on time: 3 of 3")
        // Week 1: 50 + 20 + no habits + 10 + 5 = 85; week 2 (days 7–13 all logged): 50 + 20 + 15 × 6/21 (days 12 and
        // 13) + 10 + 5 = 89.29 → 89. The best finished week: Week 2, 89; 4 points more than Week 1.
        #expect(byKind[.bestWeek]?.text == "Your best week so far: Week 2, 89/100")
        #expect(byKind[.improvement]?.text == "Week 2 scored 4 points more than Week 1")
        #expect(byKind[.waist]?.text == "Your waist is 2.5 cm smaller than in Week 1")
        #expect(byKind[.onPace] == nil)
    }

    @Test("in German, with German numbers")
    func german() {
        let insights = Strings.$current.withValue(.german) { ChallengeInsights.of(Self.goodData(), today: T.day(16), matador: nil) }
        #expect(insights.first { $0.kind == .nutritionDays }?.text == "Du hast deine Ernährung an 16 von 17 Tagen eingetragen")
        #expect(insights.first { $0.kind == .towardGoal }?.text == "Du bist deinem Zielgewicht 2,0 kg näher")
    }

    @Test("in pounds when the challenge is in pounds")
    func pounds() {
        var data = Self.goodData()
        data.challenge.weightUnit = .lb
        let insights = ChallengeInsights.of(data, today: T.day(16), matador: nil)
        #expect(insights.first { $0.kind == .towardGoal }?.text == "You're 4.4 lb closer to your goal weight")
        #expect(insights.first { $0.kind == .waist }?.text == "Your waist is 1.0 in smaller than in Week 1")
    }

    /// Each bar at its edge: (what the data holds) → whether the statement is made.
    @Test("each statement only past its bar", arguments: [
        ("nutrition on 3 of 7 days: less than half", ChallengeInsight.Kind.nutritionDays, 6, [0, 1, 2], false),
        ("nutrition on 4 of 7 days: half or more", .nutritionDays, 6, [0, 1, 2, 3], true),
        ("nutrition on 2 of 2 days: fewer than 3", .nutritionDays, 1, [0, 1], false),
        ("nutrition on 3 of 3 days", .nutritionDays, 2, [0, 1, 2], true),
        ("a 2-day streak is not said", .streak, 6, [5, 6], false),
        ("a 3-day streak is", .streak, 6, [4, 5, 6], true),
    ] as [(String, ChallengeInsight.Kind, Int, [Int], Bool)])
    func bars(_ name: String, kind: ChallengeInsight.Kind, today: Int, days: [Int], said: Bool) {
        let data = ChallengeData(challenge: T.challenge(startKg: nil), nutrition: days.map { T.nutrition($0) })
        let insights = ChallengeInsights.of(data, today: T.day(today), matador: nil)
        #expect(insights.contains { $0.kind == kind } == said, "\(name)")
    }

    @Test("workouts: 3 are said, 2 are not, Rest days are not workouts", arguments: [
        ([ChallengeWorkoutType.push, .pull], false),
        ([.push, .pull, .rest, .rest], false),
        ([.push, .pull, .legs], true),
    ])
    func workouts(types: [ChallengeWorkoutType], said: Bool) {
        let data = ChallengeData(challenge: T.challenge(startKg: nil), workouts: types.enumerated().map { T.workout($0.offset, $0.element) })
        #expect(ChallengeInsights.of(data, today: T.day(6), matador: nil).contains { $0.kind == .workouts } == said)
    }

    /// 90 → 80: a latest weight above the start says nothing of the goal; 0.1 kg down does; behind the pace says
    /// nothing of the pace, within 0.1 kg is "right on".
    @Test("weight statements only when moving towards the goal, pace only when ahead or on it", arguments: [
        (90.5, 7, false, false, false),   // gained: nothing
        (89.9, 7, true, false, false),    // 0.1 down; pace expects 89.41 on day 7: behind
        (89.45, 7, true, false, true),    // 0.04 behind: on pace
        (89.0, 7, true, true, false),     // 0.41 ahead
    ] as [(Double, Int, Bool, Bool, Bool)])
    func weight(latest: Double, day: Int, toward: Bool, ahead: Bool, onPace: Bool) {
        let data = ChallengeData(challenge: T.challenge(startKg: 90), weights: [T.day(day): latest])
        let kinds = Set(ChallengeInsights.of(data, today: T.day(day), matador: nil).map(\.kind))
        #expect(kinds.contains(.towardGoal) == toward)
        #expect(kinds.contains(.aheadOfPace) == ahead)
        #expect(kinds.contains(.onPace) == onPace)
    }

    @Test("under MATADOR the same weight is further ahead: the line is flat in the first two weeks")
    func matador() {
        // Day 13, 89.5 kg: straight pace expects 88.91 (behind); MATADOR expects 90 (0.5 ahead).
        let data = ChallengeData(challenge: T.challenge(startKg: 90), weights: [T.day(13): 89.5])
        #expect(!ChallengeInsights.of(data, today: T.day(13), matador: nil).contains { $0.kind == .aheadOfPace })
        let ahead = ChallengeInsights.of(data, today: T.day(13), matador: MatadorCycle(planStart: T.start)).first { $0.kind == .aheadOfPace }
        #expect(ahead?.text == "You're 0.5 kg ahead of your goal pace")
    }

    @Test("a late weigh-in takes away 'every weigh-in on time'; one photo is not 'photos'; a worse week is no improvement")
    func notSaid() {
        var data = Self.goodData()
        data.weighIns[2] = T.weighIn(week: 2, kg: 88.6, loggedOn: T.day(8))
        data.photos = [1: T.photo(week: 1)]
        data.habits = [:]
        data.workouts = data.workouts.filter { $0.key < T.day(7) }
        let kinds = Set(ChallengeInsights.of(data, today: T.day(16), matador: nil).map(\.kind))
        #expect(!kinds.contains(.weighInsOnTime))
        #expect(!kinds.contains(.photos))
        #expect(!kinds.contains(.improvement))   // week 2: 50 + late weigh-in 5 = 55 < week 1's 85
        #expect(kinds.contains(.bestWeek))       // week 1's 85
    }

    @Test("nothing good and true to say: no insights at all", arguments: [-3, 0, 6, 30])
    func nothing(today: Int) {
        // Nothing logged, weight up, every weigh-in late.
        let data = ChallengeData(
            challenge: T.challenge(startKg: 90),
            weighIns: [T.weighIn(week: 1, kg: 90.8, loggedOn: T.day(3))],
            weights: [T.day(0): 91])
        #expect(ChallengeInsights.of(data, today: T.day(today), matador: nil).isEmpty)
    }
}
