import Foundation
import Testing
import WDietCore
import WDietTestSupport

/// "A day's targets are that day's" (PRODUCT.md, Coach — rules and "current weight"): the target inputs in force when
/// the day began and the latest weight logged before it began. The Fixtures man: 30, 180 cm, 80 kg, male, plan from
/// 2026-01-01 in Berlin. Mifflin-St Jeor at 80 kg: 800 + 1,125 − 150 + 5 = 1,780 kcal.
@Suite("Day targets: the inputs and the weight as they stood when the day began")
struct DayTargetsTests {
    static let losing = Fixtures.profile()
    static let veryActive = Fixtures.profile(activity: .very)
    static let maintaining = Fixtures.profile(goal: .maintain, activity: .very)

    /// Moderately active and losing until 15 Feb, when he became very active (saved at 15:00); maintaining from a
    /// save at 15:00 yesterday, 28 Feb. Built the way the stores build it, save by save.
    static func history() -> PlanHistory {
        let first = PlanHistory.afterSaving(veryActive, over: losing, history: PlanHistory(), at: Fixtures.utc("2026-02-15T14:00:00Z"))
        return PlanHistory.afterSaving(maintaining, over: veryActive, history: first, at: Fixtures.utc("2026-02-28T14:00:00Z"))
    }

    @Test("two changes kept, oldest first, each with the inputs its day began with")
    func historyOfTwoChanges() {
        let history = Self.history()
        #expect(history.changes == [
            PlanChange(previous: Self.losing.targetInputs, changedOn: Fixtures.date("2026-02-15")),
            PlanChange(previous: Self.veryActive.targetInputs, changedOn: Fixtures.date("2026-02-28")),
        ])
        #expect(history.latest?.effectiveDate == Fixtures.date("2026-03-01"))
        #expect(history.earlier.count == 1)
    }

    @Test("a change two weeks ago and another yesterday give each day its own targets", arguments: [
        // Plan day 41, maintenance (Days 29–42), moderately active: 1,780 × 1.55 = 2,759; protein 2.0 × 80.
        ("2026-02-10", 2_759, 160, "Day 13 of 14 · Maintenance phase"),
        // The day of the first change keeps the inputs it began with: day 46, diet, 2,759 − 500.
        ("2026-02-15", 2_259, 160, "Day 4 of 14 · Diet phase"),
        // Very active from the 16th: 1,780 × 1.725 = 3,070.5; day 51 is a diet day: 2,570.5 → 2,571.
        ("2026-02-20", 2_571, 160, "Day 9 of 14 · Diet phase"),
        // Yesterday, the day of the second change: still losing (maintenance phase, day 59): 3,070.5 → 3,071.
        ("2026-02-28", 3_071, 160, "Day 3 of 14 · Maintenance phase"),
        // Today: maintaining, very active: 3,071 kcal and protein 1.6 × 80 = 128 g, no cycle.
        ("2026-03-01", 3_071, 128, nil),
    ])
    func threeDaysThreeTargets(day: String, kcal: Int, protein: Int, phase: String?) {
        let targets = Targets.of(day: Fixtures.date(day), profile: Self.maintaining, history: Self.history(), weightBeforeDayKg: nil)
        #expect(targets.calories == kcal)
        #expect(targets.proteinGrams == protein)
        #expect(targets.cycle?.label == phase)
    }

    @Test("a weight logged at 08:00 today leaves today on the previous weight and moves tomorrow")
    func weightLoggedTodayCountsFromTomorrow() {
        let zone = Self.maintaining.timeZone
        let weights = [
            WeightEntry(kg: 79.0, loggedAt: Fixtures.utc("2026-02-27T06:30:00Z")),
            WeightEntry(kg: 78.0, loggedAt: Fixtures.utc("2026-03-01T07:00:00Z")),  // 08:00 in Berlin today
        ]
        let daily = WeightHistory.currentPerDay(weights, in: zone)
        let today = Fixtures.date("2026-03-01"), tomorrow = Fixtures.date("2026-03-02")
        #expect(Targets.latestWeight(before: today, in: daily) == 79.0)
        #expect(Targets.latestWeight(before: tomorrow, in: daily) == 78.0)
        #expect(Targets.latestWeight(before: Fixtures.date("2026-02-27"), in: daily) == nil)

        // Today at 79 kg: BMR 1,770 × 1.725 = 3,053.25 → 3,053; protein 1.6 × 79 = 126.4 → 126; water 2,765 ml.
        let todays = Targets.of(day: today, profile: Self.maintaining, history: Self.history(), weightBeforeDayKg: 79.0)
        #expect(todays.calories == 3_053)
        #expect(todays.proteinGrams == 126)
        #expect(todays.waterMl == 2_765)
        // Tomorrow at 78 kg: BMR 1,760 × 1.725 = 3,036; protein 124.8 → 125; water 2,730 ml.
        let tomorrows = Targets.of(day: tomorrow, profile: Self.maintaining, history: Self.history(), weightBeforeDayKg: 78.0)
        #expect(tomorrows.calories == 3_036)
        #expect(tomorrows.proteinGrams == 125)
        #expect(tomorrows.waterMl == 2_730)

        // The dashboard of today agrees, and says the plan moves tomorrow.
        let day = DashboardDay.compute(
            profile: Self.maintaining, planHistory: Self.history(), day: today, meals: [],
            weightDays: WeightHistory.days(weights, in: zone), loggedDays: [], now: Fixtures.utc("2026-03-01T09:00:00Z")
        )
        #expect(day.targets == todays)
        #expect(day.weightCard.todayKg == 78.0)
        #expect(day.planUpdatesOn == tomorrow)
        // Viewed on a later day, 1 March is still 1 March: its own targets, no notice.
        let later = DashboardDay.compute(
            profile: Self.maintaining, planHistory: Self.history(), day: today, meals: [],
            weightDays: WeightHistory.days(weights, in: zone), loggedDays: [], now: Fixtures.utc("2026-03-05T09:00:00Z")
        )
        #expect(later.targets == todays)
        #expect(later.planUpdatesOn == nil)
    }

    @Test("a weight equal to the one in use moves nothing: no notice")
    func sameWeightNoNotice() {
        let zone = Self.losing.timeZone
        let weights = [
            WeightEntry(kg: 80.0, loggedAt: Fixtures.utc("2026-02-27T06:30:00Z")),
            WeightEntry(kg: 80.0, loggedAt: Fixtures.utc("2026-03-01T07:00:00Z")),
        ]
        let day = DashboardDay.compute(
            profile: Self.losing, day: Fixtures.date("2026-03-01"), meals: [], weightDays: WeightHistory.days(weights, in: zone),
            loggedDays: [], now: Fixtures.utc("2026-03-01T09:00:00Z")
        )
        #expect(day.planUpdatesOn == nil)
    }

    @Test("edits on one day keep earlier days' changes; an edit back to the day's inputs removes only the day's change")
    func sameDayEditsKeepHistory() {
        let history = Self.history()
        // Later yesterday, back to losing (very active): the day began with those inputs, so its change goes.
        let back = PlanHistory.afterSaving(Self.veryActive, over: Self.maintaining, history: history, at: Fixtures.utc("2026-02-28T18:00:00Z"))
        #expect(back.changes == [PlanChange(previous: Self.losing.targetInputs, changedOn: Fixtures.date("2026-02-15"))])
        // A retried identical save changes nothing.
        #expect(PlanHistory.afterSaving(Self.maintaining, over: Self.maintaining, history: history, at: Fixtures.utc("2026-03-01T10:00:00Z")) == history)
        // A first profile has no history.
        #expect(PlanHistory.afterSaving(Self.losing, over: nil, history: history, at: Fixtures.utc("2026-03-01T10:00:00Z")).isEmpty)
        // A field that does not move the targets (the eating window) adds no change.
        var window = Self.maintaining
        window.eatingWindow = EatingWindow(startMinute: 11 * 60)!
        #expect(PlanHistory.afterSaving(window, over: Self.maintaining, history: history, at: Fixtures.utc("2026-03-01T10:00:00Z")) == history)
    }
}
