import Foundation
import Testing
@testable import WDietCore

/// "Seed Demo Data": the same 12 weeks for everyone, relative to the week it is made in, and valid under every rule.
@Suite("Challenge demo data")
struct ChallengeDemoDataTests {
    static let user = UUID(uuidString: "0190A0B1-0000-7000-8000-0000000000AA")!
    static let now = Date(timeIntervalSince1970: 1_796_000_000)

    @Test("week 12 of 17 whatever the weekday: every day before today logged, a weigh-in a week (week 3's late), today open",
          arguments: [0, 2, 6])
    func shape(_ weekday: Int) throws {
        // Monday 1 March 2027 plus 0, 2 or 6 days.
        let today = LocalDate(year: 2027, month: 3, day: 1)!.adding(days: weekday)
        let rows = ChallengeDemoData.rows(userId: Self.user, today: today, now: Self.now)
        #expect(rows.challenge.startDate == LocalDate(year: 2026, month: 12, day: 14)!)
        #expect(rows.challenge.currentWeek(today: today) == 12)
        #expect(rows.challenge.id == ChallengeDemoData.challengeId(userId: Self.user))
        let days = 77 + weekday
        #expect(rows.nutrition.count == days && rows.habits.count == days)
        #expect(rows.nutrition.last?.date == today.adding(days: -1))
        // Weigh-ins on the Mondays before today (week 12's only once its Monday has passed); week 3's on the Tuesday.
        #expect(rows.weighIns.count == (weekday == 0 ? 11 : 12))
        #expect(rows.weighIns.first { $0.week == 3 }?.isLate(in: rows.challenge) == true)
        #expect(rows.weighIns.filter { $0.week != 3 }.allSatisfy { !$0.isLate(in: rows.challenge) })
        for row in rows.all { try row.validate() }
        // Every day is within the challenge and not after today (the API's and the client's day rule).
        for log in rows.nutrition { try rows.challenge.checkDay(log.date, today: today) }
    }

    @Test("deterministic: the same numbers for every user and every seeding; only the ids differ")
    func deterministic() {
        let today = LocalDate(year: 2027, month: 3, day: 3)!
        let first = ChallengeDemoData.rows(userId: Self.user, today: today, now: Self.now)
        let again = ChallengeDemoData.rows(userId: Self.user, today: today, now: Self.now)
        let other = ChallengeDemoData.rows(userId: UUID(), today: today, now: Self.now)
        #expect(first.nutrition == again.nutrition && first.weighIns == again.weighIns && first.habits == again.habits)
        #expect(first.nutrition.map(\.kcal) == other.nutrition.map(\.kcal))
        #expect(first.weighIns.map(\.kg) == other.weighIns.map(\.kg))
        #expect(first.challenge.id != other.challenge.id)
        // About one day in ten skipped, never a day with neither a log nor a skip.
        let skipped = first.nutrition.filter { $0.status == .skipped }.count
        #expect(skipped >= 3 && skipped <= 15, "\(skipped)")
        // The story it tells: weight down from 92 kg, insights to read.
        let data = ChallengeData(challenge: first.challenge, nutrition: first.nutrition, workouts: first.workouts, habits: first.habits,
                                 weighIns: first.weighIns)
        #expect((data.latestWeight(today: today)?.kg ?? 99) < 88)
        let kinds = Set(ChallengeInsights.of(data, today: today, matador: nil).map(\.kind))
        #expect(kinds.isSuperset(of: [.nutritionDays, .workouts, .towardGoal]), "\(kinds)")
    }
}
