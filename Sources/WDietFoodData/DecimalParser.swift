/// Parses SR28's plain decimals ("81.11", "0", "-3.5") from bytes. Exact: the digits form an integer below 2^53
/// and the divisor is an exact power of ten, so one IEEE division rounds correctly, like `Double(String)`.
enum DecimalParser {
    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        var negative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var seenPoint = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                if seenPoint { return nil }
                seenPoint = true
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                digits += 1
                if digits > 15 { return slowParse(bytes) }
                mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
                if seenPoint { fractionDigits += 1 }
            } else {
                return slowParse(bytes)
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        let value = Double(mantissa) / powersOfTen[fractionDigits]
        return negative ? -value : value
    }

    /// Rare forms (exponents, very long digit strings) go through the standard library; anything it
    /// rejects, or that is not finite, is not a number.
    private static func slowParse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let value = Double(text), value.isFinite,
              text.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) })
        else { return nil }
        return value
    }
}
