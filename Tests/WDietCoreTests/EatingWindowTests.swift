import Testing
import WDietCore
import WDietTestSupport

@Suite("Eating window")
struct EatingWindowTests {
    @Test("the default window is 12:00–18:00")
    func defaultWindow() {
        #expect(EatingWindow.default.startMinute == 720)
        #expect(EatingWindow.default.endMinute == 1_080)
        #expect(EatingWindow.default.label == "12:00–18:00")
    }

    @Test("the start moves in 30-minute steps", arguments: [
        ("12:00", 720), ("06:30", 390), ("00:00", 0), ("23:30", 1_410),
    ])
    func validStarts(text: String, minute: Int) {
        #expect(EatingWindow(start: text)?.startMinute == minute)
    }

    @Test("other starts are refused", arguments: ["12:15", "24:00", "7", "ab:cd", "-1:00"])
    func invalidStarts(text: String) {
        #expect(EatingWindow(start: text) == nil)
    }

    @Test("a meal inside, within the 2-hour grace, or outside 12:00–18:00", arguments: [
        ("12:00", EatingWindow.Placement.inside), ("15:00", .inside), ("18:00", .inside),
        ("18:01", .grace), ("20:00", .grace), ("20:01", .outside),
        ("11:59", .grace), ("10:00", .grace), ("09:59", .outside), ("00:00", .outside), ("23:00", .outside),
    ])
    func defaultWindowPlacement(time: String, placement: EatingWindow.Placement) {
        #expect(EatingWindow.default.placement(ofMinute: minute(time)) == placement)
    }

    @Test("a window across midnight, 21:00–03:00", arguments: [
        ("23:30", EatingWindow.Placement.inside), ("02:00", .inside), ("03:00", .inside),
        ("04:30", .grace), ("05:00", .grace), ("05:01", .outside), ("19:00", .grace), ("18:59", .outside), ("12:00", .outside),
    ])
    func windowAcrossMidnight(time: String, placement: EatingWindow.Placement) throws {
        let window = try #require(EatingWindow(start: "21:00"))
        #expect(window.endMinute == 180)
        #expect(window.placement(ofMinute: minute(time)) == placement)
    }

    @Test("a meal's time is read in the user's time zone", arguments: [
        ("2026-03-29T10:30:00Z", "Europe/Berlin", EatingWindow.Placement.inside), // 12:30 CEST
        ("2026-03-28T10:30:00Z", "Europe/Berlin", .grace), // 11:30 CET, the day before the change
        ("2026-03-01T22:30:00Z", "Pacific/Kiritimati", .inside), // 12:30 next day
        ("2026-03-01T12:30:00Z", "Pacific/Kiritimati", .outside), // 02:30
    ])
    func instantPlacement(instant: String, zone: String, placement: EatingWindow.Placement) {
        #expect(EatingWindow.default.placement(of: Fixtures.utc(instant), in: Fixtures.zone(zone)) == placement)
    }

    private func minute(_ text: String) -> Int {
        let parts = text.split(separator: ":").compactMap { Int($0) }
        return parts[0] * 60 + parts[1]
    }
}
