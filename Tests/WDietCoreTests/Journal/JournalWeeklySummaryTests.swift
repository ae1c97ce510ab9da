import Foundation
import Testing
import WDietCore
import WDietTestSupport

/// 002's WeeklySummaryServiceTests as cases of `JournalWeeklySummary`, and its milestones (issue 18). Today is
/// Tuesday 10 March 2026: this week is 9–15 March, last week 2–8 March.
@Suite("Journal weekly summary and milestones")
struct JournalWeeklySummaryTests {
    typealias E = JournalTestEntries
    static let today = E.today

    static func days(_ dates: [String], _ description: String = "rice") -> [JournalEntry] {
        dates.map { E.entry($0, "12:00", description) }
    }

    /// Every day of last week (2–8 March), a different food each day.
    static let fullLastWeek = ["02", "03", "04", "05", "06", "07", "08"].enumerated().map {
        E.entry("2026-03-\($0.element)", "12:00", ["poha", "upma", "dosa", "idli", "vada", "pongal", "appam"][$0.offset])
    }

    static func summary(_ entries: [JournalEntry], week: String = "2026-03-10", today: String = "2026-03-10") -> JournalWeeklySummary {
        JournalWeeklySummary(entries: entries, week: Fixtures.date(week), today: Fixtures.date(today))
    }

    @Test("the ISO week starts on Monday", arguments: [
        ("2026-03-09", "2026-03-09"), ("2026-03-10", "2026-03-09"), ("2026-03-11", "2026-03-09"), ("2026-03-12", "2026-03-09"),
        ("2026-03-13", "2026-03-09"), ("2026-03-14", "2026-03-09"), ("2026-03-15", "2026-03-09"), ("2026-03-08", "2026-03-02"),
        ("2027-01-01", "2026-12-28"),
    ])
    func monday(day: String, monday: String) {
        #expect(JournalWeeklySummary.monday(of: Fixtures.date(day)).iso == monday)
    }

    @Test func thisWeekAgainstLastWeek() {
        let entries = Self.days(["2026-03-01", "2026-03-02", "2026-03-08", "2026-03-09", "2026-03-15", "2026-03-16"])
        let summary = Self.summary(entries, week: "2026-03-15", today: "2026-03-16")
        #expect(summary.weekStart.iso == "2026-03-09" && summary.weekEnd.iso == "2026-03-15")
        #expect(summary.totalEntries == 2 && summary.lastWeekEntries == 2 && summary.vsLastWeek == 0)
    }

    @Test func daysAfterTodayAreNeitherCountedNorMissed() {
        let summary = Self.summary(Self.days(["2026-03-09", "2026-03-12"]))
        #expect(summary.totalEntries == 1 && summary.daysLogged == 1)
        #expect(summary.missedDays == 1)  // Tuesday, today; Wednesday to Sunday are still ahead
    }

    @Test func aPastWeekCountsAllSevenDays() {
        let summary = Self.summary(Self.days(["2026-03-02", "2026-03-03", "2026-03-03", "2026-03-05", "2026-03-06", "2026-03-08"]), week: "2026-03-04")
        #expect(summary.daysLogged == 5 && summary.missedDays == 2 && summary.totalEntries == 6)
        #expect(summary.subheadline == "5 of 7 days logged")
    }

    @Test func topFoodUses002sTokeniser() {
        let entries = [E.entry("2026-03-09", "08:00", "idli sambar"), E.entry("2026-03-09", "13:00", "IDLI and oj"),
                       E.entry("2026-03-10", "08:00", "idli, tea"), E.entry("2026-03-10", "09:00", "oj oj")]
        let summary = Self.summary(entries)
        #expect(summary.topFood == "idli" && summary.topFoodCount == 3)  // "oj" is under 3 characters
    }

    @Test func topFoodTiesGoAlphabetically() {
        let summary = Self.summary([E.entry("2026-03-09", "08:00", "tea toast"), E.entry("2026-03-10", "08:00", "toast tea")])
        #expect(summary.topFood == "tea" && summary.topFoodCount == 2)
        #expect(Self.summary([]).topFood == nil && Self.summary([]).topFoodCount == 0)
    }

    @Test func streakOnThePastWeeksLastDay() {
        let entries = Self.fullLastWeek + Self.days(["2026-03-01", "2026-03-10"])
        #expect(Self.summary(entries, week: "2026-03-05").streak == 8)  // 1–8 March
        #expect(Self.summary(entries).streak == 1)  // today alone: 9 March has nothing
    }

    @Test func categoriesOfTheWeek() {
        let entries = [E.entry("2026-03-09", category: .breakfast), E.entry("2026-03-10", category: .breakfast),
                       E.entry("2026-03-10", category: .beverage), E.entry("2026-03-03", category: .dinner)]
        #expect(Self.summary(entries).categoryBreakdown.map { "\($0.category.rawValue) \($0.count)" } == ["breakfast 2", "beverage 1"])
    }

    // MARK: Headlines

    @Test func streakOver7Days() {
        let summary = Self.summary(Self.fullLastWeek + Self.days(["2026-03-01", "2026-03-09", "2026-03-10"]))
        #expect(summary.streak == 10 && summary.headlineType == .streak)
        #expect(summary.headline == "10 days in a row, and counting")
    }

    /// Five entries the week before (23–27 February), so that 7 is no improvement of more than 3.
    static let weekBefore = Self.days(["2026-02-23", "2026-02-24", "2026-02-25", "2026-02-26", "2026-02-27"], "soup")

    @Test func aStreakOfExactly7IsNotTheHeadline() {
        let summary = Self.summary(Self.fullLastWeek + Self.weekBefore, week: "2026-03-02")
        #expect(summary.streak == 7 && summary.headlineType == .perfect)
        #expect(summary.headline == "A perfect week: every day logged")
    }

    @Test func topFoodEatenThreeTimes() {
        let summary = Self.summary(Self.days(["2026-03-09", "2026-03-09", "2026-03-10"], "masala dosa"))
        #expect(summary.headlineType == .topFood)
        #expect(summary.headline == "Dosa was your week's favorite")  // "dosa" and "masala" 3 each; alphabetical
    }

    @Test func twiceIsNotTopFood() {
        #expect(Self.summary(Self.days(["2026-03-10", "2026-03-10"], "poha")).headlineType == .default)
        #expect(Self.summary(Self.days(["2026-03-09", "2026-03-10"], "poha")).headlineType == .perfect)  // Monday and today
    }

    @Test func improvementOfMoreThan3() {
        let entries = Self.days(["2026-03-03"], "x1") + ["a1", "b1", "c1", "d1", "e1"].map { E.entry("2026-03-10", "12:00", $0 + "food") }
        let summary = Self.summary(entries)
        #expect(summary.vsLastWeek == 4 && summary.headlineType == .improvement)
        #expect(summary.headline == "4 more entries than last week")
    }

    @Test func exactly3MoreIsNoImprovement() {
        let entries = Self.days(["2026-03-03"], "x1") + ["a1", "b1", "c1", "d1"].map { E.entry("2026-03-10", "12:00", $0 + "food") }
        #expect(Self.summary(entries).vsLastWeek == 3)
        #expect(Self.summary(entries).headlineType == .default)  // Monday was missed
    }

    @Test func theDefaultCountsTheWeek() {
        let summary = Self.summary(Self.days(["2026-03-10", "2026-03-10"], "soup"))
        #expect(summary.headlineType == .default && summary.headline == "2 entries this week")
        #expect(Self.summary(Self.days(["2026-03-10"], "soup")).headline == "1 entry this week")
    }

    @Test func anEmptyWeek() {
        let summary = Self.summary([])
        #expect(summary.headlineType == .default && summary.missedDays == 2)
        #expect(summary.headline == "0 entries this week")
        #expect(summary.subheadline == "Start your journal: one entry is enough for today.")
    }

    @Test func streakComesBeforeTopFood() {
        let entries = Self.days(["2026-03-01", "2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05", "2026-03-06",
                                 "2026-03-07", "2026-03-08", "2026-03-09", "2026-03-10", "2026-03-10"], "poha")
        #expect(Self.summary(entries).headlineType == .streak)
    }

    @Test func topFoodComesBeforeImprovement() {
        let summary = Self.summary(Self.days(["2026-03-09", "2026-03-09", "2026-03-10", "2026-03-10"], "poha"))
        #expect(summary.vsLastWeek == 4 && summary.headlineType == .topFood)
    }

    @Test func improvementComesBeforePerfect() {
        let entries = ["a1", "b1", "c1"].map { E.entry("2026-03-09", "12:00", $0 + "food") }
            + ["d1", "e1"].map { E.entry("2026-03-10", "12:00", $0 + "food") }
        let summary = Self.summary(entries)
        #expect(summary.missedDays == 0 && summary.vsLastWeek == 5 && summary.headlineType == .improvement)
    }

    @Test func headlinesInGerman() {
        Strings.$current.withValue(.german) {
            #expect(Self.summary(Self.days(["2026-03-10", "2026-03-10"], "soup")).headline == "2 Einträge diese Woche")
            #expect(Self.summary(Self.fullLastWeek + Self.weekBefore, week: "2026-03-02").headline == "Eine perfekte Woche: jeden Tag eingetragen")
        }
    }

    // MARK: Milestones

    @Test func milestonesAre002s() {
        #expect(JournalMilestones.counts == [10, 25, 50, 100, 250])
    }

    @Test("passed ones are not celebrated when the journal first opens", arguments: [
        (0, [Int]()), (9, []), (10, [10]), (60, [10, 25, 50]), (1000, [10, 25, 50, 100, 250]),
    ])
    func alreadyPassed(count: Int, passed: [Int]) {
        #expect(JournalMilestones.alreadyPassed(count: count) == passed)
    }

    @Test("one milestone per change, crossed upwards and not celebrated before", arguments: [
        (9, 10, [], 10), (10, 11, [], nil), (24, 26, [10], 25), (9, 30, [], 10), (9, 30, [10], 25),
        (9, 10, [10], nil), (11, 9, [], nil), (249, 250, [10, 25, 50, 100], 250), (250, 251, [], nil), (0, 0, [], nil),
    ] as [(Int, Int, [Int], Int?)])
    func celebration(old: Int, new: Int, celebrated: [Int], expected: Int?) {
        #expect(JournalMilestones.celebration(from: old, to: new, celebrated: Set(celebrated)) == expected)
    }

    @Test func milestoneAndTodayTexts() {
        #expect(JournalMilestones.title(10) == "10 entries!")
        #expect(JournalMilestones.todayToast(count: 1) == "First entry today! 🎉")
        #expect(JournalMilestones.todayToast(count: 3) == "Meal #3 today!")
        Strings.$current.withValue(.german) {
            #expect(JournalMilestones.title(250) == "250 Einträge!")
            #expect(JournalMilestones.todayToast(count: 2) == "Mahlzeit Nr. 2 heute!")
        }
    }
}
