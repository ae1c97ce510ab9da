import Foundation
import WDietCore
import WDietStore

/// How the coach tables spell values that SQLite has no type for. Records keep the spelled-out form and convert
/// through these, so that what a save returns is exactly what a later read returns.
///
/// Ids are lowercase UUID text (the form PostgreSQL prints). Local dates are `YYYY-MM-DD`. Instants are UTC
/// ISO-8601 with milliseconds and a `Z` (`2026-03-01T11:30:00.000Z`), so that text order is time order and
/// SQLite's date functions read them; they are written by hand on integer milliseconds because formatters
/// round fractional seconds inconsistently across platforms.
extension AppDatabase {
    static func idText(_ id: UUID) -> String { id.uuidString.lowercased() }

    static func id(fromText text: String) throws -> UUID {
        guard let id = UUID(uuidString: text) else { throw unreadable }
        return id
    }

    static func localDate(fromText text: String) throws -> LocalDate {
        guard let date = LocalDate(iso: text) else { throw unreadable }
        return date
    }

    static func instant(fromStoredText text: String) throws -> Date {
        guard let date = instant(fromText: text) else { throw unreadable }
        return date
    }

    /// A row that does not decode was written by something other than these stores.
    static let unreadable = StoreError.unavailable("A stored value could not be read")

    static func instantText(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1_000).rounded())
        let (days, millisecondOfDay) = floorDivision(milliseconds, 86_400_000)
        let second = millisecondOfDay / 1_000
        return LocalDate(daysSinceEpoch: Int(days)).iso
            + "T" + twoDigits(second / 3_600) + ":" + twoDigits(second / 60 % 60) + ":" + twoDigits(second % 60)
            + "." + threeDigits(millisecondOfDay % 1_000) + "Z"
    }

    /// Accepts exactly the form `instantText` writes.
    static func instant(fromText text: String) -> Date? {
        let characters = Array(text.utf8)
        guard characters.count == 24, characters[10] == UInt8(ascii: "T"), characters[13] == UInt8(ascii: ":"),
              characters[16] == UInt8(ascii: ":"), characters[19] == UInt8(ascii: "."), characters[23] == UInt8(ascii: "Z"),
              let date = LocalDate(iso: String(decoding: characters[0..<10], as: UTF8.self)),
              let hour = number(characters[11..<13]), let minute = number(characters[14..<16]),
              let second = number(characters[17..<19]), let millisecond = number(characters[20..<23]),
              hour < 24, minute < 60, second < 60
        else { return nil }
        let seconds = ((Int64(date.daysSinceEpoch) * 24 + hour) * 60 + minute) * 60 + second
        return Date(timeIntervalSince1970: (Double(seconds * 1_000 + millisecond)) / 1_000)
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int64? {
        var value: Int64 = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            value = value * 10 + Int64(digit - UInt8(ascii: "0"))
        }
        return value
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let remainder = (value % divisor + divisor) % divisor
        return ((value - remainder) / divisor, remainder)
    }

    private static func twoDigits(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }

    private static func threeDigits(_ value: Int64) -> String {
        value < 10 ? "00\(value)" : value < 100 ? "0\(value)" : "\(value)"
    }
}
