import Foundation

/// Any JSON value, for the payload of a generic row (`SyncEntity.row`): the server stores the object as it came,
/// so that a module added later (the journal) syncs without a change of protocol or server. Numbers are IEEE
/// doubles, as in JavaScript.
public enum SyncJSON: Hashable, Codable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([SyncJSON])
    case object([String: SyncJSON])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([SyncJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: SyncJSON].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The value as compact JSON text with sorted keys: what the stores keep, so that equal objects compare equal
    /// as text on both backends.
    public func canonicalText() throws -> String {
        String(decoding: try SyncCoding.encoder.encode(self), as: UTF8.self)
    }

    /// Reads text that `canonicalText()` wrote.
    public static func parse(_ text: String) throws -> SyncJSON {
        try SyncCoding.decoder.decode(SyncJSON.self, from: Data(text.utf8))
    }
}
