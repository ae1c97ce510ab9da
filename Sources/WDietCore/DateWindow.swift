import Foundation

/// The days the product accepts (issue 21 item 7): a plan start in year 0 or 9999 was saved, and
/// `/plan?date=9999-12-31` answered a BMR of −38,411 (an age of 7,973 years). Every day a person or client sends is
/// within `accepted`; a plan's start is within `planStart(today:)`. Stricter rules stay where they are (a date of
/// birth for ages 13–120, a target date up to two years ahead, a journal day from 1900 through tomorrow, a day page
/// a year back through today).
public enum DateWindow {
    /// 1900-01-01 through 2100-12-31: any day a date parameter or member may name.
    public static let accepted = LocalDate(year: 1900, month: 1, day: 1)!...LocalDate(year: 2100, month: 12, day: 31)!
    /// The earliest plan start: the coach's formulas and the MATADOR cycle assume a plan of this century.
    public static let earliestPlanStart = LocalDate(year: 2000, month: 1, day: 1)!

    /// 2000-01-01 through a year after `today` (a plan may be set to start soon, not in years).
    public static func planStart(today: LocalDate) -> ClosedRange<LocalDate> {
        earliestPlanStart...max(earliestPlanStart, today.adding(days: 366))
    }

    /// The local days `instant` falls on somewhere: from UTC−12 to UTC+14, the zones in use (issue 21 item 9: an
    /// import took a meal's `localDate` as it came, even one no time zone gives its `loggedAt`).
    public static func possibleLocalDays(of instant: Date) -> ClosedRange<LocalDate> {
        LocalDate(instant, in: TimeZone(secondsFromGMT: -12 * 3_600)!)...LocalDate(instant, in: TimeZone(secondsFromGMT: 14 * 3_600)!)
    }

    /// "The planStartDate must be a day from 2000-01-01 to 2027-03-02." in the reader's language.
    public static func message(member: String, range: ClosedRange<LocalDate>) -> String {
        Strings.current("input.dateOutOfRange", ["name": member, "from": range.lowerBound.iso, "to": range.upperBound.iso])
    }
}
