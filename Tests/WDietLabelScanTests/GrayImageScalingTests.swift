import Foundation
import Testing
import WDietCore
@testable import WDietLabelScan

/// `GrayImage.scaled(by:)` works out each column's source positions once per image; the pixels must stay those of the
/// plain per-pixel formulas the OCR passes were tuned on (bilinear enlarging, box average shrinking).
@Suite("Grey image scaling")
struct GrayImageScalingTests {
    /// The formulas per pixel, as written before the per-column tables.
    static func reference(_ image: GrayImage, _ factor: Double) -> GrayImage {
        let (width, height) = (image.width, image.height)
        let newWidth = max(1, Int((Double(width) * factor).rounded())), newHeight = max(1, Int((Double(height) * factor).rounded()))
        if newWidth == width && newHeight == height { return image }
        let sx = Double(width) / Double(newWidth), sy = Double(height) / Double(newHeight)
        var out = [UInt8](repeating: 0, count: newWidth * newHeight)
        let source = image.pixels
        for row in 0..<newHeight {
            for column in 0..<newWidth {
                if factor >= 1 {
                    let fy = max(0, (Double(row) + 0.5) * sy - 0.5), fx = max(0, (Double(column) + 0.5) * sx - 0.5)
                    let y0 = min(height - 1, Int(fy)), y1 = min(height - 1, y0 + 1), x0 = min(width - 1, Int(fx)), x1 = min(width - 1, x0 + 1)
                    let wy = fy - Double(y0), wx = fx - Double(x0)
                    let top = Double(source[y0 * width + x0]) * (1 - wx) + Double(source[y0 * width + x1]) * wx
                    let bottom = Double(source[y1 * width + x0]) * (1 - wx) + Double(source[y1 * width + x1]) * wx
                    out[row * newWidth + column] = UInt8(max(0, min(255, (top * (1 - wy) + bottom * wy).rounded())))
                } else {
                    let y0 = Int(Double(row) * sy), y1 = max(y0 + 1, min(height, Int(Double(row + 1) * sy)))
                    let x0 = Int(Double(column) * sx), x1 = max(x0 + 1, min(width, Int(Double(column + 1) * sx)))
                    var sum = 0
                    for y in y0..<y1 { for x in x0..<x1 { sum += Int(source[y * width + x]) } }
                    out[row * newWidth + column] = UInt8(sum / ((y1 - y0) * (x1 - x0)))
                }
            }
        }
        return GrayImage(width: newWidth, height: newHeight, pixels: out)
    }

    @Test("worked numbers: four pixels halved are two box averages, two pixels doubled are interpolated")
    func workedNumbers() {
        let row = GrayImage(width: 4, height: 1, pixels: [0, 100, 200, 255])
        let halved = row.scaled(by: 0.5)
        #expect((halved.width, halved.height) == (2, 1))
        #expect(halved.pixels == [50, 227])  // (0 + 100) / 2, (200 + 255) / 2 rounded down
        let pair = GrayImage(width: 2, height: 1, pixels: [0, 100])
        let doubled = pair.scaled(by: 2)
        #expect((doubled.width, doubled.height) == (4, 2))
        // Source positions 0, 0.25, 0.75, 1 (clamped at the edges): 0, 25, 75, 100, on both rows.
        #expect(doubled.pixels == [0, 25, 75, 100, 0, 25, 75, 100])
    }

    @Test("the same pixels as the per-pixel formulas, shrinking and enlarging, at the scales the scanner uses", arguments: [
        0.3, 0.5, 0.675, 0.9, 0.99, 1.0, 1.01, 1.5, 2.37, 4.0,
    ])
    func samePixels(factor: Double) {
        var random = SeededRandom(seed: 19)
        for (width, height) in [(37, 23), (64, 64), (101, 7), (1, 9)] {
            var pixels: [UInt8] = []
            for _ in 0..<(width * height) { pixels.append(UInt8(truncatingIfNeeded: random.next())) }
            let image = GrayImage(width: width, height: height, pixels: pixels)
            let fast = image.scaled(by: factor), plain = Self.reference(image, factor)
            #expect((fast.width, fast.height) == (plain.width, plain.height))
            #expect(fast.pixels == plain.pixels, "\(width)×\(height) at \(factor)")
        }
        // Neighbours one apart: the enlarged values fall on halves, where the rounding must go the same way.
        var stepPixels: [UInt8] = []
        for row in 0..<5 {
            for column in 0..<9 { stepPixels.append(UInt8(100 + column % 2 + row % 2)) }
        }
        let steps = GrayImage(width: 9, height: 5, pixels: stepPixels)
        #expect(steps.scaled(by: factor).pixels == Self.reference(steps, factor).pixels)
    }
}
