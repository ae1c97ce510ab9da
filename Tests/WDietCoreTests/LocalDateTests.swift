import Foundation
import Testing
import WDietCore
import WDietTestSupport

@Suite("Local dates")
struct LocalDateTests {
    @Test("ISO text round trip and calendar arithmetic", arguments: [
        ("1970-01-01", 0), ("2026-11-22", 20_779), ("2000-02-29", 11_016), ("1969-12-31", -1), ("1906-11-21", -23_052),
        // A year below 1000 keeps its four digits (the day count is Python's proleptic Gregorian calendar's).
        ("0999-12-31", -354_286),
    ])
    func daysSinceEpoch(iso: String, days: Int) throws {
        let date = try #require(LocalDate(iso: iso))
        #expect(date.daysSinceEpoch == days)
        #expect(LocalDate(daysSinceEpoch: days).iso == iso)
    }

    @Test("impossible dates are refused", arguments: ["2026-02-29", "2026-13-01", "2026-04-31", "26-01-01", "2026-1-1", "tomorrow"])
    func refusesImpossibleDates(text: String) {
        #expect(LocalDate(iso: text) == nil)
    }

    @Test("the same instant is a different day in different time zones", arguments: [
        ("2026-03-01T11:30:00Z", "Pacific/Kiritimati", "2026-03-02"),
        ("2026-03-01T11:30:00Z", "Pacific/Pago_Pago", "2026-03-01"),
        ("2026-03-01T10:59:59Z", "Pacific/Pago_Pago", "2026-02-28"),
        ("2026-03-29T21:59:59Z", "Europe/Berlin", "2026-03-29"),
        ("2026-03-29T22:00:00Z", "Europe/Berlin", "2026-03-30"),
        ("2026-10-25T22:59:59Z", "Europe/Berlin", "2026-10-25"),
        ("2026-10-25T23:00:00Z", "Europe/Berlin", "2026-10-26"),
    ])
    func localDay(instant: String, zone: String, expected: String) {
        #expect(LocalDate(Fixtures.utc(instant), in: Fixtures.zone(zone)).iso == expected)
    }

    @Test("a local day starts at local midnight, also on DST days")
    func startInstant() {
        let berlin = Fixtures.zone("Europe/Berlin")
        #expect(Fixtures.date("2026-03-29").startInstant(in: berlin) == Fixtures.utc("2026-03-28T23:00:00Z"))
        #expect(Fixtures.date("2026-03-30").startInstant(in: berlin) == Fixtures.utc("2026-03-29T22:00:00Z"))
        #expect(Fixtures.date("2026-03-02").startInstant(in: Fixtures.zone("Pacific/Kiritimati")) == Fixtures.utc("2026-03-01T10:00:00Z"))
    }

    @Test("age in whole years", arguments: [
        ("2013-11-22", "2026-11-22", 13), ("2013-11-23", "2026-11-22", 12), ("2008-02-29", "2026-02-28", 17), ("2008-02-29", "2026-03-01", 18),
    ])
    func age(birth: String, on: String, years: Int) {
        #expect(Fixtures.date(birth).age(on: Fixtures.date(on)) == years)
    }
}
