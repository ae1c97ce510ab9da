import Foundation
import WDietCore

/// A rectangle of the photo to read, in the photo's pixels as shown upright (after its EXIF orientation).
public struct LabelCrop: Sendable, Hashable, Codable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// How long each stage of one scan took, in seconds.
public struct LabelScanTimings: Sendable, Hashable, Codable {
    /// Decoding, orientation, crop, grayscale, scale and contrast (the vips tools).
    public var preprocess: Double = 0
    /// Finding the panel in the photo (zero when a crop was given).
    public var panel: Double = 0
    /// Tesseract.
    public var ocr: Double = 0
    /// The parser.
    public var parse: Double = 0
    public var total: Double = 0

    public init() {}
}

/// A scan's answer: the reading, the time per stage, and the words the OCR saw (for measuring and debugging; the
/// API need not return them).
public struct LabelScanResult: Sendable {
    public var reading: LabelReading
    public var timings: LabelScanTimings
    public var words: [RecognizedWord]
    /// Which stage gave up, when the reading has no confident field (for the measuring command's table).
    public var failedStage: LabelScanStage?

    public init(reading: LabelReading, timings: LabelScanTimings, words: [RecognizedWord] = [], failedStage: LabelScanStage? = nil) {
        self.reading = reading
        self.timings = timings
        self.words = words
        self.failedStage = failedStage
    }
}

public enum LabelScanStage: String, Sendable, Hashable, Codable {
    case preprocess, panel, ocr, parse
}

public enum LabelScanError: Error, Sendable, Equatable {
    /// The bytes are no picture the image tools read.
    case notAnImage
    /// Over `LabelScanner.Configuration.maxBytes` or `maxPixels`.
    case tooLarge
    /// The crop rectangle lies outside the photo or is empty.
    case badCrop
    /// Tesseract (libtesseract.so.5 with its English and German data) or the vips tools are missing: answer 503.
    case ocrUnavailable(reason: String)
    /// A stage ran out of its time limit (a busy machine): answer 503, try again.
    case timedOut
}

/// Reads a nutrition label from a photo: vips preprocessing → finding the panel → Tesseract (its C API, loaded at run
/// time) → `LabelParser`. Create one per process and share it: Tesseract engines are made once and reused. The
/// caller bounds how many scans run at once (the server's scan queue); each scan holds one engine.
public final class LabelScanner: Sendable {
    public struct Configuration: Sendable {
        /// Larger uploads are refused before anything is decoded.
        public var maxBytes = 15_000_000
        /// Larger pictures are refused before they are decoded.
        public var maxPixels = 100_000_000
        /// The time one external tool (vips) may take.
        public var toolTimeLimit: Duration = .seconds(20)
        /// Tesseract languages.
        public var languages = "eng+deu"

        public init() {}
    }

    public let configuration: Configuration

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Nil when scanning can work on this machine, else why not (for a 503's message and the logs).
    public static func unavailableReason() -> String? {
        "label scanning is not built yet"
    }

    /// Reads `image` (JPEG, PNG, WebP or HEIC bytes), only inside `crop` when given.
    public func read(image: Data, crop: LabelCrop?) async throws(LabelScanError) -> LabelScanResult {
        throw .ocrUnavailable(reason: Self.unavailableReason() ?? "")
    }
}
