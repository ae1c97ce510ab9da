/// Control characters are refused in every text a person or client sends (issue 21 item 4): U+0000–U+001F but tab,
/// line feed and carriage return, U+007F and U+0080–U+009F. A NUL cut text short on SQLite (`abc\0def` stored as
/// `abc`), failed PostgreSQL's statements (a 503 a syncing device retried for ever), and the others are invisible
/// or move the cursor. One rule for every entry point: the API's JSON bodies, sync pushes, imports, web forms and
/// query parameters (the server refuses with 422 naming the member).
public enum ControlCharacters {
    public static func isDisallowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: false
        case 0x00...0x1F, 0x7F...0x9F: true
        default: false
        }
    }

    /// The first refused character of `text`, or nil.
    public static func firstDisallowed(in text: some StringProtocol) -> Unicode.Scalar? {
        text.unicodeScalars.first(where: isDisallowed)
    }

    /// `U+0000`: how a message names the character (it cannot be shown).
    public static func name(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// A refused character in a JSON document: where (`meals.12.name`, the members' path as the API names them;
    /// `changes.3.event.properties` for a refused member name), and which character.
    public struct Finding: Equatable, Sendable {
        public var path: String
        public var scalar: Unicode.Scalar

        public init(path: String, scalar: Unicode.Scalar) {
            self.path = path
            self.scalar = scalar
        }
        /// The path's first parts: `changes.3.meal.name` → ["changes", "3", "meal", "name"].
        public var components: [String] { path.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }
    }

    /// The first refused character in any string (value or member name) of a JSON document, or nil. Bytes that are
    /// not JSON end the search (nil): the decoder says what is wrong with them. Fast for the usual body: a document
    /// with no `\u`, `\b` or `\f` escape and no raw control byte is passed after one look at each byte.
    public static func firstDisallowed(inJSON bytes: UnsafeRawBufferPointer) -> Finding? {
        guard mayHoldDisallowed(bytes) else { return nil }
        var walker = JSONWalker(bytes: bytes)
        return walker.run()
    }

    public static func firstDisallowed(inJSON bytes: [UInt8]) -> Finding? {
        bytes.withUnsafeBytes { firstDisallowed(inJSON: $0) }
    }

    static func mayHoldDisallowed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var previous: UInt8 = 0
        var escaped = false
        for byte in bytes {
            if escaped {
                if byte == UInt8(ascii: "u") || byte == UInt8(ascii: "b") || byte == UInt8(ascii: "f") { return true }
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D {
                return true
            } else if byte == 0x7F || (previous == 0xC2 && (0x80...0x9F).contains(byte)) {
                return true
            }
            previous = escaped ? 0 : byte
        }
        return false
    }

    /// Walks the document's tokens, keeping the path of the member being read.
    struct JSONWalker {
        enum Container {
            case object(key: String?, expectingKey: Bool)
            case array(index: Int)
        }

        let bytes: UnsafeRawBufferPointer
        var index = 0
        var stack: [Container] = []

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        func path(adding key: String? = nil) -> String {
            var parts: [String] = []
            for container in stack {
                switch container {
                case .object(let key, _): if let key { parts.append(key) }
                case .array(let index): parts.append(String(index))
                }
            }
            if let key { parts.append(key) }
            return parts.joined(separator: ".")
        }

        mutating func run() -> Finding? {
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case 0x20, 0x09, 0x0A, 0x0D:
                    index += 1
                case UInt8(ascii: "{"):
                    stack.append(.object(key: nil, expectingKey: true))
                    index += 1
                case UInt8(ascii: "["):
                    stack.append(.array(index: 0))
                    index += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    guard !stack.isEmpty else { return nil }
                    stack.removeLast()
                    index += 1
                case UInt8(ascii: ":"):
                    guard case .object(let key, _)? = stack.last else { return nil }
                    stack[stack.count - 1] = .object(key: key, expectingKey: false)
                    index += 1
                case UInt8(ascii: ","):
                    switch stack.last {
                    case .object?: stack[stack.count - 1] = .object(key: nil, expectingKey: true)
                    case .array(let position)?: stack[stack.count - 1] = .array(index: position + 1)
                    case nil: return nil
                    }
                    index += 1
                case UInt8(ascii: "\""):
                    guard let (text, refused) = readString() else { return nil }
                    if case .object(_, true)? = stack.last {
                        // A member name: refused ones are named by their object's path and the name as it reads.
                        if let refused { return Finding(path: path(adding: printable(text)), scalar: refused) }
                        stack[stack.count - 1] = .object(key: text, expectingKey: false)
                    } else if let refused {
                        return Finding(path: path(), scalar: refused)
                    }
                default:
                    // A number, true, false or null: up to the next delimiter.
                    guard byte == UInt8(ascii: "-") || (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte) else { return nil }
                    while index < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) {
                        index += 1
                    }
                }
            }
            return nil
        }

        /// A name with its refused characters shown as `U+0000`.
        func printable(_ text: String) -> String {
            text.unicodeScalars.map { isDisallowed($0) ? ControlCharacters.name($0) : String($0) }.joined()
        }

        /// The string at `index` (its opening quote), decoded, with its first refused character; nil when malformed.
        mutating func readString() -> (String, Unicode.Scalar?)? {
            index += 1
            var utf8: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    let text = String(decoding: utf8, as: UTF8.self)
                    return (text, firstDisallowed(in: text))
                }
                if byte == UInt8(ascii: "\\") {
                    guard index + 1 < bytes.count else { return nil }
                    let escape = bytes[index + 1]
                    index += 2
                    switch escape {
                    case UInt8(ascii: "n"): utf8.append(0x0A)
                    case UInt8(ascii: "t"): utf8.append(0x09)
                    case UInt8(ascii: "r"): utf8.append(0x0D)
                    case UInt8(ascii: "b"): utf8.append(0x08)
                    case UInt8(ascii: "f"): utf8.append(0x0C)
                    case UInt8(ascii: "u"):
                        guard var unit = hex4() else { return nil }
                        if (0xD800...0xDBFF).contains(unit), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                            index += 2
                            guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                            unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                        }
                        let scalar = Unicode.Scalar(unit) ?? "\u{FFFD}"
                        utf8.append(contentsOf: Array(String(Character(scalar)).utf8))
                    default: utf8.append(escape)
                    }
                    continue
                }
                utf8.append(byte)
                index += 1
            }
            return nil
        }

        mutating func hex4() -> UInt32? {
            guard index + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for offset in 0..<4 {
                guard let digit = UInt8(ascii: "0").hexValue(bytes[index + offset]) else { return nil }
                value = value << 4 | UInt32(digit)
            }
            index += 4
            return value
        }
    }
}

private extension UInt8 {
    func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
