import Foundation

/// A calendar day with no time zone attached: the unit of every "day" rule (streaks, MATADOR phases,
/// daily totals). Instants become local dates only through `LocalDate(_:in:)`, with the user's time zone.
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01 (which is 0). Stored this way so that day arithmetic is integer arithmetic.
    public let daysSinceEpoch: Int

    public init(daysSinceEpoch: Int) {
        self.daysSinceEpoch = daysSinceEpoch
    }

    /// Returns nil for impossible dates such as 2026-02-30.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= LocalDate.daysIn(month: month, year: year) else { return nil }
        daysSinceEpoch = LocalDate.days(year: year, month: month, day: day)
    }

    /// Parses `YYYY-MM-DD`. Reads bytes rather than splitting strings: stores parse a date per row.
    public init?(iso text: String) {
        var text = text
        let parsed: (Int, Int, Int)? = text.withUTF8 { bytes in
            guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
            func number(_ range: Range<Int>) -> Int? {
                var value = 0
                for index in range {
                    let digit = Int(bytes[index]) - 48
                    guard (0...9).contains(digit) else { return nil }
                    value = value * 10 + digit
                }
                return value
            }
            guard let y = number(0..<4), let m = number(5..<7), let d = number(8..<10) else { return nil }
            return (y, m, d)
        }
        guard let (y, m, d) = parsed else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// The day an instant falls on in a time zone.
    public init(_ instant: Date, in timeZone: TimeZone) {
        let offset = timeZone.secondsFromGMT(for: instant)
        let localSeconds = Int(instant.timeIntervalSince1970.rounded(.down)) + offset
        daysSinceEpoch = localSeconds.floorDiv(86_400)
    }

    public var year: Int { components.year }
    public var month: Int { components.month }
    public var day: Int { components.day }

    public func adding(days: Int) -> LocalDate { LocalDate(daysSinceEpoch: daysSinceEpoch + days) }

    /// Whole days from `self` to `other` (positive when `other` is later).
    public func days(until other: LocalDate) -> Int { other.daysSinceEpoch - daysSinceEpoch }

    /// The instant this day starts (local midnight) in a time zone. Where midnight does not exist
    /// (a DST gap at 00:00), the first instant of the day.
    public func startInstant(in timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = components
        let start = calendar.date(from: DateComponents(year: c.year, month: c.month, day: c.day))
        return calendar.startOfDay(for: start ?? Date(timeIntervalSince1970: Double(daysSinceEpoch) * 86_400))
    }

    /// Whole years from `self` (a date of birth) to `date`.
    public func age(on date: LocalDate) -> Int {
        let b = components, d = date.components
        var years = d.year - b.year
        if (d.month, d.day) < (b.month, b.day) { years -= 1 }
        return years
    }

    /// `YYYY-MM-DD`, written digit by digit: every stored row and JSON document carries dates, and
    /// `String(format:)` cost more than the rest of a meal save's bookkeeping (measured with perf).
    public var iso: String {
        let c = components
        guard (0...9999).contains(c.year) else { return String(c.year) + "-" + Self.twoDigits(c.month) + "-" + Self.twoDigits(c.day) }
        return String(unsafeUninitializedCapacity: 10) { text in
            var year = c.year
            for index in stride(from: 3, through: 0, by: -1) {
                text[index] = UInt8(truncatingIfNeeded: 48 + year % 10)
                year /= 10
            }
            text[4] = UInt8(ascii: "-")
            text[5] = UInt8(truncatingIfNeeded: 48 + c.month / 10)
            text[6] = UInt8(truncatingIfNeeded: 48 + c.month % 10)
            text[7] = UInt8(ascii: "-")
            text[8] = UInt8(truncatingIfNeeded: 48 + c.day / 10)
            text[9] = UInt8(truncatingIfNeeded: 48 + c.day % 10)
            return 10
        }
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0" + String(value) : String(value) }

    public var description: String { iso }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool { lhs.daysSinceEpoch < rhs.daysSinceEpoch }

    // MARK: - Proleptic Gregorian arithmetic

    private var components: (year: Int, month: Int, day: Int) {
        // Shift to a year starting in March so the leap day is the last day of the year.
        let z = daysSinceEpoch + 719_468
        let era = z.floorDiv(146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = y.floorDiv(400)
        let yearOfEra = y - era * 400
        let shiftedMonth = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

extension LocalDate: Codable {
    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = LocalDate(iso: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "Expected a date as YYYY-MM-DD"))
        }
        self = date
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso)
    }
}

extension Int {
    func floorDiv(_ divisor: Int) -> Int {
        let q = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? q - 1 : q
    }
}
