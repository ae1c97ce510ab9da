import Foundation
import Testing
import WDietCore
import WDietTestSupport

/// "Changes apply tomorrow": the Fixtures man (30, 180 cm, 80 kg, moderately active, plan from 2026-01-01) is in
/// his diet phase on 2026-01-20 (plan day 20): BMR 1,780, TDEE 2,759, 2,259 kcal while losing, 2,759 maintaining.
@Suite("Plan change: profile changes that alter targets apply at the next local midnight")
struct PlanChangeTests {
    static let losing = Fixtures.profile()
    static let maintaining = Fixtures.profile(goal: .maintain)
    /// 15:00 in Berlin on 2026-01-20.
    static let afternoon = Fixtures.utc("2026-01-20T14:00:00Z")

    static func calories(_ profile: Profile, _ change: PlanChange?, on date: String) -> Int {
        let day = Fixtures.date(date)
        let forTargets = change?.profile(forTargetsOn: day, current: profile) ?? profile
        return Targets.compute(profile: forTargets, latestWeightKg: nil, on: day).calories
    }

    @Test("lose → maintain saved at 15:00 Berlin on 2026-01-20: the diet phase's 2,259 kcal hold that day, 2,759 from the 21st", arguments: [
        ("2026-01-20", 2_259), ("2026-01-21", 2_759), ("2026-01-28", 2_759),
    ])
    func goalChangeWaitsForMidnight(date: String, kcal: Int) throws {
        let change = try #require(PlanChange.afterSaving(Self.maintaining, over: Self.losing, pending: nil, at: Self.afternoon))
        #expect(change == PlanChange(previous: Self.losing.targetInputs, changedOn: Fixtures.date("2026-01-20")))
        #expect(change.effectiveDate == Fixtures.date("2026-01-21"))
        #expect(Self.calories(Self.maintaining, change, on: date) == kcal)
    }

    /// The day of a change, its first day of new targets and the instant they begin, in the zone of the saved profile.
    @Test("the change applies at the next local midnight, not UTC's", arguments: [
        // 15:00 in Berlin (CET, UTC+1).
        ("Europe/Berlin", "2026-01-20T14:00:00Z", "2026-01-20", "2026-01-20T23:00:00Z"),
        // 00:30 on the 21st in Berlin, still the 20th in UTC.
        ("Europe/Berlin", "2026-01-20T23:30:00Z", "2026-01-21", "2026-01-21T23:00:00Z"),
        // 23:30 on the 20th in Kiritimati (UTC+14): the new plan starts 30 minutes later, at 10:00 UTC.
        ("Pacific/Kiritimati", "2026-01-20T09:30:00Z", "2026-01-20", "2026-01-20T10:00:00Z"),
        // 00:30 on the 21st in Kiritimati while UTC is at 10:30 on the 20th: it waits for Kiritimati's next midnight.
        ("Pacific/Kiritimati", "2026-01-20T10:30:00Z", "2026-01-21", "2026-01-21T10:00:00Z"),
        // 23:30 on the 19th in Pago Pago (UTC−11), already the 20th in UTC.
        ("Pacific/Pago_Pago", "2026-01-20T10:30:00Z", "2026-01-19", "2026-01-20T11:00:00Z"),
        // The night the clocks go forward in Berlin: midnight of the 29th is still CET...
        ("Europe/Berlin", "2026-03-28T11:00:00Z", "2026-03-28", "2026-03-28T23:00:00Z"),
        // ...and midnight of the 30th is CEST.
        ("Europe/Berlin", "2026-03-29T11:00:00Z", "2026-03-29", "2026-03-29T22:00:00Z"),
    ])
    func nextLocalMidnight(zone: String, savedAt: String, changedOn: String, effectiveAt: String) throws {
        let before = Fixtures.profile(timeZone: zone), after = Fixtures.profile(goal: .maintain, timeZone: zone)
        let change = try #require(PlanChange.afterSaving(after, over: before, pending: nil, at: Fixtures.utc(savedAt)))
        #expect(change.changedOn == Fixtures.date(changedOn))
        #expect(change.effectiveDate == Fixtures.date(changedOn).adding(days: 1))
        #expect(change.effectiveInstant(in: after.timeZone) == Fixtures.utc(effectiveAt))
        #expect(change.isPending(on: Fixtures.date(changedOn)))
        #expect(!change.isPending(on: change.effectiveDate))
    }

    @Test("two edits in one day keep the inputs the day began with: 2,259 today, maintain and very active (3,071) tomorrow")
    func twoEditsInOneDay() throws {
        let first = try #require(PlanChange.afterSaving(Self.maintaining, over: Self.losing, pending: nil, at: Self.afternoon))
        let veryActive = Fixtures.profile(goal: .maintain, activity: .very)
        let second = try #require(PlanChange.afterSaving(
            veryActive, over: Self.maintaining, pending: first, at: Self.afternoon.addingTimeInterval(3 * 3_600)
        ))
        #expect(second.previous == Self.losing.targetInputs)
        #expect(second.changedOn == Fixtures.date("2026-01-20"))
        #expect(Self.calories(veryActive, second, on: "2026-01-20") == 2_259)
        // 1,780 × 1.725 = 3,070.5.
        #expect(Self.calories(veryActive, second, on: "2026-01-21") == 3_071)
    }

    @Test("an edit that restores the day's inputs cancels the waiting change")
    func revertedSameDay() throws {
        let first = try #require(PlanChange.afterSaving(Self.maintaining, over: Self.losing, pending: nil, at: Self.afternoon))
        let back = PlanChange.afterSaving(Self.losing, over: Self.maintaining, pending: first, at: Self.afternoon.addingTimeInterval(600))
        #expect(back == nil)
        #expect(Self.calories(Self.losing, back, on: "2026-01-21") == 2_259)
    }

    @Test("an edit on a later day starts from the change that has applied")
    func editOnALaterDay() throws {
        let first = try #require(PlanChange.afterSaving(Self.maintaining, over: Self.losing, pending: nil, at: Self.afternoon))
        let gaining = Fixtures.profile(goal: .gain)
        let next = try #require(PlanChange.afterSaving(gaining, over: Self.maintaining, pending: first, at: Self.afternoon.addingTimeInterval(86_400)))
        #expect(next == PlanChange(previous: Self.maintaining.targetInputs, changedOn: Fixtures.date("2026-01-21")))
        #expect(Self.calories(gaining, next, on: "2026-01-21") == 2_759)
        #expect(Self.calories(gaining, next, on: "2026-01-22") == 3_009)
    }

    @Test("a first profile applies at once")
    func firstProfile() {
        let change = PlanChange.afterSaving(Self.losing, over: nil, pending: nil, at: Self.afternoon)
        #expect(change == nil)
        #expect(Self.calories(Self.losing, change, on: "2026-01-20") == 2_259)
    }

    @Test("an identical save (a retried upload) changes nothing, whatever waited")
    func identicalSave() throws {
        let first = try #require(PlanChange.afterSaving(Self.maintaining, over: Self.losing, pending: nil, at: Self.afternoon))
        #expect(PlanChange.afterSaving(Self.maintaining, over: Self.maintaining, pending: first, at: Self.afternoon) == first)
        // Days later the change has applied; it stays as it was, and no longer waits.
        let later = Self.afternoon.addingTimeInterval(5 * 86_400)
        #expect(PlanChange.afterSaving(Self.maintaining, over: Self.maintaining, pending: first, at: later) == first)
        #expect(PlanChange.afterSaving(Self.losing, over: Self.losing, pending: nil, at: later) == nil)
    }

    struct Edit: Sendable, CustomTestStringConvertible {
        var name: String
        var apply: @Sendable (inout Profile) -> Void
        var testDescription: String { name }
    }

    @Test("fields that schedule or display the plan apply at once", arguments: [
        Edit(name: "time zone") { $0.timeZoneIdentifier = "Pacific/Kiritimati" },
        Edit(name: "eating window") { $0.eatingWindow = EatingWindow(startMinute: 8 * 60) ?? .default },
        Edit(name: "units") { $0.weightUnit = .lb; $0.heightUnit = .ftIn },
        Edit(name: "dietary tags") { $0.dietaryPreferences = ["Vegan"]; $0.allergies = ["Peanuts"] },
        Edit(name: "meals per day") { $0.mealsPerDay = 5 },
        Edit(name: "target weight and date") { $0.targetWeightKg = 75; $0.targetDate = Fixtures.date("2026-06-01") },
    ])
    func appliesAtOnce(edit: Edit) {
        var edited = Self.losing
        edit.apply(&edited)
        #expect(edited != Self.losing)
        #expect(PlanChange.afterSaving(edited, over: Self.losing, pending: nil, at: Self.afternoon) == nil)
    }

    @Test("fields that the targets read wait for midnight", arguments: [
        Edit(name: "date of birth") { $0.dateOfBirth = Fixtures.date("1985-06-15") },
        Edit(name: "sex") { $0.sex = .female },
        Edit(name: "height") { $0.heightCm = 175 },
        Edit(name: "weight") { $0.weightKg = 85 },
        Edit(name: "goal") { $0.goal = .gain },
        Edit(name: "activity") { $0.activity = .sedentary },
        Edit(name: "deficit setting") { $0.deficit = .studyProtocol },
        Edit(name: "plan start date") { $0.planStartDate = Fixtures.date("2026-01-21") },
    ])
    func waitsForMidnight(edit: Edit) throws {
        var edited = Self.losing
        edit.apply(&edited)
        let change = try #require(PlanChange.afterSaving(edited, over: Self.losing, pending: nil, at: Self.afternoon))
        let today = Fixtures.date("2026-01-20")
        #expect(change.profile(forTargetsOn: today, current: edited) == Self.losing)
        #expect(Targets.compute(profile: change.profile(forTargetsOn: today, current: edited), latestWeightKg: nil, on: today)
            != Targets.compute(profile: edited, latestWeightKg: nil, on: today))
        #expect(change.profile(forTargetsOn: today.adding(days: 1), current: edited) == edited)
    }

    /// A new `Profile` field has to be placed on one side or the other; this fails until it is.
    @Test("every profile field is either a target input or applies at once")
    func everyFieldIsClassified() {
        let targetInputs: Set = ["dateOfBirth", "sex", "heightCm", "weightKg", "goal", "activity", "deficit", "planStartDate"]
        let immediate: Set = [
            "targetWeightKg", "targetDate", "dietaryPreferences", "allergies", "mealsPerDay", "timeZoneIdentifier",
            "eatingWindow", "weightUnit", "heightUnit",
            // Words beside "other" (001 §3): shown, never calculated with.
            "genderDescription",
        ]
        let fields = Set(Mirror(reflecting: Self.losing).children.compactMap(\.label))
        #expect(fields == targetInputs.union(immediate))
        #expect(Set(Mirror(reflecting: Self.losing.targetInputs).children.compactMap(\.label)) == targetInputs)
    }

    @Test("setting the target inputs leaves the other fields alone")
    func settingTargetInputs() {
        var profile = Fixtures.profile(timeZone: "Asia/Tokyo")
        profile.mealsPerDay = 5
        profile.targetInputs = Fixtures.profile(sex: .female, heightCm: 160, goal: .gain).targetInputs
        #expect(profile.sex == .female && profile.heightCm == 160 && profile.goal == .gain)
        #expect(profile.timeZoneIdentifier == "Asia/Tokyo" && profile.mealsPerDay == 5)
    }

    @Test("moving east past midnight with a change waiting: it is already tomorrow there, so the change applies")
    func zoneChangeEastward() throws {
        let first = try #require(PlanChange.afterSaving(Self.maintaining, over: Self.losing, pending: nil, at: Self.afternoon))
        // 16:00 in Berlin is 05:00 on the 21st in Kiritimati.
        let moved = Fixtures.profile(goal: .maintain, timeZone: "Pacific/Kiritimati")
        let change = PlanChange.afterSaving(moved, over: Self.maintaining, pending: first, at: Self.afternoon.addingTimeInterval(3_600))
        #expect(change == nil)
        #expect(Self.calories(moved, change, on: "2026-01-21") == 2_759)
    }

    @Test("moving west with a change waiting: it waits for the next midnight of the new zone")
    func zoneChangeWestward() throws {
        let losing = Fixtures.profile(timeZone: "Pacific/Kiritimati"), maintaining = Fixtures.profile(goal: .maintain, timeZone: "Pacific/Kiritimati")
        // 00:30 on the 21st in Kiritimati.
        let first = try #require(PlanChange.afterSaving(maintaining, over: losing, pending: nil, at: Fixtures.utc("2026-01-20T10:30:00Z")))
        #expect(first.changedOn == Fixtures.date("2026-01-21"))
        // Fifteen minutes later in UTC, where it is still the 20th.
        let moved = Fixtures.profile(goal: .maintain, timeZone: "UTC")
        let change = try #require(PlanChange.afterSaving(moved, over: maintaining, pending: first, at: Fixtures.utc("2026-01-20T10:45:00Z")))
        #expect(change == PlanChange(previous: losing.targetInputs, changedOn: Fixtures.date("2026-01-20")))
        #expect(change.effectiveInstant(in: moved.timeZone) == Fixtures.utc("2026-01-21T00:00:00Z"))
    }

    @Test("the notice names the day: tomorrow at midnight, or the date", arguments: [
        ("2026-11-22", "2026-11-22", "Your plan will be updated tomorrow at midnight (Mon 23 Nov)"),
        ("2026-11-22", "2026-11-21", "Your plan will be updated starting Mon 23 Nov"),
        ("2026-11-22", "2026-11-23", nil),
        ("2026-11-22", "2026-12-01", nil),
    ] as [(String, String, String?)])
    func notice(changedOn: String, today: String, expected: String?) {
        let change = PlanChange(previous: Self.losing.targetInputs, changedOn: Fixtures.date(changedOn))
        #expect(change.notice(today: Fixtures.date(today)) == expected)
    }

    @Test("short day labels", arguments: [
        ("1970-01-01", "Thu 1 Jan"), ("1969-12-31", "Wed 31 Dec"), ("2024-02-29", "Thu 29 Feb"),
        ("2026-02-28", "Sat 28 Feb"), ("2026-11-23", "Mon 23 Nov"),
    ])
    func shortLabel(date: String, label: String) {
        #expect(Fixtures.date(date).shortLabel == label)
    }

    @Test("the dashboard keeps today's targets, says when they change, and a weight logged today waits for midnight too")
    func dashboard() throws {
        let change = try #require(PlanChange.afterSaving(Self.maintaining, over: Self.losing, pending: nil, at: Self.afternoon))
        let history = PlanHistory([change])
        let evening = Fixtures.utc("2026-01-20T19:00:00Z")
        let today = DashboardDay.compute(profile: Self.maintaining, planHistory: history, day: Fixtures.date("2026-01-20"), meals: [], weightDays: [], loggedDays: [], now: evening)
        #expect(today.targets.calories == 2_259)
        #expect(today.targets.cycle?.label == "Day 6 of 14 · Diet phase")
        #expect(today.planUpdatesOn == Fixtures.date("2026-01-21"))

        // 79 kg logged this evening leaves today on the profile's 80 kg (2,259 kcal, protein 160 g); tomorrow, maintaining
        // at 79 kg: BMR 1,770, TDEE 2,743.5 → 2,744 kcal, protein 1.6 × 79 = 126 g.
        let weighed = WeightHistory.days([WeightEntry(kg: 79, loggedAt: evening)], in: Self.maintaining.timeZone)
        let afterWeighing = DashboardDay.compute(profile: Self.maintaining, planHistory: history, day: Fixtures.date("2026-01-20"), meals: [], weightDays: weighed, loggedDays: [], now: evening)
        #expect(afterWeighing.targets.calories == 2_259)
        #expect(afterWeighing.targets.proteinGrams == 160)
        #expect(afterWeighing.weightCard.todayKg == 79)

        // 00:30 on the 21st in Berlin.
        let tomorrow = DashboardDay.compute(profile: Self.maintaining, planHistory: history, day: Fixtures.date("2026-01-21"), meals: [], weightDays: weighed, loggedDays: [], now: Fixtures.utc("2026-01-20T23:30:00Z"))
        #expect(tomorrow.targets.calories == 2_744)
        #expect(tomorrow.targets.proteinGrams == 126)
        #expect(tomorrow.targets.cycle == nil)
        #expect(tomorrow.planUpdatesOn == nil)
    }
}
