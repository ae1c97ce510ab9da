import Foundation
import WDietCore

/// How ids and instants are spelled wherever they leave memory: the API's JSON, the sync protocol, the export, the
/// client, and the SQLite columns. One implementation, so that what a save returns, what a later read returns and
/// what each wire carries are the same text to the millisecond.
///
/// Ids are lowercase UUID text (the form PostgreSQL prints). Instants are UTC ISO 8601 with milliseconds and a `Z`
/// (`2026-03-01T11:30:00.000Z`), written by hand on integer milliseconds (rounded, not truncated: 0.123 s × 1000 may
/// come out as 122.99999) because formatters round fractional seconds inconsistently across platforms.
public enum WireFormat {
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


    /// `2026-03-01T11:30:00.000Z`, from the instant's whole milliseconds (what both stores keep).
    public static func instantText(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1_000).rounded())
        let (days, millisecondOfDay) = floorDivision(milliseconds, 86_400_000)
        let second = millisecondOfDay / 1_000
        return LocalDate(daysSinceEpoch: Int(days)).iso
            + "T" + twoDigits(second / 3_600) + ":" + twoDigits(second / 60 % 60) + ":" + twoDigits(second % 60)
            + "." + threeDigits(millisecondOfDay % 1_000) + "Z"
    }

    /// An instant as the wires accept it: ISO 8601 with or without fractional seconds, with `Z` or an offset, to the
    /// millisecond (so equal instants are equal `Date`s on every path); nil for anything else. The form
    /// `instantText` writes is read by hand, anything else by Foundation's formatter.
    public static func instant(from text: String) -> Date? {
        if let exact = instant(exactText: text) { return exact }
        // Foundation's formatter rolls an impossible day over (2026-02-30 → 2026-03-02): the date must be one.
        guard LocalDate(iso: String(text.prefix(10))) != nil,
              let date = formatterLock.withLock({ fractionalFormatter.date(from: text) ?? plainFormatter.date(from: text) }) else {
            return nil
        }
        return Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1_000).rounded() / 1_000)
    }

    /// Accepts exactly the form `instantText` writes.
    public static func instant(exactText text: String) -> Date? {
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

    // ISO8601DateFormatter is not documented as thread-safe on Linux: one lock for both.
    private static let formatterLock = NSLock()
    nonisolated(unsafe) private static let fractionalFormatter: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()
    nonisolated(unsafe) private static let plainFormatter: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter
    }()
}

extension WireFormat {
    /// JSON as the API and the export write it: keys sorted, slashes as they are, instants as `instantText`. One
    /// encoder for the process (thread-safe once configured; building one per request showed in profiles).
    public static let jsonEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(instantText(date))
        }
        return encoder
    }()

    /// Reads instants as `instant(from:)` does, and says what it expected in the reader's language (a 422 shows it
    /// by the member's path).
    public static let jsonDecoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            if let date = instant(from: try container.decode(String.self)) { return date }
            throw DecodingError.dataCorruptedError(in: container, debugDescription: Strings.current("api.expectedInstant"))
        }
        return decoder
    }()
}
