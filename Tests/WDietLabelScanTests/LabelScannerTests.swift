import Foundation
import Testing
import WDietCore
@testable import WDietLabelScan

/// The whole pipeline (vips → panel → Tesseract → parser) on dev photos read in place from
/// ../shared/datasets/nutrition-labels/dev (never copied). Skipped where Tesseract or the vips tools are missing.
@Suite("Label scanner", .enabled(if: LabelScanner.unavailableReason() == nil))
struct LabelScannerTests {
    static let devFolder = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/datasets/nutrition-labels/dev").standardized

    static let scanner = LabelScanner()

    @Test("bytes that are no picture are refused as notAnImage")
    func notAnImage() async {
        await #expect(throws: LabelScanError.notAnImage) {
            _ = try await Self.scanner.read(image: Data("hello, this is not a photo".utf8), crop: nil)
        }
    }

    @Test("an upload over the size limit is refused before it is decoded")
    func tooLarge() async {
        var configuration = LabelScanner.Configuration()
        configuration.maxBytes = 1_000
        await #expect(throws: LabelScanError.tooLarge) {
            _ = try await LabelScanner(configuration: configuration).read(image: Data(repeating: 0xFF, count: 1_001), crop: nil)
        }
    }

    @Test("a crop outside the photo is refused")
    func badCrop() async throws {
        let photo = try Data(contentsOf: Self.devFolder.appendingPathComponent("fda-mindee-default_sample.jpg"))
        await #expect(throws: LabelScanError.badCrop) {
            _ = try await Self.scanner.read(image: photo, crop: LabelCrop(x: 5_000, y: 0, width: 100, height: 100))
        }
    }

    @Test("the FDA sample label, whole photo: calories and macros per serving of 228 g")
    func fdaSample() async throws {
        let photo = try Data(contentsOf: Self.devFolder.appendingPathComponent("fda-mindee-default_sample.jpg"))
        let result = try await Self.scanner.read(image: photo, crop: nil)
        let reading = result.reading
        #expect(reading.panelFound)
        let macros = try #require(reading.macros(basis: .perServing, amount: 1))
        #expect(macros.kcal == 250)
        #expect(macros.fat == 12)
        #expect(macros.carbs == 31)
        #expect(macros.protein == 5)
        #expect(reading.column(.perServing)?.servingGrams == 228)
        #expect(result.timings.total > 0 && result.timings.panel > 0)
        // Read completely and cross-checked (250 = 9 × 12 + 4 × 31 + 4 × 5 + 2 × 0 within 15 %) by the first pass: the
        // panel pass is skipped.
        #expect(result.timings.ocr == 0)
        #expect(!result.words.isEmpty)
    }

    @Test("without the early stop the FDA sample gets its panel pass too, and the same answer")
    func fdaSampleBothPasses() async throws {
        var configuration = LabelScanner.Configuration()
        configuration.stopWhenOverviewComplete = false
        let photo = try Data(contentsOf: Self.devFolder.appendingPathComponent("fda-mindee-default_sample.jpg"))
        let result = try await LabelScanner(configuration: configuration).read(image: photo, crop: nil)
        #expect(result.timings.ocr > 0)
        let macros = try #require(result.reading.macros(basis: .perServing, amount: 1))
        #expect(macros.kcal == 250)
        #expect(macros.fat == 12)
        #expect(macros.carbs == 31)
        #expect(macros.protein == 5)
    }

    @Test("a photo without a nutrition panel: no panel, nothing confident")
    func noPanel() async throws {
        // A front-of-pack photo with reference-intake badges only, no table.
        let photo = try Data(contentsOf: Self.devFolder.appendingPathComponent("off-testdata-4099100116205_4.400.jpg"))
        let reading = try await Self.scanner.read(image: photo, crop: nil).reading
        #expect(reading.confidence < LabelConfidence.threshold)
        #expect(reading.columns.allSatisfy { $0.values.values.allSatisfy { !$0.isConfident } })
    }

    @Test("the short grey path (no crop) gives the very pixels of the long one (a crop of the whole photo), upright")
    func shortGrayPath() throws {
        let vips = VipsTools(timeLimit: .seconds(20), maxPixels: 100_000_000)
        var photo = try Data(contentsOf: Self.devFolder.appendingPathComponent("jofuelo-ex2.jpg"))  // 384×512, sRGB
        let short = try vips.grayscale(photo, crop: nil)
        let long = try vips.grayscale(photo, crop: LabelCrop(x: 0, y: 0, width: 384, height: 512))
        #expect((short.width, short.height) == (384, 512))
        #expect(short.pixels == long.pixels)
        // Turned a quarter by its EXIF tag (exiftool, installed with the media tools): both paths turn it upright.
        let exiftool = vips.searchPath.map { ($0 as NSString).appendingPathComponent("exiftool") }.first { FileManager.default.isExecutableFile(atPath: $0) }
        if let exiftool {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-label-rotated-\(UUID().uuidString).jpg")
            defer { try? FileManager.default.removeItem(at: file) }
            try photo.write(to: file)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: exiftool)
            process.arguments = ["-q", "-overwrite_original", "-Orientation=6", "-n", file.path]
            try process.run()
            process.waitUntilExit()
            photo = try Data(contentsOf: file)
            let turned = try vips.grayscale(photo, crop: nil)
            #expect((turned.width, turned.height) == (512, 384))
            #expect(turned.pixels == (try vips.grayscale(photo, crop: LabelCrop(x: 0, y: 0, width: 512, height: 384))).pixels)
            #expect(turned.pixels != short.pixels)
        }
    }

    @Test("only 8-bit sRGB or grey photos without alpha take the short grey path")
    func shortPathHeaders() {
        #expect(VipsTools.isEightBitRGBOrGray(header: "photo: 1200x1600 uchar, 3 bands, srgb, jpegload"))
        #expect(VipsTools.isEightBitRGBOrGray(header: "photo: 384x512 uchar, 1 band, b-w, jpegload"))
        #expect(!VipsTools.isEightBitRGBOrGray(header: "photo: 10x10 uchar, 4 bands, srgb, pngload"))
        #expect(!VipsTools.isEightBitRGBOrGray(header: "photo: 10x10 ushort, 3 bands, rgb16, pngload"))
        #expect(!VipsTools.isEightBitRGBOrGray(header: "photo: 800x600 uchar, 4 bands, cmyk, jpegload"))
        #expect(!VipsTools.isEightBitRGBOrGray(header: "not a header"))
    }
}
