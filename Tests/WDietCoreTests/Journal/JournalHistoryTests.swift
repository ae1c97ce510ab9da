import Foundation
import Testing
@testable import WDietCore
import WDietTestSupport

/// `JournalHistory` (the all-time facts a year's insights need without every entry) and the tokeniser's ASCII path,
/// today being Tuesday 10 March 2026.
@Suite("Journal history")
struct JournalHistoryTests {
    typealias E = JournalTestEntries
    static let today = E.today

    /// 1–3 February (3 days), 5–6 February, 9–10 March (today): the longest run is 3, the current one 2.
    static let all = [
        E.entry("2026-02-01", "08:00", "Idli sambar"), E.entry("2026-02-02", "08:00", "idli chutney"),
        E.entry("2026-02-03", "08:00", "dosa"), E.entry("2026-02-03", "13:00", "dosa"), E.entry("2026-02-03", "19:00", "Dosa"),
        E.entry("2026-02-05", "08:00", "upma"), E.entry("2026-02-06", "08:00", "upma"),
        E.entry("2026-03-09", "08:00", "Müsli mit Joghurt"), E.entry("2026-03-10", "08:00", "idli sambar"),
    ]

    @Test func theHistoryOfEntriesCountsDaysAndKeepsEachDescriptionOnce() {
        let history = JournalHistory(entries: Self.all)
        #expect(history.dayCounts.count == 7)
        #expect(history.dayCounts[Fixtures.date("2026-02-03")] == 3)
        #expect(history.dayCounts[Fixtures.date("2026-02-04")] == nil)
        // "dosa" twice and "Dosa" once: two descriptions; "Idli sambar" and "idli sambar" likewise.
        #expect(history.descriptions == ["Idli sambar", "idli chutney", "dosa", "Dosa", "upma", "Müsli mit Joghurt", "idli sambar"])
        #expect(history.streak(today: Self.today) == Streak(days: 2, isActiveToday: true))
    }

    @Test func recordsComeFromTheHistoryNotFromTheEntriesGiven() {
        // The week's entries only (9 and 10 March), with the history of all nine.
        let week = Self.all.filter { $0.date >= Self.today.adding(days: -13) }
        #expect(week.count == 2)
        let insights = JournalInsights(entries: week, history: JournalHistory(entries: Self.all), today: Self.today)
        #expect(insights.longestStreak == 3)
        #expect(insights.bestDay == DailyCount(date: Fixtures.date("2026-02-03"), count: 3))
        // idli, sambar, chutney, dosa, upma, müsli, mit, joghurt.
        #expect(insights.uniqueFoods == 8)
        #expect(insights.currentStreak.days == 2)
        // All time starts at the history's first day, not the first entry given.
        #expect(insights.range(.allTime) == Fixtures.date("2026-02-01")...Self.today)
        // The period's cards come from the entries: this week's 2.
        #expect(insights.totalEntries(.week) == 2)
        #expect(insights.topItems(.week).map(\.name) == ["idli", "joghurt", "mit", "müsli", "sambar"])

        // The same records from the week's entries alone would be the week's.
        let alone = JournalInsights(entries: week, today: Self.today)
        #expect(alone.longestStreak == 2)
        #expect(alone.uniqueFoods == 5)
    }

    @Test func theWeeklySummaryCountsItsStreakOverTheHistory() {
        // 26 February – 10 March every day: 13 days; the week's entries alone give today's week (Mon 9 – Tue 10) and
        // the week before (2–8 March).
        let days = (0...12).map { E.ago($0, "poha") }
        let twoWeeks = days.filter { $0.date >= JournalWeeklySummary.monday(of: Self.today).adding(days: -7) }
        #expect(twoWeeks.count == 9)
        let history = JournalHistory(entries: days)
        #expect(JournalWeeklySummary(entries: twoWeeks, today: Self.today, history: history).streak == 13)
        #expect(JournalWeeklySummary(entries: twoWeeks, today: Self.today).streak == 9)
        #expect(JournalWeeklySummary(entries: days, today: Self.today).streak == 13)
    }

    @Test func theASCIIPathCutsAsTheGeneralOne() {
        let texts = [
            "2 Eggs, TOAST & jam!", "pb toast, 2 ml oj and tea", "I had toast", "Idli.  Sambar\r\nchai", "x1 1x 42 a1b2",
            "had some of the and a", "", "   ", "coffee_and_cake", "tea-time snacks (3)", "AND The WITH",
        ]
        for text in texts {
            for minimum in [JournalWords.insightsMinimumLength, JournalWords.summaryMinimumLength] {
                var general = Set<String>(), expected: [String] = []
                for part in text.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber) }) {
                    let word = String(part)
                    guard word.count >= minimum, !JournalWords.stopwords.contains(word), !word.allSatisfy(\.isNumber) else { continue }
                    if general.insert(word).inserted { expected.append(word) }
                }
                #expect(JournalWords.asciiFoods(in: text, minimumLength: minimum) == expected, "\(text) at \(minimum)")
            }
        }
        #expect(JournalWords.foods(in: "2 Eggs, TOAST & jam!") == ["eggs", "toast", "jam"])
        #expect(JournalWords.foods(in: "x1 1x 42 a1b2") == ["x1", "1x", "a1b2"])
        // Not ASCII: the general path ("Müsli" is one word, not "m" and "sli").
        #expect(JournalWords.asciiFoods(in: "Müsli mit Joghurt", minimumLength: 2) == nil)
        #expect(JournalWords.foods(in: "Müsli mit Joghurt") == ["müsli", "mit", "joghurt"])
    }
}
