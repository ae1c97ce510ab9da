import Foundation

/// The JSON coding of the sync wire types, for clients and the server alike: instants in ISO 8601 UTC with
/// milliseconds (`2026-03-01T11:30:00.000Z`; without the fraction is read too), keys sorted. The server's API
/// coding writes the same text (`WireFormat`).
public enum SyncCoding {
    /// `WireFormat.jsonEncoder`: the API's and the export's JSON are sync's.
    public static var encoder: JSONEncoder { WireFormat.jsonEncoder }

    /// `WireFormat.jsonDecoder` (its message about a bad instant in the reader's language).
    public static var decoder: JSONDecoder { WireFormat.jsonDecoder }

    /// `WireFormat.instantText`: `2026-03-01T11:30:00.000Z`.
    public static func instantText(_ date: Date) -> String { WireFormat.instantText(date) }

    /// `WireFormat.instant(from:)`: ISO 8601 with or without fractional seconds, to the millisecond.
    public static func instant(from text: String) -> Date? { WireFormat.instant(from: text) }
}
