import Foundation
import Testing
import WDietCore
import WDietTestSupport

@Suite("Streak")
struct StreakTests {
    static let today = "2026-03-10"

    @Test("consecutive counted days ending today, or yesterday while today has no log", arguments: [
        (["2026-03-08", "2026-03-09", "2026-03-10"], 3, true),
        (["2026-03-07", "2026-03-08", "2026-03-09"], 3, false),
        (["2026-03-08"], 0, false),
        ([], 0, false),
        (["2026-03-10"], 1, true),
        (["2026-03-05", "2026-03-06", "2026-03-08", "2026-03-09", "2026-03-10"], 3, true),
        (["2026-03-11"], 0, false),
    ])
    func length(days: [String], expected: Int, active: Bool) {
        let streak = Streak(loggedDays: days.map(Fixtures.date), today: Fixtures.date(Self.today))
        #expect(streak.days == expected)
        #expect(streak.isActiveToday == active)
    }

    @Test("from the latest run the store reads (newest first): the run counts when it ends today or yesterday", arguments: [
        (["2026-03-10", "2026-03-09", "2026-03-08"], 3, true),
        (["2026-03-09", "2026-03-08", "2026-03-07"], 3, false),
        (["2026-03-08", "2026-03-07"], 0, false),
        ([], 0, false),
        (["2026-03-10"], 1, true),
    ])
    func fromLatestRun(run: [String], expected: Int, active: Bool) {
        let streak = Streak(latestRun: run.map(Fixtures.date), today: Fixtures.date(Self.today))
        #expect(streak.days == expected)
        #expect(streak.isActiveToday == active)
    }

    @Test("milestones at 7, 14 and 28 days", arguments: [(6, nil), (7, 7), (8, nil), (14, 14), (28, 28), (29, nil)] as [(Int, Int?)])
    func milestones(days: Int, milestone: Int?) {
        let end = Fixtures.date(Self.today)
        let logged = (0..<days).map { end.adding(days: -$0) }
        let streak = Streak(loggedDays: logged, today: end)
        #expect(streak.days == days)
        #expect(streak.milestoneReached == milestone)
        #expect(streak.label == "\(days) day streak")
    }

    @Test("a day is a day in the user's time zone: logs at 23:30 and 00:30 UTC are two days in UTC, one in New York")
    func daysInUserTimeZone() {
        let logs = [Fixtures.utc("2026-03-09T23:30:00Z"), Fixtures.utc("2026-03-10T00:30:00Z")]
        let utcDays = Set(logs.map { LocalDate($0, in: Fixtures.zone("UTC")) })
        let newYorkDays = Set(logs.map { LocalDate($0, in: Fixtures.zone("America/New_York")) })
        #expect(utcDays == [Fixtures.date("2026-03-09"), Fixtures.date("2026-03-10")])
        #expect(newYorkDays == [Fixtures.date("2026-03-09")])
        #expect(Streak(loggedDays: utcDays, today: Fixtures.date("2026-03-10")).days == 2)
        #expect(Streak(loggedDays: newYorkDays, today: Fixtures.date("2026-03-09")).days == 1)
        // The next New York evening is still "today has no log yet", not a broken streak.
        #expect(Streak(loggedDays: newYorkDays, today: Fixtures.date("2026-03-10")).days == 1)
    }
}
