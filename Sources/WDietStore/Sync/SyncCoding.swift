import Foundation

/// The JSON coding of the sync wire types, for clients and the server alike: instants in ISO 8601 UTC with
/// milliseconds (`2026-03-01T11:30:00.000Z`; without the fraction is read too), keys sorted. The server's API
/// coding writes the same text (`WireFormat`).
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

    /// `WireFormat.instantText`: `2026-03-01T11:30:00.000Z`.
    public static func instantText(_ date: Date) -> String { WireFormat.instantText(date) }

    /// `WireFormat.instant(from:)`: ISO 8601 with or without fractional seconds, to the millisecond.
    public static func instant(from text: String) -> Date? { WireFormat.instant(from: text) }
}
