import Foundation
import WDietCore

/// A JSON object whose members are all strings, numbers or `null`, read straight from a request's bytes.
///
/// Why: the bodies of the most frequent writes (a meal, a weight) are such objects, and Foundation's
/// `JSONDecoder` spent more CPU on one of them than the rest of the handler's own work (profiles of meal saves).
/// This reader accepts only the plain case and says nil to anything else — nesting, `true`/`false`, an escape or a
/// control character in a string, bytes that are not UTF-8, a repeated member, a number that is not finite,
/// anything after the object. The caller then decodes with `JSONDecoder` as before, so every error a client
/// can see (and its message) stays `JSONDecoder`'s; `FlatJSONObjectTests` holds the two to the same results.
struct FlatJSONObject: Sendable {
    enum Value: Equatable, Sendable {
        case string(String)
        case number(Double)
        case null
    }

    /// In the order they came; at most `maxMembers`, no key twice.
    private(set) var members: [(key: String, value: Value)] = []

    /// More members than any of these bodies has: a larger object is left to `JSONDecoder`.
    static let maxMembers = 32

    /// The member's value, or nil when the object has no such member.
    subscript(key: String) -> Value? {
        for member in members where member.key == key { return member.value }
        return nil
    }

    /// The object in `bytes`, or nil when they hold anything but a flat object of strings, numbers and nulls.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> FlatJSONObject? {
        var reader = Reader(bytes: bytes)
        var object = FlatJSONObject()
        reader.skipWhitespace()
        guard reader.take(UInt8(ascii: "{")) else { return nil }
        reader.skipWhitespace()
        if !reader.take(UInt8(ascii: "}")) {
            while true {
                reader.skipWhitespace()
                guard let key = reader.string() else { return nil }
                reader.skipWhitespace()
                guard reader.take(UInt8(ascii: ":")) else { return nil }
                reader.skipWhitespace()
                guard let value = reader.value() else { return nil }
                guard object.members.count < maxMembers, object[key] == nil else { return nil }
                object.members.append((key, value))
                reader.skipWhitespace()
                if reader.take(UInt8(ascii: ",")) { continue }
                guard reader.take(UInt8(ascii: "}")) else { return nil }
                break
            }
        }
        reader.skipWhitespace()
        return reader.isAtEnd ? object : nil
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        var isAtEnd: Bool { index == bytes.count }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): index += 1
                default: return
                }
            }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func value() -> Value? {
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""): return string().map(Value.string)
            case UInt8(ascii: "n"):
                guard bytes.count - index >= 4, bytes[index + 1] == UInt8(ascii: "u"), bytes[index + 2] == UInt8(ascii: "l"),
                      bytes[index + 3] == UInt8(ascii: "l") else { return nil }
                index += 4
                return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number().map(Value.number)
            default: return nil
            }
        }

        /// A string without escapes or control characters, in valid UTF-8.
        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let text = String(validating: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                    index += 1
                    return text
                }
                if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
                index += 1
            }
            return nil
        }

        /// JSON's number grammar, `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, read as the nearest Double.
        mutating func number() -> Double? {
            let start = index
            _ = take(UInt8(ascii: "-"))
            if take(UInt8(ascii: "0")) {
                // No leading zeros.
            } else {
                guard digits() > 0 else { return nil }
            }
            if take(UInt8(ascii: ".")) {
                guard digits() > 0 else { return nil }
            }
            if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
                if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
                guard digits() > 0 else { return nil }
            }
            // A digit right after a leading 0 ("01") is not JSON.
            if index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { return nil }
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            guard let number = Double(text), number.isFinite else { return nil }
            return number
        }

        private mutating func digits() -> Int {
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - start
        }
    }
}

/// A request body that can be read from a `FlatJSONObject` in its common shapes. `init?(flatJSON:)` says nil
/// whenever `JSONDecoder` might answer differently (a member of the wrong type, an instant it cannot read), and
/// `APIInput.decode` then decodes with `JSONDecoder`.
protocol FlatJSONDecodable: Decodable {
    init?(flatJSON object: FlatJSONObject)
}

extension FlatJSONObject {
    /// A text member: absent, null or text; nil (ask `JSONDecoder`) for a number.
    func text(_ key: String) -> JSONField<String>? {
        switch self[key] {
        case nil: .absent
        case .null: .null
        case .string(let text): .value(text)
        case .number: nil
        }
    }

    /// A number member as `NumberInput` reads it: a JSON number, or text such as "82,5".
    func number(_ key: String) -> JSONField<NumberInput> {
        switch self[key] {
        case nil: .absent
        case .null: .null
        case .number(let number): .value(NumberInput(.value(number)))
        case .string(let text): .value(NumberInput(NumericInput(text: text)))
        }
    }

    /// An instant member as `APICoding.decoder` reads it; nil (ask `JSONDecoder`) for anything it would refuse.
    func instant(_ key: String) -> JSONField<Date>? {
        switch self[key] {
        case nil: return .absent
        case .null: return .null
        case .number: return nil
        case .string(let text): return APICoding.instant(from: text).map { .value($0) }
        }
    }
}
