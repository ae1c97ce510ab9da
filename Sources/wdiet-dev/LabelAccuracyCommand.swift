import ArgumentParser
import Foundation
import WDietCore
import WDietLabelScan

/// `wdiet-dev label-accuracy <folder>`: the whole label pipeline (whole photo → panel → Tesseract → parser) on every
/// photo of a folder with a `labels.json` in the nutrition-labels dev set's format; per field correct / wrong / left
/// empty, the confident-but-wrong rate, P50/P95 time per photo, and a per-photo table of the stage that failed.
/// See docs/label-scan.md.
struct LabelAccuracyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "label-accuracy",
        abstract: "Measure nutrition-label reading on a folder of photos with a labels.json."
    )

    @Argument(help: "A folder with photos and labels.json (e.g. ../shared/datasets/nutrition-labels/dev).")
    var folder: String

    @Option(name: .customLong("save-words"), help: "Write each photo's OCR words (text and boxes, no image data) as JSON here.")
    var saveWords: String?

    @Option(name: .customLong("words"), help: "Run only the parser, on words saved with --save-words.")
    var words: String?

    @Flag(name: .customLong("quiet"), help: "Only the report, not a line per photo.")
    var quiet = false

    func run() throws {
        if words == nil, let reason = LabelScanner.unavailableReason() {
            throw CommandFailure("label scanning is unavailable: \(reason)")
        }
        let accuracy = LabelAccuracy(
            folder: URL(fileURLWithPath: folder),
            saveWords: saveWords.map { URL(fileURLWithPath: $0) },
            wordsFolder: words.map { URL(fileURLWithPath: $0) }
        )
        let results: [LabelAccuracy.PhotoResult]
        do {
            results = try accuracy.run(scanner: LabelScanner()) { line in
                if !quiet { print(line) }
            }
        } catch let error as LabelAccuracyError {
            throw CommandFailure(error.description)
        } catch {
            throw CommandFailure("\(folder): \(error.localizedDescription)")
        }
        print(LabelAccuracy.report(results))
    }
}
