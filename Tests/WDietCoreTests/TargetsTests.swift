import Testing
import WDietCore
import WDietTestSupport

@Suite("Targets: BMR, TDEE, calories, floors, macros, water")
struct TargetsTests {
    @Test("Mifflin-St Jeor BMR", arguments: [
        (Sex.male, 80.0, 180.0, 30, 1_780.0),
        (.female, 60, 165, 25, 1_345.25),
        (.other, 70, 170, 40, 1_484.5),
        (.female, 50, 155, 40, 1_107.75),
    ])
    func bmr(sex: Sex, kg: Double, cm: Double, age: Int, expected: Double) {
        #expect(Targets.bmr(sex: sex, weightKg: kg, heightCm: cm, age: age) == expected)
    }

    @Test("TDEE multipliers on a BMR of 1,780", arguments: [
        (ActivityLevel.sedentary, 2_136.0), (.light, 2_447.5), (.moderate, 2_759.0), (.very, 3_070.5), (.extreme, 3_382.0),
    ])
    func tdee(activity: ActivityLevel, expected: Double) {
        let targets = Targets.compute(profile: Fixtures.profile(goal: .maintain, activity: activity), latestWeightKg: nil, on: Fixtures.date("2026-01-01"))
        #expect(abs(targets.tdee - expected) < 1e-9)
        #expect(targets.calories == Int(expected.rounded()))
    }

    @Test("000's worked macro split: 80 kg at 1,900 kcal → 160 g protein, 80 g fat, 135 g carbs")
    func macroSplitExample() {
        let m = Targets.macroGrams(calories: 1_900, weightKg: 80, goal: .lose)
        #expect(m.protein == 160)
        #expect(m.fat == 80)
        #expect(m.carbs == 135)
    }

    @Test("carbs are never negative")
    func carbsNeverNegative() {
        #expect(Targets.macroGrams(calories: 1_200, weightKg: 150, goal: .gain).carbs == 0)
    }

    /// 80 kg, 180 cm, 30 years, male, moderately active: BMR 1,780, TDEE 2,759.
    @Test("calories, protein, fat, carbs and water by goal and phase", arguments: [
        (Goal.lose, "2026-01-01", DeficitSetting.minus500, 2_759, 160, 80, 349),
        (.lose, "2026-01-14", .minus500, 2_759, 160, 80, 349),
        (.lose, "2026-01-15", .minus500, 2_259, 160, 80, 224),
        (.lose, "2026-01-15", .studyProtocol, 1_849, 160, 80, 122),
        (.lose, "2026-01-29", .minus500, 2_759, 160, 80, 349),
        (.maintain, "2026-01-15", .minus500, 2_759, 128, 80, 381),
        (.gain, "2026-01-15", .minus500, 3_009, 176, 80, 396),
    ])
    func byGoalAndPhase(goal: Goal, on date: String, deficit: DeficitSetting, kcal: Int, protein: Int, fat: Int, carbs: Int) {
        let t = Targets.compute(profile: Fixtures.profile(goal: goal, deficit: deficit), latestWeightKg: nil, on: Fixtures.date(date))
        #expect(t.calories == kcal)
        #expect(t.proteinGrams == protein)
        #expect(t.fatGrams == fat)
        #expect(t.carbsGrams == carbs)
        #expect(t.waterMl == 2_800)
        #expect(!t.floorApplied)
        #expect((t.cycle != nil) == (goal == .lose))
    }

    @Test("the latest logged weight drives the targets: 80 → 79 kg drops protein from 160 to 158 g")
    func latestWeightWins() {
        let t = Targets.compute(profile: Fixtures.profile(), latestWeightKg: 79, on: Fixtures.date("2026-01-15"))
        #expect(t.proteinGrams == 158)
        #expect(t.fatGrams == 79)
        #expect(t.bmr == 1_770)
        #expect(t.calories == 2_244) // 1,770 × 1.55 − 500 = 2,243.5
        #expect(t.waterMl == 2_765)
    }

    @Test("the floor: max(BMR, 1,200 kcal for women, 1,500 for men and other)", arguments: [
        // 50 kg, 155 cm, 40, sedentary woman: TDEE 1,329.3, diet 829.3 → 1,200.
        (Sex.female, 50.0, 155.0, "1986-01-01", ActivityLevel.sedentary, DeficitSetting.minus500, 1_200),
        // Same man-sized rule for "other": 50 kg, 160 cm, 30: BMR 1,272, TDEE 1,526.4, diet 1,026.4 → 1,500.
        (.other, 50, 160, "1995-06-15", .sedentary, .minus500, 1_500),
        // 120 kg, 190 cm, 25-year-old man: BMR 2,267.5 binds over TDEE−500 = 2,221.
        (.male, 120, 190, "2000-06-15", .sedentary, .minus500, 2_268),
        // The study's 67 %: 0.67 × 2,721 = 1,823 < BMR 2,267.5.
        (.male, 120, 190, "2000-06-15", .sedentary, .studyProtocol, 2_268),
    ])
    func floorBinds(sex: Sex, kg: Double, cm: Double, birth: String, activity: ActivityLevel, deficit: DeficitSetting, kcal: Int) {
        let profile = Fixtures.profile(dateOfBirth: birth, sex: sex, heightCm: cm, weightKg: kg, activity: activity, deficit: deficit)
        let t = Targets.compute(profile: profile, latestWeightKg: nil, on: Fixtures.date("2026-01-15"))
        #expect(t.cycle?.phase == .diet)
        #expect(t.calories == kcal)
        #expect(t.floorApplied)
    }

    @Test("the floor does not bind in a maintenance phase above it")
    func floorIdleAtMaintenance() {
        let profile = Fixtures.profile(dateOfBirth: "1986-01-01", sex: .female, heightCm: 155, weightKg: 50, activity: .sedentary)
        let t = Targets.compute(profile: profile, latestWeightKg: nil, on: Fixtures.date("2026-01-01"))
        #expect(t.calories == 1_329)
        #expect(!t.floorApplied)
    }

    @Test("under 18 with goal Lose gets a maintenance plan with no deficit")
    func underageGetsMaintenance() {
        // 16-year-old boy, 70 kg, 175 cm, moderate: BMR 1,718.75, TDEE 2,664.06.
        let profile = Fixtures.profile(dateOfBirth: "2009-06-01", heightCm: 175, weightKg: 70)
        let diet = Targets.compute(profile: profile, latestWeightKg: nil, on: Fixtures.date("2026-01-15"))
        #expect(diet.calories == 2_664)
        #expect(diet.cycle == nil)
        #expect(diet.underageMaintenance)
        #expect(diet.proteinGrams == 140)
        let adult = Targets.compute(profile: Fixtures.profile(dateOfBirth: "2008-01-01", heightCm: 175, weightKg: 70), latestWeightKg: nil, on: Fixtures.date("2026-01-15"))
        #expect(!adult.underageMaintenance)
        #expect(adult.cycle?.phase == .diet)
    }

    @Test("before the plan starts there is no cycle and the target is maintenance")
    func beforePlanStart() {
        let t = Targets.compute(profile: Fixtures.profile(), latestWeightKg: nil, on: Fixtures.date("2025-12-31"))
        #expect(t.cycle == nil)
        #expect(t.calories == 2_759)
    }
}
