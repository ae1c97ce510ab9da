import Foundation
import Testing

@Suite("wdiet plan")
struct PlanCommandTests {
    struct Plan: Decodable {
        var bmr: Int, tdee: Int, calories: Int, protein: Int, carbs: Int, fat: Int, water: Int
        var phase: String?, dayOfPhase: Int?, nextSwitch: String?, notes: [String]
    }

    static let man = ["plan", "--sex", "male", "--age", "30", "--height-cm", "180", "--weight-kg", "80", "--activity", "moderate"]

    @Test("the worked example: day 15 of a plan started 2026-01-01, both deficit settings", arguments: [
        ("500", 2_259, 224), ("study", 1_849, 122),
    ])
    func workedExample(deficit: String, calories: Int, carbs: Int) async throws {
        let out = try await CLI.run(Self.man + ["--goal", "lose", "--start", "2026-01-01", "--on", "2026-01-15", "--deficit", deficit, "--json"])
        #expect(out.status == 0)
        #expect(out.stderr.isEmpty)
        let plan = try JSONDecoder().decode(Plan.self, from: Data(out.stdout.utf8))
        #expect(plan.bmr == 1_780)
        #expect(plan.tdee == 2_759)
        #expect(plan.phase == "diet")
        #expect(plan.dayOfPhase == 1)
        #expect(plan.nextSwitch == "2026-01-29")
        #expect(plan.calories == calories)
        #expect(plan.protein == 160)
        #expect(plan.fat == 80)
        #expect(plan.carbs == carbs)
        #expect(plan.water == 2_800)
    }

    @Test("text output names the phase the way the dashboard does")
    func textOutput() async throws {
        let out = try await CLI.run(Self.man + ["--goal", "lose", "--start", "2026-01-01", "--on", "2026-01-03"])
        #expect(out.status == 0)
        #expect(out.stdout.contains("Day 3 of 14 · Maintenance phase"))
        #expect(out.stdout.contains("Calories   2,759 kcal"))
    }

    @Test("a floor that binds is said so")
    func floorNote() async throws {
        let out = try await CLI.run([
            "plan", "--sex", "female", "--age", "40", "--height-cm", "155", "--weight-kg", "50", "--activity", "sedentary",
            "--goal", "lose", "--start", "2026-01-01", "--on", "2026-01-20", "--json",
        ])
        let plan = try JSONDecoder().decode(Plan.self, from: Data(out.stdout.utf8))
        #expect(plan.calories == 1_200)
        #expect(plan.notes.count == 1)
        #expect(plan.notes.first?.contains("safe minimum") == true)
    }

    @Test("bad input: one line on stderr, nothing on stdout, a non-zero exit", arguments: [
        (["--goal", "lose", "--age", "12"], "wdiet: You must be at least 13 years old to use w-diet"),
        (["--goal", "lose", "--age", "121"], "wdiet: Please enter a valid date of birth"),
        (["--goal", "lose", "--height-cm", "49"], "wdiet: Height must be at least 50 cm (1'8\")"),
        (["--goal", "lose", "--weight-kg", "501"], "wdiet: Weight must be less than 500 kg (1102 lbs)"),
        (["--goal", "lose", "--on", "2026-02-30"], "wdiet: --on must be a date as YYYY-MM-DD, not '2026-02-30'"),
        (["--goal", "shred"], "wdiet: The value 'shred' is invalid for '--goal <goal>'. Please provide one of 'lose', 'maintain' or 'gain'."),
        (["--goal", "lose", "--time-zone", "Mars/Base"], "wdiet: Unknown time zone 'Mars/Base' (expected an IANA name such as Europe/Berlin)"),
    ])
    func badInput(arguments: [String], message: String) async throws {
        // Later options override the defaults of `man`.
        var args = Self.man
        var i = 0
        while i < arguments.count {
            if let at = args.firstIndex(of: arguments[i]) { args[at + 1] = arguments[i + 1] } else { args += [arguments[i], arguments[i + 1]] }
            i += 2
        }
        let out = try await CLI.run(args)
        #expect(out.status != 0)
        #expect(out.stdout.isEmpty)
        #expect(out.stderrLines == [Substring(message)])
    }
}
