import Foundation
import Testing
import WDietCore
import WDietTestSupport

/// 002's InsightsServiceTests as cases of `JournalInsights` (issue 18): every method, with worked numbers, today
/// being Tuesday 10 March 2026.
@Suite("Journal insights")
struct JournalInsightsTests {
    typealias E = JournalTestEntries
    static let today = E.today

    static func insights(_ entries: [JournalEntry]) -> JournalInsights { JournalInsights(entries: entries, today: today) }

    static func names(_ items: [FoodItemFrequency]) -> [String] { items.map { "\($0.name) \($0.count)" } }

    // MARK: topItems

    @Test func topItemsByFrequencyThenAlphabetically() {
        let insights = Self.insights([E.ago(0, "idli sambar"), E.ago(1, "idli chutney"), E.ago(2, "dosa sambar"), E.ago(3, "idli")])
        #expect(Self.names(insights.topItems(.week)) == ["idli 3", "sambar 2", "chutney 1", "dosa 1"])
    }

    @Test func topItemsDropStopwordsAndLoneLetters() {
        let insights = Self.insights([E.ago(0, "I had some eggs with the toast and an apple for my breakfast, of course in bed")])
        #expect(Self.names(insights.topItems(.week)) == ["apple 1", "bed 1", "breakfast 1", "course 1", "eggs 1", "toast 1"])
        #expect(JournalWords.stopwords == ["a", "the", "and", "with", "of", "in", "for", "had", "ate", "some", "my", "an"])
    }

    @Test func topItemsCountAWordOncePerEntryAndDropNumbers() {
        let insights = Self.insights([E.ago(0, "tea, tea and more tea"), E.ago(1, "2 eggs, 200 ml tea")])
        #expect(Self.names(insights.topItems(.week)) == ["tea 2", "eggs 1", "ml 1", "more 1"])
    }

    @Test func topItemsKeepToThePeriod() {
        let insights = Self.insights([E.ago(0, "poha"), E.ago(6, "poha"), E.ago(7, "upma"), E.ago(29, "upma"), E.ago(30, "dosa")])
        #expect(Self.names(insights.topItems(.week)) == ["poha 2"])
        #expect(Self.names(insights.topItems(.month)) == ["poha 2", "upma 2"])
        #expect(Self.names(insights.topItems(.allTime)) == ["poha 2", "upma 2", "dosa 1"])
    }

    @Test func topItemsLimit() {
        let insights = Self.insights([E.ago(0, "apple banana cherry date elderberry fig grape")])
        #expect(insights.topItems(.week, limit: 3).map(\.name) == ["apple", "banana", "cherry"])
        #expect(insights.topItems(.week, limit: 0) == [])
        #expect(insights.topItems(.week).count == 7)
    }

    @Test func topItemsOfNothing() {
        #expect(Self.insights([]).topItems(.allTime) == [])
    }

    // MARK: dailyCounts

    @Test func dailyCountsOfAWeekEndWithToday() {
        let counts = Self.insights([E.ago(0), E.ago(0), E.ago(2), E.ago(6), E.ago(7)]).dailyCounts(.week)
        #expect(counts.map(\.date.iso) == ["2026-03-04", "2026-03-05", "2026-03-06", "2026-03-07", "2026-03-08", "2026-03-09", "2026-03-10"])
        #expect(counts.map(\.count) == [1, 0, 0, 0, 1, 0, 2])
    }

    @Test func dailyCountsFillAThreeDayGapWithZeros() {
        let counts = Self.insights([E.entry("2026-03-04"), E.entry("2026-03-08"), E.entry("2026-03-08")]).dailyCounts(.allTime)
        #expect(counts.map(\.count) == [1, 0, 0, 0, 2, 0, 0])
        #expect(counts.first?.date.iso == "2026-03-04" && counts.last?.date.iso == "2026-03-10")
    }

    @Test("each period's length in days", arguments: [(JournalPeriod.week, 7), (.month, 30), (.threeMonths, 90), (.year, 365)])
    func periodLengths(period: JournalPeriod, days: Int) {
        let counts = Self.insights([]).dailyCounts(period)
        #expect(counts.count == days)
        #expect(counts.last?.date == Self.today && counts.first?.date == Self.today.adding(days: 1 - days))
    }

    @Test func allTimeStartsAtTheFirstEntryOrToday() {
        #expect(Self.insights([E.entry("2026-02-20"), E.entry("2026-03-01")]).dailyCounts(.allTime).count == 19)
        #expect(Self.insights([]).dailyCounts(.allTime) == [DailyCount(date: Self.today, count: 0)])
    }

    @Test func entriesAfterTodayAreInNoPeriod() {
        let insights = Self.insights([E.entry("2026-03-11"), E.ago(0)])
        #expect(insights.totalEntries(.allTime) == 1)
        #expect(insights.dailyCounts(.allTime).map(\.count) == [1])
    }

    // MARK: categoryDistribution

    @Test func categoryPercentagesLeaveOutEntriesWithoutOne() {
        let entries = [
            E.entry("2026-03-10", category: .breakfast), E.entry("2026-03-09", category: .breakfast),
            E.entry("2026-03-09", category: .dinner), E.entry("2026-03-08", category: .lunch), E.entry("2026-03-08", category: nil),
        ]
        let distribution = Self.insights(entries).categoryDistribution(.week)
        #expect(distribution.map(\.category) == [.breakfast, .lunch, .dinner])  // ties in 002's order
        #expect(distribution.map(\.count) == [2, 1, 1])
        #expect(distribution.map(\.percentage) == [50, 25, 25])
    }

    @Test func categoryDistributionOfNothing() {
        #expect(Self.insights([E.entry("2026-03-10", category: nil)]).categoryDistribution(.week) == [])
    }

    // MARK: inputTypeBreakdown

    @Test func inputTypesWithTheirShareAllThreeAlways() {
        let entries = [E.entry("2026-03-10"), E.entry("2026-03-10"), E.entry("2026-03-09"), E.entry("2026-03-09", type: .photo)]
        let breakdown = Self.insights(entries).inputTypeBreakdown(.week)
        #expect(breakdown.map(\.inputType) == [.text, .photo, .voice])
        #expect(breakdown.map(\.count) == [3, 1, 0])
        #expect(breakdown.map(\.percentage) == [75, 25, 0])
        #expect(Self.insights([]).inputTypeBreakdown(.week).map(\.percentage) == [0, 0, 0])
    }

    // MARK: mealTiming

    @Test func mealTimingHas24HourBins() {
        let timing = Self.insights([E.ago(0, time: "08:15"), E.ago(1, time: "08:59"), E.ago(2, time: "23:00"), E.ago(3, time: "00:00")])
            .mealTiming(.week)
        #expect(timing.count == 24 && timing.map(\.hour) == Array(0...23))
        #expect(timing[8].count == 2 && timing[23].count == 1 && timing[0].count == 1)
        #expect(timing.map(\.count).reduce(0, +) == 4)
    }

    // MARK: weekOverWeekTrend

    @Test func weekOverWeekCountsTheLast7DaysAgainstThe7Before() {
        let trend = Self.insights([E.ago(0), E.ago(3), E.ago(6), E.ago(7), E.ago(13), E.ago(14)]).weekOverWeekTrend()
        #expect(trend.thisWeek == 3 && trend.lastWeek == 2)
        #expect(trend.change == 1 && trend.percentChange == 50)
    }

    @Test func weekOverWeekWithoutLastWeekHasNoPercentage() {
        let trend = Self.insights([E.ago(1), E.ago(2)]).weekOverWeekTrend()
        #expect(trend == WeekComparison(thisWeek: 2, lastWeek: 0) && trend.percentChange == nil)
        #expect(Self.insights([E.ago(8), E.ago(9), E.ago(10)]).weekOverWeekTrend().percentChange == -100)
    }

    // MARK: monthlyHeatmap

    @Test func monthlyHeatmapFillsEveryDayOfTheMonth() {
        let insights = Self.insights([E.entry("2026-02-01"), E.entry("2026-02-28"), E.entry("2026-02-28"), E.entry("2026-03-01")])
        let february = insights.monthlyHeatmap(year: 2026, month: 2)
        #expect(february.count == 28)
        #expect(february.first?.count == 1 && february.last?.count == 2)
        #expect(february.map(\.count).reduce(0, +) == 3)
        #expect(insights.monthlyHeatmap(year: 2028, month: 2).count == 29)
        #expect(insights.monthlyHeatmap(year: 2026, month: 4).count == 30)
        #expect(insights.monthlyHeatmap(year: 2026, month: 13) == [])
    }

    // MARK: coOccurrence

    @Test func coOccurrencePairsWordsOfTheSameDay() {
        let insights = Self.insights([E.ago(0, "idli sambar"), E.ago(0, "coffee"), E.ago(1, "idli, sambar"), E.ago(2, "pizza")])
        let pairs = insights.coOccurrence(.week)
        #expect(pairs.map { "\($0.first)+\($0.second) \($0.count)" } == ["idli+sambar 2", "coffee+idli 1", "coffee+sambar 1"])
    }

    @Test func coOccurrenceCountsADayOnceAndKeepsToThePeriod() {
        let insights = Self.insights([E.ago(0, "rice dal"), E.ago(0, "dal, rice"), E.ago(10, "rice dal")])
        #expect(insights.coOccurrence(.week).first == ItemPair(first: "dal", second: "rice", count: 1))
        #expect(insights.coOccurrence(.month).first == ItemPair(first: "dal", second: "rice", count: 2))
        #expect(insights.coOccurrence(.month, limit: 1).count == 1)
        #expect(Self.insights([E.ago(0, "rice")]).coOccurrence(.week) == [])
    }

    // MARK: A food's timeline

    @Test func entriesMatchingIgnoreCaseAndComeNewestFirst() {
        let entries = [E.ago(5, "Dosa"), E.ago(0, "masala dosa", time: "08:00"), E.ago(0, "DOSAI", time: "19:00"), E.ago(1, "idli")]
        let found = Self.insights(entries).entriesMatching(" dosa ")
        #expect(found.map(\.processedDescription) == ["DOSAI", "masala dosa", "Dosa"])
        #expect(Self.insights(entries).entriesMatching("  ") == [])
    }

    @Test func itemDailyCountsAreGapFilled() {
        let counts = Self.insights([E.ago(0, "poha"), E.ago(0, "poha again"), E.ago(3, "poha"), E.ago(1, "upma")]).itemDailyCounts(for: "poha", .week)
        #expect(counts.map(\.count) == [0, 0, 0, 1, 0, 0, 2])
    }

    @Test func itemMealTimingAndLastEaten() {
        let insights = Self.insights([E.ago(0, "chai", time: "07:30"), E.ago(2, "chai", time: "16:10"), E.ago(1, "coffee", time: "07:00")])
        let timing = insights.itemMealTiming(for: "chai", .week)
        #expect(timing.count == 24 && timing[7].count == 1 && timing[16].count == 1 && timing.map(\.count).reduce(0, +) == 2)
        #expect(insights.lastEaten("coffee") == Self.today.adding(days: -1))
        #expect(insights.lastEaten("tea") == nil)
    }

    @Test func itemWeekdayPatternRunsMondayToSunday() {
        // 9 March 2026 is a Monday, 8 March a Sunday, 4 March a Wednesday.
        let insights = Self.insights([E.entry("2026-03-09", "12:00", "dosa"), E.entry("2026-03-08", "12:00", "dosa"), E.entry("2026-03-08", "12:00", "dosa"), E.entry("2026-03-04", "12:00", "dosa")])
        let pattern = insights.itemWeekdayPattern(for: "dosa", .week)
        #expect(pattern.map(\.weekday) == [1, 2, 3, 4, 5, 6, 7])
        #expect(pattern.map(\.count) == [1, 0, 1, 0, 0, 0, 2])
    }

    // MARK: Records and stats

    @Test func longestStreakEver() {
        let insights = Self.insights(["2026-02-01", "2026-02-02", "2026-02-03", "2026-02-05", "2026-02-06", "2026-02-06"].map { E.entry($0) })
        #expect(insights.longestStreak == 3)
        #expect(Self.insights([]).longestStreak == 0)
    }

    @Test func bestDayIsTheLatestOfEquals() {
        let insights = Self.insights(["2026-02-01", "2026-02-01", "2026-02-03", "2026-02-03", "2026-02-04"].map { E.entry($0) })
        #expect(insights.bestDay == DailyCount(date: Fixtures.date("2026-02-03"), count: 2))
        #expect(Self.insights([]).bestDay == nil)
    }

    @Test func uniqueFoodsOverAllTime() {
        #expect(Self.insights([E.ago(0, "idli sambar"), E.ago(400, "Idli and chutney"), E.ago(2, "the SAMBAR")]).uniqueFoods == 3)
    }

    @Test func currentStreakAndConsistency() {
        let insights = Self.insights([E.ago(0), E.ago(1), E.ago(2), E.ago(4), E.ago(5)])
        #expect(insights.currentStreak.days == 3 && insights.currentStreak.isActiveToday)
        #expect(insights.consistency(.week) == 71)  // 5 of 7 days
        #expect(insights.totalEntries(.week) == 5)
    }

    @Test func todayComesFromTheInstantInTheUsersZone() {
        // 23:30 UTC on 9 March is already 10 March in Berlin.
        let now = Fixtures.utc("2026-03-09T23:30:00Z")
        #expect(JournalInsights(entries: [], now: now, timeZone: Fixtures.zone("Europe/Berlin")).today == Self.today)
        #expect(JournalInsights(entries: [], now: now, timeZone: Fixtures.zone("America/New_York")).today.iso == "2026-03-09")
    }

    @Test func periodLabelsInBothLanguages() {
        #expect(JournalPeriod.allCases.map(\.label) == ["7D", "30D", "3M", "1Y", "All"])
        Strings.$current.withValue(.german) { #expect(JournalPeriod.allTime.label == "Alle") }
    }

    // MARK: More edges

    @Test func aDescriptionOfStopwordsOnlyNamesNoFood() {
        #expect(Self.insights([E.ago(0, "had some of the and a"), E.ago(1, "I ate")]).topItems(.week) == [])
    }

    @Test func theWeeklySummaryDropsWordsShorterThan3() {
        #expect(JournalWords.foods(in: "pb toast, 2 ml oj and tea", minimumLength: JournalWords.summaryMinimumLength) == ["toast", "tea"])
        #expect(JournalWords.foods(in: "pb toast, 2 ml oj and tea") == ["pb", "toast", "ml", "oj", "tea"])
    }

    @Test func categoryDistributionKeepsToThePeriod() {
        let entries = [E.entry("2026-03-10", category: .dinner), E.entry("2026-03-02", category: .dessert)]
        #expect(Self.insights(entries).categoryDistribution(.week).map(\.category) == [.dinner])
        #expect(Self.insights(entries).categoryDistribution(.month).map(\.percentage) == [50, 50])
    }

    @Test func aFoodsTimelineOfAnEmptyTermIsAllZeros() {
        let insights = Self.insights([E.ago(0, "dosa")])
        #expect(insights.itemWeekdayPattern(for: "", .week).map(\.count) == [0, 0, 0, 0, 0, 0, 0])
        #expect(insights.itemDailyCounts(for: " ", .week).map(\.count) == [0, 0, 0, 0, 0, 0, 0])
    }

    @Test func consistencyOfAllTimeWithoutEntries() {
        #expect(Self.insights([]).consistency(.allTime) == 0)
        #expect(Self.insights([E.ago(1)]).consistency(.allTime) == 50)  // yesterday and today
    }
}
