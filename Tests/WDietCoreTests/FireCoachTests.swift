import Testing
import WDietCore
import WDietTestSupport

@Suite("Fire coach")
struct FireCoachTests {
    static let cycle = MatadorCycle(planStart: Fixtures.date("2026-01-01"))

    @Test("🔥 default, 🔥🤓 education, 🔥💪 milestones, 🔥😌 Week 1 and onboarding", arguments: [
        (false, false, 3, "2026-01-10", FireCoach.standard),
        (true, false, 7, "2026-01-03", .education),
        (false, true, 0, "2026-01-01", .gentle),
        (false, false, 2, "2026-01-05", .gentle),
        (false, false, 7, "2026-01-05", .strong), // a milestone beats Week 1
        (false, false, 14, "2026-01-20", .strong),
        (false, false, 3, "2026-01-28", .strong), // Day 28: first cycle complete
        (false, false, 8, "2026-01-12", .standard),
    ])
    func variant(education: Bool, onboarding: Bool, streakDays: Int, date: String, expected: FireCoach) {
        let status = Self.cycle.status(on: Fixtures.date(date))
        let coach = FireCoach.variant(
            onEducationPage: education, inOnboarding: onboarding,
            streak: Streak(days: streakDays, isActiveToday: true), cycle: status
        )
        #expect(coach == expected)
        #expect(coach.rawValue.hasPrefix("🔥"))
    }
}
