import ArgumentParser
import Foundation
import WDietCore

extension Sex: ExpressibleByArgument {}
extension ActivityLevel: ExpressibleByArgument {}
extension Goal: ExpressibleByArgument {}

/// `wdiet plan`: a person's targets on a date, straight from the coach's rules.
struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Compute BMR, TDEE, the MATADOR phase and the calorie, macro and water targets for a date."
    )

    enum Deficit: String, ExpressibleByArgument, CaseIterable {
        case minus500 = "500"
        case study

        var setting: DeficitSetting { self == .minus500 ? .minus500 : .studyProtocol }
    }

    @Option(help: "male, female or other") var sex: Sex
    @Option(help: "Age in years (13–120).") var age: Int
    @Option(name: .customLong("height-cm"), help: "Height in cm (50–300).") var heightCm: Double
    @Option(name: .customLong("weight-kg"), help: "Current weight in kg (20–500).") var weightKg: Double
    @Option(help: "sedentary, light, moderate, very or extreme") var activity: ActivityLevel
    @Option(help: "lose, maintain or gain") var goal: Goal
    @Option(help: "Day 1 of the plan, YYYY-MM-DD (default: the --on date).") var start: String?
    @Option(help: "The date to compute, YYYY-MM-DD (default: today).") var on: String?
    @Option(help: "Diet-phase deficit: 500 (TDEE − 500 kcal) or study (67 % of TDEE).") var deficit: Deficit = .minus500
    @Option(name: .customLong("time-zone"), help: "IANA time zone for \"today\" (default: this machine's).") var timeZone: String?
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let zone = try resolvedTimeZone()
        let date = try parseDate(on, option: "--on") ?? LocalDate(Date(), in: zone)
        let startDate = try parseDate(start, option: "--start") ?? date
        try check(ProfileValidator.heightRangeCm.contains(heightCm) || heightCm.isNaN, heightCm < 50 ? ProfileValidator.Message.heightTooLow : ProfileValidator.Message.heightTooHigh)
        try check(ProfileValidator.weightRangeKg.contains(weightKg), weightKg < 20 ? ProfileValidator.Message.weightTooLow : ProfileValidator.Message.weightTooHigh)
        try check(age >= ProfileValidator.ageRange.lowerBound, ProfileValidator.Message.tooYoung)
        try check(age <= ProfileValidator.ageRange.upperBound, ProfileValidator.Message.tooOld)
        guard let dateOfBirth = LocalDate(year: date.year - age, month: date.month, day: min(date.day, 28)) else {
            throw ValidationError(ProfileValidator.Message.tooOld)
        }
        let profile = Profile(
            dateOfBirth: dateOfBirth, sex: sex, heightCm: heightCm, weightKg: weightKg, goal: goal, activity: activity,
            timeZoneIdentifier: zone.identifier, planStartDate: startDate, deficit: deficit.setting
        )
        let targets = Targets.compute(profile: profile, latestWeightKg: nil, on: date)
        let plan = PlanOutput(date: date, targets: targets, goal: goal, weightKg: weightKg)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(plan), as: UTF8.self))
        } else {
            print(plan.text)
        }
    }

    private func check(_ condition: Bool, _ message: String) throws {
        if !condition { throw ValidationError(message) }
    }

    private func parseDate(_ text: String?, option: String) throws -> LocalDate? {
        guard let text else { return nil }
        guard let date = LocalDate(iso: text) else { throw ValidationError("\(option) must be a date as YYYY-MM-DD, not '\(text)'") }
        return date
    }

    private func resolvedTimeZone() throws -> TimeZone {
        guard let timeZone else { return .current }
        guard let zone = TimeZone(identifier: timeZone) else { throw ValidationError("Unknown time zone '\(timeZone)' (expected an IANA name such as Europe/Berlin)") }
        return zone
    }
}

/// What `wdiet plan` prints: the same `PlanSummary` the API serves, plus notes a person reads.
struct PlanOutput: Encodable {
    var summary: PlanSummary
    var notes: [String]

    init(date: LocalDate, targets t: Targets, goal: Goal, weightKg: Double) {
        summary = PlanSummary(date: date, targets: t, weightKg: weightKg, goal: goal, planUpdatesOn: nil)
        notes = []
        if t.underageMaintenance {
            notes.append("Under 18: a maintenance plan with no deficit. Growing bodies need their energy.")
        }
        if t.floorApplied {
            notes.append("Calories raised to the safe minimum (your BMR, and at least 1,200 kcal for women or 1,500 kcal for men and other).")
        }
        if goal == .lose, t.cycle == nil, !t.underageMaintenance {
            notes.append("The plan has not started on this date: maintenance calories.")
        }
    }

    private enum CodingKeys: String, CodingKey { case notes }

    /// The summary's members and `notes`, side by side in one object.
    func encode(to encoder: Encoder) throws {
        try summary.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(notes, forKey: .notes)
    }

    var text: String {
        let s = summary
        var lines = [
            "Date       \(s.date)",
            "BMR        \(grouped(s.bmr)) kcal",
            "TDEE       \(grouped(s.tdee)) kcal",
        ]
        if let label = s.phaseLabel, let dayOfPlan = s.dayOfPlan, let cycle = s.cycle, let nextSwitch = s.nextSwitch {
            lines.append("Phase      \(label) (plan day \(dayOfPlan), cycle \(cycle), next switch \(nextSwitch))")
        }
        lines += [
            "Calories   \(grouped(s.calories)) kcal",
            "Protein    \(s.protein) g",
            "Carbs      \(s.carbs) g",
            "Fat        \(s.fat) g",
            "Water      \(grouped(s.water)) ml",
        ]
        lines += notes.map { "Note       \($0)" }
        return lines.joined(separator: "\n")
    }

    /// 2759 → "2,759", whatever the machine's locale.
    private func grouped(_ n: Int) -> String {
        let digits = String(n)
        var out = ""
        for (i, c) in digits.reversed().enumerated() {
            if i > 0, i % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return String(out.reversed())
    }
}
