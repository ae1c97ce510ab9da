#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Walks the lines of one SR28 file and splits each into its `^`-separated fields, straight on the bytes:
/// NUT_DATA has 679,045 lines, and going through `String` for each would dominate the import time.
struct SR28LineScanner {
    private let buffer: UnsafeBufferPointer<UInt8>
    let fileName: String
    private let fieldNames: [String]
    private var position = 0
    /// The 1-based number of the current line.
    private(set) var lineNumber = 0
    /// Start and end (exclusive) of each field's content, tildes excluded.
    private var starts: [Int]
    private var ends: [Int]

    private static let caret = UInt8(ascii: "^")
    private static let tilde = UInt8(ascii: "~")
    private static let newline = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")

    /// `fieldNames` are USDA's names, used in error messages; their count is the field count every line must have.
    init(bytes: UnsafeRawBufferPointer, fileName: String, fieldNames: [String]) {
        self.buffer = bytes.assumingMemoryBound(to: UInt8.self)
        self.fileName = fileName
        self.fieldNames = fieldNames
        self.starts = Array(repeating: 0, count: fieldNames.count)
        self.ends = Array(repeating: 0, count: fieldNames.count)
    }

    func error(_ problem: SR28LineProblem) -> SR28Error {
        .malformedLine(file: fileName, line: lineNumber, problem: problem)
    }

    /// Moves to the next line and splits it; false at the end of the file. A final line without CRLF counts
    /// (FOOD_DES.txt ends that way); an empty line anywhere but at the very end is malformed.
    mutating func nextLine() throws -> Bool {
        // An empty buffer may have no base address at all.
        guard position < buffer.count, let base = buffer.baseAddress else { return false }
        let count = buffer.count
        lineNumber += 1
        let lineStart = position
        var lineEnd: Int
        if let found = memchr(base + position, Int32(Self.newline), count - position) {
            lineEnd = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
            position = lineEnd + 1
        } else {
            lineEnd = count
            position = count
        }
        if lineEnd > lineStart, base[lineEnd - 1] == Self.carriageReturn { lineEnd -= 1 }
        try split(base, from: lineStart, to: lineEnd)
        return true
    }

    private mutating func split(_ base: UnsafePointer<UInt8>, from lineStart: Int, to lineEnd: Int) throws {
        let expected = fieldNames.count
        var field = 0
        var cursor = lineStart
        while true {
            var contentStart = cursor
            var contentEnd: Int
            var next: Int
            if cursor < lineEnd, base[cursor] == Self.tilde {
                contentStart = cursor + 1
                guard let close = find(Self.tilde, in: base, from: contentStart, to: lineEnd) else {
                    throw error(.unterminatedText(field: name(of: field)))
                }
                contentEnd = close
                next = close + 1
                // Text ends at its closing tilde; anything but a separator after it means the tilde was not one.
                guard next == lineEnd || base[next] == Self.caret else {
                    throw error(.unterminatedText(field: name(of: field)))
                }
            } else {
                contentEnd = find(Self.caret, in: base, from: cursor, to: lineEnd) ?? lineEnd
                next = contentEnd
            }
            if field < expected {
                starts[field] = contentStart
                ends[field] = contentEnd
            }
            field += 1
            if next >= lineEnd { break }
            cursor = next + 1
        }
        guard field == expected else { throw error(.fieldCount(expected: expected, found: field)) }
    }

    private func find(_ byte: UInt8, in base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int? {
        guard start < end, let found = memchr(base + start, Int32(byte), end - start) else { return nil }
        return UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
    }

    private func name(of field: Int) -> String {
        field < fieldNames.count ? fieldNames[field] : "#\(field + 1)"
    }

    // MARK: Field access

    func bytes(_ field: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: buffer[starts[field]..<ends[field]])
    }

    func isEmpty(_ field: Int) -> Bool { ends[field] == starts[field] }

    func text(_ field: Int) -> String { Windows1252.decode(bytes(field)) }

    func optionalText(_ field: Int) -> String? { isEmpty(field) ? nil : text(field) }

    func requiredText(_ field: Int) throws -> String {
        guard !isEmpty(field) else { throw error(.missingValue(field: fieldNames[field])) }
        return text(field)
    }

    func optionalDouble(_ field: Int) throws -> Double? {
        isEmpty(field) ? nil : try double(field)
    }

    func double(_ field: Int) throws -> Double {
        guard !isEmpty(field) else { throw error(.missingValue(field: fieldNames[field])) }
        guard let value = DecimalParser.parse(bytes(field)) else {
            throw error(.badNumber(field: fieldNames[field], text: text(field)))
        }
        return value
    }

    func int(_ field: Int) throws -> Int {
        let value = try double(field)
        guard let exact = Int(exactly: value) else {
            throw error(.badNumber(field: fieldNames[field], text: text(field)))
        }
        return exact
    }
}
