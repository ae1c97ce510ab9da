import Foundation
import WDietCore

/// A member of a JSON request body that may be absent, `null`, or a value. PUT and PATCH bodies need the three:
/// an absent member keeps what is stored, `null` clears it.
enum JSONField<Value: Decodable & Sendable>: Sendable {
    case absent
    case null
    case value(Value)

    /// The value, or nil when absent or null.
    var value: Value? {
        if case .value(let v) = self { v } else { nil }
    }

    var isAbsent: Bool {
        if case .absent = self { true } else { false }
    }

    /// Present with a value or with null: the client said something about this member.
    var isPresent: Bool { !isAbsent }

    /// Absent keeps `current`; null clears it; a value replaces it.
    func merged(into current: Value?) -> Value? {
        switch self {
        case .absent: current
        case .null: nil
        case .value(let v): v
        }
    }
}

extension JSONField: Equatable where Value: Equatable {}

extension JSONField: Decodable {
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self = container.decodeNil() ? .null : .value(try container.decode(Value.self))
    }
}

extension KeyedDecodingContainer {
    /// Chosen by the synthesized `init(from:)` of request bodies: a missing key is `.absent`, not an error.
    func decode<Value>(_ type: JSONField<Value>.Type, forKey key: Key) throws -> JSONField<Value> {
        guard contains(key) else { return .absent }
        if try decodeNil(forKey: key) { return .null }
        return .value(try decode(Value.self, forKey: key))
    }
}

/// A number as a client may send it: a JSON number, or text such as "82,5" (what a form field holds). Anything
/// else (true, an object, "abc") is `.invalid`, so that validation answers with the field's own message.
struct NumberInput: Decodable, Sendable, Equatable {
    var input: NumericInput

    init(_ input: NumericInput) { self.input = input }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) {
            input = number.isFinite ? .value(number) : .invalid
        } else if let text = try? container.decode(String.self) {
            input = NumericInput(text: text)
        } else {
            input = .invalid
        }
    }
}

extension JSONField where Value == NumberInput {
    /// Absent and null are both "nothing typed".
    var numeric: NumericInput { value?.input ?? .missing }
}
