/// Decodes Windows-1252, the encoding USDA ships SR28 in. Foundation's decoder differs between platforms
/// (and some builds treat 0x80–0x9F as Latin-1 control characters), so the table is spelled out here.
enum Windows1252 {
    /// Unicode scalars for 0x80–0x9F; the five bytes the code page leaves undefined decode to U+FFFD.
    private static let high: [UInt32] = [
        0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0xFFFD, 0x017D, 0xFFFD,
        0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0xFFFD, 0x017E, 0x0178,
    ]

    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        // Almost every SR28 field is plain ASCII, which is also valid UTF-8: skip the per-byte mapping then.
        var isASCII = true
        for byte in bytes where byte >= 0x80 {
            isASCII = false
            break
        }
        if isASCII { return String(decoding: bytes, as: UTF8.self) }
        var result = String.UnicodeScalarView()
        for byte in bytes {
            result.append(scalar(for: byte))
        }
        return String(result)
    }

    static func scalar(for byte: UInt8) -> Unicode.Scalar {
        let value: UInt32 = (0x80...0x9F).contains(byte) ? high[Int(byte) - 0x80] : UInt32(byte)
        // Every value in the table and every byte below 0x80 or above 0x9F is a valid scalar.
        return Unicode.Scalar(value) ?? "\u{FFFD}"
    }
}
