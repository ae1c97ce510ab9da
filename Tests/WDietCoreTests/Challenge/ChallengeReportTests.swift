import Foundation
import Testing
@testable import WDietCore

/// `ChallengeReport`'s own rules (Progress and the summary): a week's weight as the chart draws it — a weigh-in
/// logged late, after its week, stays in its own week (on its Sunday), else the week's latest logged weight — and the
/// average score of the finished weeks only.
@Suite("Challenge report")
struct ChallengeReportTests {
    typealias T = ChallengeTestData

    @Test("a week's weight: the weigh-in on its day, a late one after its week on that week's Sunday, else the weight log")
    func weekWeights() {
        // Today is day 24 (Thursday 24 December, week 4).
        let data = ChallengeData(
            challenge: T.challenge(),
            weighIns: [
                T.weighIn(week: 2, kg: 88.6, loggedOn: T.day(10)), // late, but within its week (Thursday of week 2)
                T.weighIn(week: 3, kg: 88.1, loggedOn: T.day(23)), // logged in week 4: drawn on week 3's Sunday, day 20
            ],
            weights: [T.day(3): 89.4, T.day(5): 89.2, T.day(22): 87.9])
        let report = ChallengeReport(data: data, today: T.day(24), matador: nil)
        #expect(report.weeks == [1, 2, 3, 4])
        #expect(report.weekWeights[1] == .init(kg: 89.2, date: T.day(5), fromWeighIn: false)) // the week's latest log
        #expect(report.weekWeights[2] == .init(kg: 88.6, date: T.day(10), fromWeighIn: true))
        #expect(report.weekWeights[3] == .init(kg: 88.1, date: T.day(20), fromWeighIn: true))
        #expect(report.weekWeights[4] == .init(kg: 87.9, date: T.day(22), fromWeighIn: false))
        #expect(report.weekWeights.count == 4)
        // The same data a day before the late weigh-in was logged (day 22): week 3 has no weight to draw yet.
        let earlier = ChallengeReport(data: data, today: T.day(22), matador: nil)
        #expect(earlier.weekWeights[3] == nil)
        #expect(earlier.weekWeights[4] == .init(kg: 87.9, date: T.day(22), fromWeighIn: false))
    }

    /// Week 1: 7 nutrition, 7 workout, 21 habit ticks, photo, weigh-in → 100. Week 2: 6, 3, 14, photo →
    /// 42.86 + 8.57 + 10 + 10 = 71.43 → 71. Finished weeks' mean (100 + 71) / 2 = 85.5 → 86 (half up); the
    /// running week 3 (nothing logged yet) is left out, and before a week has finished there is none.
    @Test("the average score is the finished weeks' mean, rounded half up")
    func averageScore() {
        let week1 = Array(0...6)
        let data = ChallengeData(
            challenge: T.challenge(),
            nutrition: week1.map { T.nutrition($0) } + (7...12).map { T.nutrition($0) },
            workouts: week1.map { T.workout($0) } + (7...9).map { T.workout($0) },
            habits: week1.map { T.habits($0, ticks: 3) } + (7...10).map { T.habits($0, ticks: 3) } + [T.habits(11, ticks: 2)],
            photos: [T.photo(week: 1), T.photo(week: 2)],
            weighIns: [T.weighIn(week: 1, kg: 89.5)])
        let report = ChallengeReport(data: data, today: T.day(16), matador: nil)
        #expect(report.scores.map(\.score) == [100, 71, 0])
        #expect(report.scores.map(\.isComplete) == [true, true, false])
        #expect(report.averageScore == 86)
        #expect(ChallengeReport(data: data, today: T.day(10), matador: nil).averageScore == 100) // week 1 only
        #expect(ChallengeReport(data: data, today: T.day(3), matador: nil).averageScore == nil)
        #expect(ChallengeReport(data: data, today: T.day(-2), matador: nil).weeks.isEmpty)
    }

    @Test("first and latest photo: the latest only when it is another week's; weeks not begun are left out")
    func photos() {
        let data = ChallengeData(challenge: T.challenge(), photos: [T.photo(week: 1), T.photo(week: 3), T.photo(week: 2)])
        let report = ChallengeReport(data: data, today: T.day(15), matador: nil)
        #expect(report.photos.map(\.week) == [1, 2, 3])
        #expect(report.firstPhoto?.week == 1)
        #expect(report.latestPhoto?.week == 3)
        let one = ChallengeReport(data: ChallengeData(challenge: T.challenge(), photos: [T.photo(week: 1)]), today: T.day(15), matador: nil)
        #expect(one.firstPhoto?.week == 1)
        #expect(one.latestPhoto == nil)
    }

    @Test("weights shown in the challenge's unit: kg to 0.1, pounds from kg")
    func display() {
        let kg = ChallengeReport(data: ChallengeData(challenge: T.challenge()), today: T.day(1), matador: nil)
        #expect(kg.display(86.04) == 86.0)
        #expect(abs(kg.unscaled(86.04) - 86.04) < 1e-9)
        let lb = ChallengeReport(data: ChallengeData(challenge: T.challenge(unit: .lb)), today: T.day(1), matador: nil)
        #expect(lb.display(90) == 198.4) // 90 / 0.45359237 = 198.416
        #expect(abs(lb.unscaled(90) - 198.416) < 0.001)
    }
}
