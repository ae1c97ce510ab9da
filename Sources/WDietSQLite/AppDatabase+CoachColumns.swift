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
    /// Lowercase UUID text, written by hand: `uuidString` formats with `snprintf` and is then lowercased, and
    /// every read and write of a row spells an id (profiles showed it). The API writes ids with this too.
    public static func idText(_ id: UUID) -> String {
        let hexDigits: StaticString = "0123456789abcdef"
        return withUnsafeBytes(of: id.uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                var index = 0
                for (position, byte) in bytes.enumerated() {
                    if position == 4 || position == 6 || position == 8 || position == 10 {
                        text[index] = UInt8(ascii: "-")
                        index += 1
                    }
                    text[index] = hexDigits.utf8Start[Int(byte >> 4)]
                    text[index + 1] = hexDigits.utf8Start[Int(byte & 0x0F)]
                    index += 2
                }
                return index
            }
        }
    }

    static func id(fromText text: String) throws -> UUID {
        guard let id = uuid(text) else { throw unreadable }
        return id
    }

    /// UUID text in either case, parsed by hand (`UUID(uuidString:)` goes through `sscanf`, a few percent of a
    /// dashboard request); nil for anything else.
    public static func uuid(_ text: String) -> UUID? {
        var text = text
        return text.withUTF8 { characters -> UUID? in
            guard characters.count == 36 else { return nil }
            var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let parsed = withUnsafeMutableBytes(of: &bytes) { output -> Bool in
                var index = 0
                for position in 0..<16 {
                    if position == 4 || position == 6 || position == 8 || position == 10 {
                        guard characters[index] == UInt8(ascii: "-") else { return false }
                        index += 1
                    }
                    guard let high = hexValue(characters[index]), let low = hexValue(characters[index + 1]) else { return false }
                    output[position] = high << 4 | low
                    index += 2
                }
                return true
            }
            return parsed ? UUID(uuid: bytes) : nil
        }
    }

    private static func hexValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
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

    /// Also how the API writes instants: the same text a later read of the row returns.
    public static func instantText(_ date: Date) -> String {
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
