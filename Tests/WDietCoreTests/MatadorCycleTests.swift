import Testing
import WDietCore
import WDietTestSupport

@Suite("MATADOR cycle")
struct MatadorCycleTests {
    let cycle = MatadorCycle(planStart: Fixtures.date("2026-01-01"))

    @Test("phase, day of 14, cycle number and next switch", arguments: [
        ("2026-01-01", MatadorCycle.Phase.maintenance, 1, 1, 1, "2026-01-15"),
        ("2026-01-07", .maintenance, 7, 7, 1, "2026-01-15"),
        ("2026-01-14", .maintenance, 14, 14, 1, "2026-01-15"),
        ("2026-01-15", .diet, 1, 15, 1, "2026-01-29"),
        ("2026-01-28", .diet, 14, 28, 1, "2026-01-29"),
        ("2026-01-29", .maintenance, 1, 29, 2, "2026-02-12"),
        ("2026-02-12", .diet, 1, 43, 2, "2026-02-26"),
        ("2026-02-26", .maintenance, 1, 57, 3, "2026-03-12"),
        ("2026-12-31", .maintenance, 1, 365, 14, "2027-01-14"),
    ])
    func status(date: String, phase: MatadorCycle.Phase, dayOfPhase: Int, dayOfPlan: Int, cycleNumber: Int, nextSwitch: String) throws {
        let s = try #require(cycle.status(on: Fixtures.date(date)))
        #expect(s.phase == phase)
        #expect(s.dayOfPhase == dayOfPhase)
        #expect(s.dayOfPlan == dayOfPlan)
        #expect(s.cycleNumber == cycleNumber)
        #expect(s.nextSwitchDate == Fixtures.date(nextSwitch))
    }

    @Test func labels() throws {
        #expect(try #require(cycle.status(on: Fixtures.date("2026-01-03"))).label == "Day 3 of 14 · Maintenance phase")
        #expect(try #require(cycle.status(on: Fixtures.date("2026-01-20"))).label == "Day 6 of 14 · Diet phase")
    }

    @Test("no status before the plan starts")
    func beforeStart() {
        #expect(cycle.status(on: Fixtures.date("2025-12-31")) == nil)
    }

    @Test("Week 1, the first phase switch and the first complete cycle")
    func milestones() throws {
        #expect(try #require(cycle.status(on: Fixtures.date("2026-01-07"))).isWeekOne)
        #expect(try !#require(cycle.status(on: Fixtures.date("2026-01-08"))).isWeekOne)
        #expect(try #require(cycle.status(on: Fixtures.date("2026-01-15"))).isPhaseSwitchDay)
        #expect(try !#require(cycle.status(on: Fixtures.date("2026-01-01"))).isPhaseSwitchDay)
        #expect(try #require(cycle.status(on: Fixtures.date("2026-01-28"))).completesFirstCycle)
        #expect(try !#require(cycle.status(on: Fixtures.date("2026-02-25"))).completesFirstCycle)
    }

    @Test("phase calories: maintenance is TDEE; diet is TDEE − 500 or 67 % of TDEE", arguments: [
        ("2026-01-10", DeficitSetting.minus500, 2_759.0),
        ("2026-01-10", .studyProtocol, 2_759.0),
        ("2026-01-20", .minus500, 2_259.0),
        ("2026-01-20", .studyProtocol, 1_848.53),
    ])
    func phaseCalories(date: String, deficit: DeficitSetting, kcal: Double) throws {
        let s = try #require(cycle.status(on: Fixtures.date(date)))
        #expect(abs(s.calories(tdee: 2_759, deficit: deficit) - kcal) < 1e-9)
    }

    @Test("phases switch at local midnight, across a DST change and far from UTC", arguments: [
        // Berlin: Day 14 is 2026-03-29, the day clocks go forward; Day 15 starts at 00:00 CEST = 22:00Z.
        ("2026-03-16", "Europe/Berlin", "2026-03-29T21:59:59Z", MatadorCycle.Phase.maintenance, 14),
        ("2026-03-16", "Europe/Berlin", "2026-03-29T22:00:00Z", .diet, 1),
        // Berlin in autumn: 2026-10-25 has 25 hours; Day 15 starts at 00:00 CET = 23:00Z.
        ("2026-10-12", "Europe/Berlin", "2026-10-25T22:59:59Z", .maintenance, 14),
        ("2026-10-12", "Europe/Berlin", "2026-10-25T23:00:00Z", .diet, 1),
        // Kiritimati is UTC+14: its 2026-01-15 begins at 2026-01-14T10:00Z.
        ("2026-01-01", "Pacific/Kiritimati", "2026-01-14T09:59:59Z", .maintenance, 14),
        ("2026-01-01", "Pacific/Kiritimati", "2026-01-14T10:00:00Z", .diet, 1),
        // Pago Pago is UTC−11: its 2026-01-15 begins at 2026-01-15T11:00Z.
        ("2026-01-01", "Pacific/Pago_Pago", "2026-01-15T10:59:59Z", .maintenance, 14),
        ("2026-01-01", "Pacific/Pago_Pago", "2026-01-15T11:00:00Z", .diet, 1),
    ])
    func switchesAtLocalMidnight(start: String, zone: String, instant: String, phase: MatadorCycle.Phase, day: Int) throws {
        let s = try #require(MatadorCycle(planStart: Fixtures.date(start)).status(at: Fixtures.utc(instant), in: Fixtures.zone(zone)))
        #expect(s.phase == phase)
        #expect(s.dayOfPhase == day)
    }
}
