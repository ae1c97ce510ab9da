import Testing
import WDietCore
import WDietTestSupport

@Suite("Profile confirmations: 001 §3 and §12")
struct ProfileConfirmationTests {
    static let today = Fixtures.date("2026-01-04")
    static let saved = Fixtures.profile(heightCm: 175, weightKg: 95)

    static func proposed(_ edit: (inout Profile) -> Void) -> Profile {
        var p = saved
        edit(&p)
        return p
    }

    @Test("height change over 5 cm asks; exactly 5 does not")
    func heightChange() {
        #expect(ProfileConfirmation.needed(saved: Self.saved, proposed: Self.proposed { $0.heightCm = 181 }, today: Self.today) == [.largeHeightChange(deltaCm: 6)])
        #expect(ProfileConfirmation.needed(saved: Self.saved, proposed: Self.proposed { $0.heightCm = 170 }, today: Self.today).isEmpty)
    }

    @Test("001's example: 95 → 83 kg is a 12 kg change; 95 → 85 (exactly 10) is not")
    func weightChange() {
        #expect(ProfileConfirmation.needed(saved: Self.saved, proposed: Self.proposed { $0.weightKg = 83 }, today: Self.today) == [.largeWeightChange(deltaKg: -12)])
        #expect(ProfileConfirmation.needed(saved: Self.saved, proposed: Self.proposed { $0.weightKg = 85 }, today: Self.today).isEmpty)
    }

    @Test("date of birth and goal changes always ask")
    func dateOfBirthAndGoal() {
        let p = Self.proposed {
            $0.dateOfBirth = Fixtures.date("1994-06-15")
            $0.goal = .maintain
        }
        #expect(ProfileConfirmation.needed(saved: Self.saved, proposed: p, today: Self.today) == [
            .dateOfBirthChange(from: Fixtures.date("1995-06-15"), to: Fixtures.date("1994-06-15")),
            .goalChange(from: .lose, to: .maintain),
        ])
    }

    @Test("extreme values: height outside 80–250 cm, weight outside 30–200 kg", arguments: [
        (265.0, 95.0, [ProfileConfirmation.extremeHeight(cm: 265)]),
        (79.9, 95, [.extremeHeight(cm: 79.9)]),
        (175, 25, [.extremeWeight(kg: 25)]),
        (175, 200.1, [.extremeWeight(kg: 200.1)]),
        (80, 30, []), (250, 200, []),
    ])
    func extremes(cm: Double, kg: Double, expected: [ProfileConfirmation]) {
        let p = Fixtures.profile(heightCm: cm, weightKg: kg)
        #expect(ProfileConfirmation.needed(saved: nil, proposed: p, today: Self.today) == expected)
    }

    @Test("001's example: losing 20 kg by 1 March (8 weeks) needs 2.5 kg/week; 20 weeks is safe")
    func unrealisticLoss() throws {
        let timeline = try #require(Timeline(currentKg: 95, targetKg: 75, targetDate: Fixtures.date("2026-03-01"), today: Self.today))
        #expect(timeline.requiredKgPerWeek == 2.5)
        #expect(!timeline.isRealistic)
        #expect(timeline.recommendedWeeks == 20)
        #expect(timeline.recommendedDate == Fixtures.date("2026-05-24"))
        #expect(timeline.safeWeeksRange == 20...40)
        let p = Self.proposed {
            $0.targetWeightKg = 75
            $0.targetDate = Fixtures.date("2026-03-01")
        }
        #expect(ProfileConfirmation.needed(saved: nil, proposed: p, today: Self.today) == [.unrealisticTimeline(timeline)])
    }

    @Test("the safe limits: 1 kg/week to lose, 0.5 kg/week to gain", arguments: [
        (95.0, 87.0, "2026-03-01", true), // 8 kg in 8 weeks: 1.0
        (95, 86.9, "2026-03-01", false), // 8.1 kg: 1.0125
        (60, 64, "2026-03-01", true), // gain 4 kg in 8 weeks: 0.5
        (60, 64.1, "2026-03-01", false), // 0.5125
    ])
    func safeLimits(current: Double, target: Double, date: String, realistic: Bool) throws {
        let timeline = try #require(Timeline(currentKg: current, targetKg: target, targetDate: Fixtures.date(date), today: Self.today))
        #expect(timeline.isRealistic == realistic)
    }

    @Test("gaining 3 kg is safe in 6 weeks at the soonest")
    func gainRecommendation() throws {
        let timeline = try #require(Timeline(currentKg: 60, targetKg: 63, targetDate: Fixtures.date("2026-02-01"), today: Self.today))
        #expect(!timeline.isRealistic)
        #expect(timeline.recommendedWeeks == 6)
        #expect(timeline.safeWeeksRange == 6...12)
    }

    @Test("a timeline or an extreme value already saved is not asked again; editing one of its inputs asks again")
    func confirmedOnce() throws {
        var heavy = Self.saved
        heavy.weightKg = 210
        heavy.heightCm = 255
        heavy.targetWeightKg = 180
        heavy.targetDate = Fixtures.date("2026-02-01")  // 30 kg in 4 weeks
        var meals = heavy
        meals.mealsPerDay = 5
        #expect(ProfileConfirmation.needed(saved: heavy, proposed: meals, today: Self.today).isEmpty)

        var lighter = meals
        lighter.weightKg = 209
        let timeline = try #require(Timeline(currentKg: 209, targetKg: 180, targetDate: Fixtures.date("2026-02-01"), today: Self.today))
        #expect(ProfileConfirmation.needed(saved: heavy, proposed: lighter, today: Self.today) == [
            .unrealisticTimeline(timeline), .extremeWeight(kg: 209),
        ])
        var later = meals
        later.targetDate = Fixtures.date("2026-02-08")
        #expect(ProfileConfirmation.needed(saved: heavy, proposed: later, today: Self.today).map { if case .unrealisticTimeline = $0 { true } else { false } } == [true])
        var taller = meals
        taller.heightCm = 256
        #expect(ProfileConfirmation.needed(saved: heavy, proposed: taller, today: Self.today) == [.extremeHeight(cm: 256)])
    }
}
