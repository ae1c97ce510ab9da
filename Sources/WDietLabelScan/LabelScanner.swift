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
    /// CPU seconds per stage (the scan's thread, and the vips runs for `preprocess`).
    public var cpu = CPU()

    /// Where a scan's CPU goes. The vips runs are counted from this process's finished children, so `preprocess`
    /// is exact only while one scan runs at a time (the measuring command); the other stages are the scan thread's.
    public struct CPU: Sendable, Hashable, Codable {
        /// The vips runs (decoding, orientation, grey) and reading their output.
        public var preprocess: Double = 0
        /// Scaling and contrast of the whole photo for pass 1, and of the panel for pass 2 (our Swift code).
        public var overviewImage: Double = 0
        public var panelImage: Double = 0
        /// Tesseract: pass 1 (the whole photo; with a new engine's start, the first scan of a process) and pass 2
        /// (the panel).
        public var overviewOCR: Double = 0
        public var panelOCR: Double = 0
        /// Finding the panel, the parser on both passes' words, and their merge.
        public var parse: Double = 0

        public init() {}

        public var total: Double { preprocess + overviewImage + panelImage + overviewOCR + panelOCR + parse }
    }

    public init() {}
}

/// CPU clocks for `LabelScanTimings.CPU`.
enum CPUClock {
    /// The calling thread's CPU time, in seconds.
    static func thread() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// User and system CPU time of this process's finished children, in seconds.
    static func children() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
        guard getrusage(RUSAGE_CHILDREN.rawValue, &usage) == 0 else { return 0 }
        #else
        guard getrusage(RUSAGE_CHILDREN, &usage) == 0 else { return 0 }
        #endif
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }
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
/// caller bounds how many scans run at once (the server's scan queue); each scan holds one engine while it reads.
public final class LabelScanner: Sendable {
    public struct Configuration: Sendable {
        /// Larger uploads are refused before anything is decoded.
        public var maxBytes = 15_000_000
        /// Larger pictures are refused before they are decoded.
        public var maxPixels = 100_000_000
        /// The time one external tool (vips) may take.
        public var toolTimeLimit: Duration = .seconds(20)
        /// Tesseract languages. English alone reads German, French and Spanish panels' names well enough for the
        /// parser's vocabulary (one typo allowed) at half the time of "eng+deu".
        public var languages = "eng"
        /// The longer side the whole photo is scaled to for the first pass, which finds the panel.
        public var overviewSize = 1800
        /// A small photo is enlarged at most this much for the first pass: 1.5× read 79 fields of the dev set where
        /// 2× read 75 (and 1.25× 73, 1× 72), with a quarter fewer pixels for Tesseract on the small photos.
        public var overviewMaxEnlargement = 1.5
        /// The height, in pixels, the panel's text is scaled to for the second pass (Tesseract reads capitals of
        /// about 20–40 px best).
        public var textHeight = 30.0
        /// The second pass reads at most this many pixels (a bound on its time).
        public var maxPanelPixels = 3_000_000
        /// Combine the two passes' readings (`LabelReading.merged(with:)`) rather than keep only the better one.
        public var mergePasses = ProcessInfo.processInfo.environment["WDIET_LABEL_MERGE"] != "0"
        /// Skip the panel pass when the first pass's reading is already complete and cross-checked
        /// (`isComplete`): the second reading could only agree with it. `WDIET_LABEL_EARLY_STOP=0` turns it off.
        public var stopWhenOverviewComplete = ProcessInfo.processInfo.environment["WDIET_LABEL_EARLY_STOP"] != "0"

        public init() {}
    }

    public let configuration: Configuration
    private let engines: TesseractPool

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.engines = TesseractPool(languages: configuration.languages)
    }

    /// Nil when scanning can work on this machine, else why not (for a 503's message and the logs).
    public static func unavailableReason() -> String? {
        if case .failure(.ocrUnavailable(let reason)) = TesseractLibrary.shared { return reason }
        if !VipsTools(timeLimit: .seconds(1), maxPixels: 1).isAvailable {
            return "the vips tools are not installed (Debian: apt-get install libvips-tools)"
        }
        return nil
    }

    /// Reads `image` (JPEG, PNG, WebP or HEIC bytes), only inside `crop` when given. The work (seconds of CPU:
    /// the tools and Tesseract) runs where the calling task runs, blocking that thread: the server's scan queue gives
    /// its tasks threads of their own (a task executor at a lower priority); never call it straight from a request
    /// handler on the event loops.
    public func read(image: Data, crop: LabelCrop?) async throws(LabelScanError) -> LabelScanResult {
        try readNow(image: image, crop: crop)
    }

    /// The same, on the calling thread.
    public func readNow(image: Data, crop: LabelCrop?) throws(LabelScanError) -> LabelScanResult {
        let started = DispatchTime.now()
        func seconds(since start: DispatchTime) -> Double { Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9 }
        guard image.count <= configuration.maxBytes else { throw .tooLarge }
        if let reason = Self.unavailableReason() { throw .ocrUnavailable(reason: reason) }
        var timings = LabelScanTimings()

        let vips = VipsTools(timeLimit: configuration.toolTimeLimit, maxPixels: configuration.maxPixels)
        var clock = (thread: CPUClock.thread(), children: CPUClock.children())
        /// The scan thread's CPU since the last call.
        func lap() -> Double {
            let now = CPUClock.thread()
            defer { clock.thread = now }
            return now - clock.thread
        }
        let gray = try vips.grayscale(image, crop: crop)
        timings.preprocess = seconds(since: started)
        timings.cpu.preprocess = lap() + CPUClock.children() - clock.children

        return try engines.withEngine { engine throws(LabelScanError) in
            // A new engine's start (the first scan of a process) counts as pass 1's Tesseract.
            timings.cpu.overviewOCR = lap()
            // Pass 1: the whole photo (or the crop) at a moderate size, to find the panel.
            let overviewStart = DispatchTime.now()
            let overviewScale = min(configuration.overviewMaxEnlargement, Double(configuration.overviewSize) / Double(max(gray.width, gray.height)))
            // Not inverted as a whole: a dark background around a light panel is common; Tesseract inverts dark lines itself.
            let overview = gray.scaled(by: overviewScale).normalised(invertIfDark: false)
            timings.cpu.overviewImage = lap()
            let overviewWords = engine.words(in: overview, mode: Self.overviewMode).map { $0.scaled(by: 1 / overviewScale) }
            timings.cpu.overviewOCR += lap()
            let panel = PanelFinder.panel(in: overviewWords, imageWidth: gray.width, imageHeight: gray.height)
            timings.panel = seconds(since: overviewStart)

            let parser = LabelParser()
            var best = parser.read(overviewWords)
            timings.cpu.parse = lap()
            var bestWords = overviewWords
            if let panel, !(configuration.stopWhenOverviewComplete && Self.isComplete(best)) {
                // Pass 2: the panel alone, its text scaled to the height Tesseract reads best.
                let ocrStart = DispatchTime.now()
                let region = gray.cropped(x: panel.x, y: panel.y, width: panel.width, height: panel.height)
                var scale = configuration.textHeight / max(panel.textHeight, 1)
                scale = min(4, max(0.5, scale))
                let pixels = Double(region.width * region.height) * scale * scale
                if pixels > Double(configuration.maxPanelPixels) { scale *= (Double(configuration.maxPanelPixels) / pixels).squareRoot() }
                let prepared = region.scaled(by: scale).normalised()
                timings.cpu.panelImage = lap()
                let panelWords = engine.words(in: prepared, mode: Self.panelMode).map {
                    $0.scaled(by: 1 / scale).offset(x: Double(panel.x), y: Double(panel.y))
                }
                timings.ocr = seconds(since: ocrStart)
                timings.cpu.panelOCR = lap()
                let parseStart = DispatchTime.now()
                let reading = parser.read(panelWords)
                timings.parse = seconds(since: parseStart)
                // The better reading, with the other's evidence (the same number read from other pixels).
                if Self.score(reading) >= Self.score(best) {
                    best = configuration.mergePasses ? reading.merged(with: best) : reading
                    bestWords = panelWords
                } else if configuration.mergePasses {
                    best = best.merged(with: reading)
                }
                timings.cpu.parse += lap()
            }
            timings.total = seconds(since: started)
            let failed: LabelScanStage? = if panel == nil && !best.panelFound {
                .panel
            } else if !best.panelFound {
                .ocr
            } else if best.confidence < LabelConfidence.threshold {
                .parse
            } else {
                nil
            }
            return LabelScanResult(reading: best, timings: timings, words: bestWords, failedStage: failed)
        }
    }

    static let overviewMode: TesseractPageMode = ProcessInfo.processInfo.environment["WDIET_LABEL_PSM1"] == "3" ? .auto : .sparseText

    static let panelMode: TesseractPageMode = {
        switch ProcessInfo.processInfo.environment["WDIET_LABEL_PSM"] {
        case "3": .auto
        case "4": .singleColumn
        case "6": .singleBlock
        default: .sparseText
        }
    }()

    /// A reading that needs no second pass: a panel with every column's energy (kcal), fat, carbohydrate and protein
    /// read with confidence, and an overall confidence of at least 0.9 — which the parser gives only when the energy
    /// and the macros add up as read (or two columns agree). On the dev set 5 of 23 photos stop here, with the same
    /// fields correct and none wrong; the harder photos still get both passes and their merge.
    static func isComplete(_ reading: LabelReading) -> Bool {
        guard reading.panelFound, reading.confidence >= 0.9, !reading.columns.isEmpty else { return false }
        let core: [LabelNutrient] = [.energyKcal, .fat, .carbohydrate, .protein]
        return reading.columns.allSatisfy { column in core.allSatisfy { column.values[$0]?.isConfident == true } }
    }

    /// How much of a reading is usable: its confident fields (ties: more fields).
    static func score(_ reading: LabelReading) -> Double {
        reading.columns.reduce(0) { total, column in
            total + column.values.values.reduce(0) { $0 + ($1.isConfident ? 1 : 0.01) }
        }
    }
}

extension RecognizedWord {
    func scaled(by factor: Double) -> RecognizedWord {
        RecognizedWord(text: text, x: x * factor, y: y * factor, width: width * factor, height: height * factor, confidence: confidence)
    }

    func offset(x dx: Double, y dy: Double) -> RecognizedWord {
        RecognizedWord(text: text, x: x + dx, y: y + dy, width: width, height: height, confidence: confidence)
    }
}
