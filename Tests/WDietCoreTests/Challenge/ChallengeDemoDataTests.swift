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

    @Test("a photo a week before today, on its Monday (week 5's on the Wednesday: late), named by ids derived from the user",
          arguments: [(0, 11), (1, 12), (6, 12)])
    func photos(_ weekday: Int, _ count: Int) throws {
        // Monday 1 March 2027 plus 0, 1 or 6 days: week 12's photo only once its Monday has passed.
        let today = LocalDate(year: 2027, month: 3, day: 1)!.adding(days: weekday)
        let rows = ChallengeDemoData.rows(userId: Self.user, today: today, now: Self.now)
        let days = ChallengeDemoData.photoDays(today: today)
        #expect(days.map(\.week) == Array(1...count))
        #expect(days.first?.takenOn == LocalDate(year: 2026, month: 12, day: 14)!)
        #expect(days.first { $0.week == 5 }?.takenOn == LocalDate(year: 2027, month: 1, day: 13)!)  // Wednesday of week 5
        for (week, takenOn) in days {
            let photo = ChallengeDemoData.photo(userId: Self.user, week: week, takenOn: takenOn, now: Self.now)
            try photo.validate()
            #expect(photo.id == ChallengeIds.photo(challengeId: rows.challenge.id, week: week))
            #expect(photo.mediaId == ChallengeDemoData.photoMediaId(userId: Self.user, week: week))
            #expect(photo.isLate(in: rows.challenge) == (week == 5), "\(week)")
        }
        // Another user's demo names other items; the same user's the same ones every time.
        #expect(ChallengeDemoData.photoMediaId(userId: UUID(), week: 1) != ChallengeDemoData.photoMediaId(userId: Self.user, week: 1))
        #expect(Set((1...17).map { ChallengeDemoData.photoMediaId(userId: Self.user, week: $0) }).count == 17)
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
