import Foundation
import WDietCore
import WDietLabelScan

/// What reads a label from a photo: `LabelScanner` (vips, Tesseract, the parser) in the product; tests put in a
/// reader of their own to hold the queue's lines without Tesseract.
protocol LabelImageReader: Sendable {
    /// Larger uploads are refused before anything is read.
    var maxBytes: Int { get }
    /// Whether scans can work here (the tools are installed): Log Meal offers "Scan Label" only then.
    var isAvailable: Bool { get }
    func read(image: Data, crop: LabelCrop?) async throws(LabelScanError) -> LabelScanResult
}

extension LabelScanner: LabelImageReader {
    var maxBytes: Int { configuration.maxBytes }
    /// A few PATH lookups, so it is asked on each Log Meal page: installing Tesseract needs no restart.
    var isAvailable: Bool { LabelScanner.unavailableReason() == nil }
}

/// Label scans on the server: the reader behind the bounded queue. One per `AppServices`; the scanner's engines and
/// the scan threads are the process's.
struct LabelScanService: Sendable {
    let reader: any LabelImageReader
    let queue: WorkLine

    init(reader: any LabelImageReader = LabelScanService.sharedScanner, queue: WorkLine = WorkLine()) {
        self.reader = reader
        self.queue = queue
    }

    /// Tesseract's engines are made once per process and reused by every scan.
    static let sharedScanner = LabelScanner()

    /// A byte limit as whole megabytes, rounded up (15,000,000 → 15).
    static func megabytes(_ bytes: Int) -> Int { (bytes + 999_999) / 1_000_000 }

    /// Why a scan failed before it produced a reading; the API and the command line each say it in their way.
    enum Refusal: Error, Equatable {
        case empty
        case tooLarge(megabytes: Int)
        /// Within the byte limit, but more pixels than the scanner decodes.
        case tooManyPixels
        case notAnImage
        case badCrop
        case unavailable(reason: String)
        case busy(retryAfterSeconds: Int)
        case timedOut
    }

    /// A finished scan with the time it waited for its turn.
    struct Outcome: Sendable {
        var result: LabelScanResult
        var waitedSeconds: Double
    }

    /// Whether Log Meal offers "Scan Label": without Tesseract or vips a scan could only answer 503.
    var isAvailable: Bool { reader.isAvailable }

    /// Reads `image` in the queue's turn. The bytes are only held in memory for the scan and dropped with it.
    func read(image: Data, crop: LabelCrop?) async throws -> Outcome {
        guard !image.isEmpty else { throw Refusal.empty }
        guard image.count <= reader.maxBytes else { throw Refusal.tooLarge(megabytes: LabelScanService.megabytes(reader.maxBytes)) }
        // A file that is no picture at all is told so at once, without taking a turn.
        guard let format = MediaFormat.sniff(image), format.kind == .photo else { throw Refusal.notAnImage }
        let queued = ContinuousClock.now
        let reader = self.reader
        do {
            return try await queue.run {
                let waited = ContinuousClock.now - queued
                let result = try await reader.read(image: image, crop: crop)
                return Outcome(result: result, waitedSeconds: waited.seconds)
            }
        } catch let busy as WorkLine.Busy {
            throw Refusal.busy(retryAfterSeconds: busy.retryAfterSeconds)
        } catch let error as LabelScanError {
            switch error {
            case .notAnImage: throw Refusal.notAnImage
            case .tooLarge: throw Refusal.tooManyPixels
            case .badCrop: throw Refusal.badCrop
            case .ocrUnavailable(let reason): throw Refusal.unavailable(reason: reason)
            case .timedOut: throw Refusal.timedOut
            }
        }
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
