import Foundation

/// The JSON coding of the sync wire types, for clients and the server alike: instants in ISO 8601 UTC with
/// milliseconds (`2026-03-01T11:30:00.000Z`; without the fraction is read too), keys sorted. The server's API
/// coding writes the same text.
public enum SyncCoding {
    public static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(instantText(date))
        }
        return encoder
    }()

    public static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            if let date = instant(from: text) { return date }
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Expected an ISO 8601 instant such as 2026-03-01T12:30:00Z")
        }
        return decoder
    }()

    /// `2026-03-01T11:30:00.000Z`, from the instant's whole milliseconds (what both stores keep).
    public static func instantText(_ date: Date) -> String {
        // Rounded, not truncated: 0.123 s × 1000 may come out as 122.99999.
        let milliseconds = Int64((date.timeIntervalSince1970 * 1_000).rounded())
        let seconds = milliseconds.floorDivided(by: 1_000)
        let fraction = milliseconds - seconds * 1_000
        let whole = lock.withLock { plainFormatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds))) }
        // "2026-03-01T11:30:00Z" → "2026-03-01T11:30:00.000Z"
        let digits = String(fraction + 1_000).dropFirst()
        return whole.dropLast() + "." + digits + "Z"
    }

    /// An instant in ISO 8601 with or without fractional seconds, to the millisecond, built as the stores build
    /// theirs (so equal instants are equal `Date`s); nil for anything else.
    public static func instant(from text: String) -> Date? {
        guard let date = lock.withLock({ fractionalFormatter.date(from: text) ?? plainFormatter.date(from: text) }) else { return nil }
        return Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1_000).rounded() / 1_000)
    }

    // Formatters are not documented as thread-safe on Linux: one lock for both.
    private static let lock = NSLock()
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

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
