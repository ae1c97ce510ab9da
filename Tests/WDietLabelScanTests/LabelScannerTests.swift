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

    /// A copy of a dev photo made by a tool (exiftool, installed with the media tools; vips), or nil without it.
    static func converted(_ photo: Data, tool: String, _ arguments: (String, String) -> [String], suffix: String) throws -> Data? {
        let vips = VipsTools(timeLimit: .seconds(20), maxPixels: 100_000_000)
        guard let path = vips.find(tool) else { return nil }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-label-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.jpg"), output = folder.appendingPathComponent("out." + suffix)
        try photo.write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments(input.path, output.path)
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return try? Data(contentsOf: FileManager.default.fileExists(atPath: output.path) ? output : input)
    }

    @Test("the short grey way (one vips run for a JPEG, the crop cut from the grey pixels) gives the very pixels of the general steps, upright")
    func shortGrayPath() throws {
        let short = VipsTools(timeLimit: .seconds(20), maxPixels: 100_000_000)
        var general = short
        general.generalStepsOnly = true
        let photo = try Data(contentsOf: Self.devFolder.appendingPathComponent("jofuelo-ex2.jpg"))  // 384×512, sRGB
        let whole = try short.grayscale(photo, crop: nil)
        #expect((whole.width, whole.height) == (384, 512))
        #expect(whole.pixels == (try general.grayscale(photo, crop: nil)).pixels)
        let crop = LabelCrop(x: 40, y: 100, width: 300, height: 500)  // runs past the bottom: cut at the photo's edge
        let cropped = try short.grayscale(photo, crop: crop)
        #expect((cropped.width, cropped.height) == (300, 412))
        #expect(cropped.pixels == (try general.grayscale(photo, crop: crop)).pixels)
        #expect(throws: LabelScanError.badCrop) { try short.grayscale(photo, crop: LabelCrop(x: 384, y: 0, width: 10, height: 10)) }

        // Turned a quarter by its EXIF tag: both ways turn it upright, and the crop is in upright pixels.
        if let turnedPhoto = try Self.converted(photo, tool: "exiftool", { input, _ in ["-q", "-overwrite_original", "-Orientation=6", "-n", input] }, suffix: "jpg") {
            let turned = try short.grayscale(turnedPhoto, crop: nil)
            #expect((turned.width, turned.height) == (512, 384))
            #expect(turned.pixels != whole.pixels)
            #expect(turned.pixels == (try general.grayscale(turnedPhoto, crop: nil)).pixels)
            let turnedCrop = LabelCrop(x: 300, y: 10, width: 200, height: 300)
            #expect((try short.grayscale(turnedPhoto, crop: turnedCrop)).pixels == (try general.grayscale(turnedPhoto, crop: turnedCrop)).pixels)
        }
        // A PNG (no autorotate in its loader: grey, then autorot): the same pixels both ways too.
        let png = try #require(try Self.converted(photo, tool: "vips", { input, output in ["copy", input, output] }, suffix: "png"))
        #expect((try short.grayscale(png, crop: nil)).pixels == whole.pixels)  // PNG is lossless: the JPEG's decoded pixels
        #expect((try short.grayscale(png, crop: crop)).pixels == (try general.grayscale(png, crop: crop)).pixels)
    }

    @Test("vips starts without its plugin modules except for HEIF/AVIF photos, which need one")
    func pluginModules() throws {
        let vips = VipsTools(timeLimit: .seconds(20), maxPixels: 100_000_000)
        let photo = try Data(contentsOf: Self.devFolder.appendingPathComponent("jofuelo-ex2.jpg"))
        #expect(!VipsTools.isISOMediaFile(photo))
        // Made only where the HEIF module can also write (libheif with an encoder).
        guard let heic = try Self.converted(photo, tool: "vips", { input, output in ["copy", input, output] }, suffix: "heic"),
              VipsTools.isISOMediaFile(heic) else { return }
        let gray = try vips.grayscale(heic, crop: nil)
        #expect((gray.width, gray.height) == (384, 512))
        // The way other photos run (VIPSHOME at the private folder) has no HEIF loader: the module choice is what
        // reads it.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-label-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("photo")
        try heic.write(to: file)
        let header = try #require(vips.find("vipsheader"))
        #expect(throws: LabelScanError.notAnImage) { try vips.run(header, [file.path], in: folder, untrusted: true, modules: .none) }
        #expect(VipsTools.loader(fromHeader: try vips.run(header, [file.path], in: folder, untrusted: true, modules: .installed)) == "heifload")
    }

    @Test("an 8-bit JPEG in colour or grey is told from its frame header as vipsheader tells it; other photos are left to vipsheader")
    func jpegHeaderWithoutVipsheader() throws {
        let vips = VipsTools(timeLimit: .seconds(20), maxPixels: 100_000_000)
        let header = try #require(vips.find("vipsheader"))
        func vipsheader(_ data: Data) throws -> String {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-label-test-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("photo")
            try data.write(to: file)
            return try vips.run(header, [file.path], in: folder, untrusted: true, modules: .none)
        }
        let photo = try Data(contentsOf: Self.devFolder.appendingPathComponent("jofuelo-ex2.jpg"))
        let grey = try #require(try Self.converted(photo, tool: "vips", { input, output in ["colourspace", input, output, "b-w"] }, suffix: "jpg"))
        let progressive = try #require(try Self.converted(photo, tool: "vips", { input, output in ["copy", input, output + "[interlace]"] }, suffix: "jpg"))
        for jpeg in [photo, grey, progressive] {
            let line = try #require(VipsTools.jpegHeaderLine(jpeg))
            #expect(line == (try vipsheader(jpeg)).replacingOccurrences(of: "\n", with: "").replacingOccurrences(
                of: #"^.*: "#, with: "photo: ", options: .regularExpression))
        }
        #expect(VipsTools.jpegHeaderLine(photo)?.hasSuffix("3 bands, srgb, jpegload") == true)
        #expect(VipsTools.jpegHeaderLine(grey)?.hasSuffix("1 band, b-w, jpegload") == true)
        // CMYK (4 components) and PNG: vipsheader's to tell.
        let cmyk = try #require(try Self.converted(photo, tool: "vips", { input, output in ["colourspace", input, output, "cmyk"] }, suffix: "jpg"))
        #expect(JPEGFrame.read(cmyk)?.components == 4)
        #expect(VipsTools.jpegHeaderLine(cmyk) == nil)
        let png = try #require(try Self.converted(photo, tool: "vips", { input, output in ["copy", input, output] }, suffix: "png"))
        #expect(VipsTools.jpegHeaderLine(png) == nil)
    }

    @Test("only 8-bit sRGB or grey photos without alpha take the short grey path")
    func shortPathHeaders() {
        #expect(VipsTools.isEightBitRGBOrGray(header: "photo: 1200x1600 uchar, 3 bands, srgb, jpegload"))
        #expect(VipsTools.isEightBitRGBOrGray(header: "photo: 384x512 uchar, 1 band, b-w, jpegload"))
        #expect(!VipsTools.isEightBitRGBOrGray(header: "photo: 10x10 uchar, 4 bands, srgb, pngload"))
        #expect(!VipsTools.isEightBitRGBOrGray(header: "photo: 10x10 ushort, 3 bands, rgb16, pngload"))
        #expect(!VipsTools.isEightBitRGBOrGray(header: "photo: 800x600 uchar, 4 bands, cmyk, jpegload"))
        #expect(!VipsTools.isEightBitRGBOrGray(header: "not a header"))
        #expect(VipsTools.loader(fromHeader: "photo: 1200x1600 uchar, 3 bands, srgb, jpegload") == "jpegload")
        #expect(VipsTools.loader(fromHeader: "photo: 10x10 uchar, 3 bands, srgb, pngload\n") == "pngload")
    }
}
