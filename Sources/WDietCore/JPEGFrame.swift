import Foundation

/// A JPEG's frame header (its first start-of-frame segment), read in place without decoding: the pixel size, the
/// components (1 grey, 3 colour, 4 CMYK) and the sample precision. The media store checks a display JPEG's size with
/// it; the label scanner tells the usual photo from it without starting `vipsheader` (a process start costs a scan
/// some 30–40 ms of CPU, most of it loading libvips' libraries).
public struct JPEGFrame: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let components: Int
    /// Bits per sample: 8 for nearly every photo, 12 for some medical and camera-raw JPEGs.
    public let precision: Int
    /// The start-of-frame marker (0xC0 baseline, 0xC1 extended, 0xC2 progressive; others lossless or arithmetic).
    public let marker: UInt8

    /// A baseline, extended or progressive Huffman JPEG of 8-bit samples in grey or colour: what every decoder reads
    /// and what a camera or phone writes.
    public var isEightBitGrayOrColourHuffman: Bool {
        [0xC0, 0xC1, 0xC2].contains(marker) && precision == 8 && (components == 1 || components == 3)
    }

    /// The frame header of `data`, or nil when it is not a JPEG or no frame header comes before its end.
    public static func read(_ data: Data) -> JPEGFrame? {
        // In place: a 12-megapixel photo is megabytes, and the frame header is near its start.
        data.withUnsafeBytes { raw in read(raw.bindMemory(to: UInt8.self)) }
    }

    private static func read(_ b: UnsafeBufferPointer<UInt8>) -> JPEGFrame? {
        guard b.count > 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        var i = 2
        while i + 9 < b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            // SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC).
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                let height = Int(b[i + 5]) << 8 | Int(b[i + 6])
                let width = Int(b[i + 7]) << 8 | Int(b[i + 8])
                guard width > 0, height > 0 else { return nil }
                return JPEGFrame(width: width, height: height, components: Int(b[i + 9]), precision: Int(b[i + 4]), marker: marker)
            }
            guard length >= 2 else { return nil }
            i += 2 + length
        }
        return nil
    }
}
