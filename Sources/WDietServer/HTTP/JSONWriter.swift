import Hummingbird

/// JSON written straight into bytes, for the responses every screen asks for (the dashboard, a saved meal):
/// Foundation's `JSONEncoder` was about a seventh of a dashboard request's CPU in profiles. Writes what
/// `APICoding.encoder` writes, in the same key order (callers write keys sorted) and the same number spelling;
/// `JSONWriterTests` compares the two on real responses.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    /// Per open object or array: whether it has a member or element yet (the next one needs a comma).
    private var hasItems: [Bool] = []

    init(capacity: Int = 1_024) {
        bytes.reserveCapacity(capacity)
    }

    mutating func object(_ members: (inout JSONWriter) -> Void) {
        open(UInt8(ascii: "{"))
        members(&self)
        close(UInt8(ascii: "}"))
    }

    mutating func array<Element>(_ elements: [Element], _ write: (inout JSONWriter, Element) -> Void) {
        open(UInt8(ascii: "["))
        for element in elements {
            separate()
            write(&self, element)
        }
        close(UInt8(ascii: "]"))
    }

    /// Members of an object without its braces, to be put into an object later with `rawMembers(_:)` (a part
    /// that is the same in many responses, written once).
    mutating func members(_ write: (inout JSONWriter) -> Void) {
        hasItems.append(false)
        write(&self)
        hasItems.removeLast()
    }

    /// Members written by `members(_:)`, into the object being written.
    mutating func rawMembers(_ written: [UInt8]) {
        guard !written.isEmpty else { return }
        separate()
        bytes.append(contentsOf: written)
    }

    /// An object member's key; its value comes next (`string`, `number`, `object`, `array`, or use `member`).
    mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func member(_ name: StaticString, _ value: String) { key(name); string(value) }
    mutating func member(_ name: StaticString, _ value: Double) { key(name); number(value) }
    mutating func member(_ name: StaticString, _ value: Int) { key(name); raw(String(value)) }
    mutating func member(_ name: StaticString, _ value: Int64) { key(name); raw(String(value)) }
    mutating func member(_ name: StaticString, _ value: Bool) { key(name); raw(value ? "true" : "false") }

    /// Left out when nil, as the synthesized `Encodable` does.
    mutating func member(_ name: StaticString, ifPresent value: String?) { if let value { member(name, value) } }
    mutating func member(_ name: StaticString, ifPresent value: Double?) { if let value { member(name, value) } }
    mutating func member(_ name: StaticString, ifPresent value: Int?) { if let value { member(name, value) } }

    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Swift's shortest round-tripping spelling, without a trailing ".0" (as JSONEncoder writes 650.0: `650`).
    mutating func number(_ value: Double) {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        raw(text)
    }

    private mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    private mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        hasItems.append(false)
    }

    private mutating func close(_ bracket: UInt8) {
        hasItems.removeLast()
        bytes.append(bracket)
    }

    /// Before a member or an array element: a comma unless it is the container's first.
    private mutating func separate() {
        if hasItems[hasItems.count - 1] { bytes.append(UInt8(ascii: ",")) }
        hasItems[hasItems.count - 1] = true
    }
}
