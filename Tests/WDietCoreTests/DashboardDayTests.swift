import Foundation
import Testing
import WDietCore
import WDietTestSupport

@Suite("Dashboard day")
struct DashboardDayTests {
    @Test("day 15 in Berlin at 12:00: diet phase, targets from yesterday's 79.5 kg (today's 79 kg counts from tomorrow), totals, ring, smileys, streak, weight card")
    func worked() {
        let profile = Fixtures.profile()
        let now = Fixtures.utc("2026-01-15T11:00:00Z") // 12:00 CET
        let meals = [
            Meal(name: "Eggs", kcal: 400, protein: 40, carbs: 10, fat: 20, loggedAt: Fixtures.utc("2026-01-15T07:30:00Z")),
            Meal(name: "Chicken bowl", kcal: 850, protein: 85, carbs: 90, fat: 15, loggedAt: Fixtures.utc("2026-01-15T10:45:00Z")),
        ]
        let weights = [80.0, 79.9, 79.8, 79.7, 79.6, 79.5, 79.0].enumerated().map { day, kg in
            WeightEntry(kg: kg, loggedAt: Fixtures.utc("2026-01-09T06:00:00Z").addingTimeInterval(Double(day) * 86_400))
        }
        let weightDays = WeightHistory.days(weights, in: profile.timeZone)
        let logged = Set((0..<14).map { Fixtures.date("2026-01-02").adding(days: $0) })
        let day = DashboardDay.compute(profile: profile, day: Fixtures.date("2026-01-15"), meals: meals, weightDays: weightDays, loggedDays: logged, now: now)

        #expect(day.date == Fixtures.date("2026-01-15"))
        #expect(day.targets.cycle?.label == "Day 1 of 14 · Diet phase")
        // The latest weight before today began is the 14th's 79.5 kg: BMR 795 + 1,125 − 150 + 5 = 1,775, TDEE 2,751.25,
        // diet 2,251.25 → 2,251; protein 159, fat 80 (79.5 rounded), carbs (2,251 − 636 − 720) / 4 = 223.
        #expect(day.targets.calories == 2_251)
        #expect(day.targets.proteinGrams == 159)
        #expect(day.targets.carbsGrams == 223)
        // Today's 79.0 kg moves them at midnight: "Your plan will be updated tomorrow".
        #expect(day.planUpdatesOn == Fixtures.date("2026-01-16"))
        #expect(day.totals.kcal == 1_250)
        #expect(abs(day.ring.totalKcal - 1_250) < 1e-9)
        // Protein 125/159 g = 79 %, carbs 100/223 g = 45 %, fat 35/80 g = 44 %.
        #expect(day.macros.map(\.smiley) == [.happy, .sad, .sad])
        #expect(day.macros.map(\.label) == ["125/159g", "100/223g", "35/80g"])
        #expect(day.streak.days == 14)
        #expect(day.streak.milestoneReached == 14)
        #expect(day.fireCoach == .strong)
        #expect(day.weightCard.todayKg == 79.0)
        // Average of the 7 values 557.5 / 7 = 79.64: "↓ -0.6"; against the day before's 79.75 the trend is stable.
        #expect(day.weightCard.belowAverageKg == -0.6)
        #expect(day.weightCard.trend == .stable)
        #expect(!day.showsWeightPrompt)
        #expect(day.windowPlacementNow == .inside)
    }

    @Test("a new user's first morning: 0 cal, grey streak, weight prompt, gentle coach")
    func firstDay() {
        let profile = Fixtures.profile(planStart: "2026-01-15")
        let day = DashboardDay.compute(profile: profile, day: Fixtures.date("2026-01-15"), meals: [], weightDays: [], loggedDays: [], now: Fixtures.utc("2026-01-15T08:00:00Z"))
        #expect(day.totals.kcal == 0)
        #expect(day.ring.arcs.isEmpty)
        #expect(day.macros.allSatisfy { $0.smiley == nil })
        #expect(day.streak == Streak(days: 0, isActiveToday: false))
        #expect(day.showsWeightPrompt)
        #expect(day.fireCoach == .gentle)
        #expect(day.targets.cycle?.label == "Day 1 of 14 · Maintenance phase")
        #expect(day.windowPlacementNow == .outside) // 09:00 in Berlin
    }

    @Test("a past day: its own meals, weight and streak as it stood, its own MATADOR day, no now, no prompt")
    func pastDay() {
        let profile = Fixtures.profile()
        let now = Fixtures.utc("2026-01-15T11:00:00Z") // 12:00 CET on the 15th
        let meals = [Meal(name: "Pasta", kcal: 700, protein: 30, carbs: 100, fat: 20, loggedAt: Fixtures.utc("2026-01-12T11:30:00Z"))]
        let weights = [80.0, 79.9, 79.8, 79.7, 79.6, 79.5, 79.0].enumerated().map { day, kg in
            WeightEntry(kg: kg, loggedAt: Fixtures.utc("2026-01-09T06:00:00Z").addingTimeInterval(Double(day) * 86_400))
        }
        let logged = Set((0..<14).map { Fixtures.date("2026-01-02").adding(days: $0) })
        let day = DashboardDay.compute(
            profile: profile, day: Fixtures.date("2026-01-12"), meals: meals,
            weightDays: WeightHistory.days(weights, in: profile.timeZone), loggedDays: logged, now: now
        )
        #expect(day.date == Fixtures.date("2026-01-12"))
        #expect(!day.isToday)
        #expect(day.totals.kcal == 700)
        // The 12th's weight, 79.7, against the mean of the 9th–12th (319.4 / 4 = 79.85); no trend before 7 values.
        #expect(day.weightCard.todayKg == 79.7)
        #expect(abs((day.weightCard.averageKg ?? 0) - 79.85) < 1e-9)
        #expect(day.weightCard.trend == nil)
        // The 2nd through the 12th: 11 days, the 12th counts.
        #expect(day.streak == Streak(days: 11, isActiveToday: true))
        #expect(day.targets.cycle?.label == "Day 12 of 14 · Maintenance phase")
        #expect(day.windowPlacementNow == nil)
        #expect(!day.showsWeightPrompt)
        #expect(day.planUpdatesOn == nil)

        let today = DashboardDay.compute(
            profile: profile, day: Fixtures.date("2026-01-15"), meals: [], weightDays: [], loggedDays: logged, now: now
        )
        #expect(today.isToday)
        #expect(today.windowPlacementNow == .inside)
    }
}
