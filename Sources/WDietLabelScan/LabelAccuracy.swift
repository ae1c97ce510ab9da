import Foundation
import WDietCore

/// Runs the whole pipeline on a folder of photos with a `labels.json` in the nutrition-labels dev set's format and
/// scores every field against the hand-read truth (`wdiet-dev label-accuracy`, `scripts/label-accuracy.sh`).
///
/// Scoring (docs/label-scan.md): a reading's column is compared with the truth column of the same basis
/// (per serving ↔ `per_serving`, per 100 g/ml ↔ `per_100g`; `per_serving_as_prepared` is not scored). A field is
/// *correct* when within the tolerance (fat, carbohydrate, protein: ±0.5 g or ±5 % as issue 19 says; energy ±0.5;
/// other grams ±0.05 g or ±2 %; sodium ±5 mg or ±2 %; "<1" matches a reported <1 or any value below 1; "trace" ≤ 0.1),
/// *wrong* when reported with confidence and not correct, *left empty* when not reported or reported below the bar.
/// A confident field for which the truth has nothing (a column or field the label does not print) is *spurious* and
/// counts as confident-but-wrong. Null truth (printed but unreadable) and fields listed in `uncertain` are skipped.
public struct LabelAccuracy {
    public static let fields: [(key: String, nutrient: LabelNutrient)] = [
        ("energy_kcal", .energyKcal), ("energy_kj", .energyKJ), ("fat_g", .fat), ("saturated_fat_g", .saturatedFat),
        ("carbohydrate_g", .carbohydrate), ("sugars_g", .sugars), ("fiber_g", .fiber), ("protein_g", .protein),
        ("sodium_mg", .sodium), ("salt_g", .salt),
    ]

    public enum Outcome: String, Sendable { case correct, wrong, empty }

    public struct PhotoResult: Sendable {
        public var file: String
        public var seconds: Double
        /// CPU seconds of the scan (this process and the vips tools it ran): what the scan costs on an idle core,
        /// whatever else the machine is doing.
        public var cpuSeconds: Double = 0
        public var outcomes: [(field: String, basis: String, outcome: Outcome, truth: String, read: String, inOCR: Bool)]
        public var spurious: [String]
        public var panelFound: Bool
        public var failedStage: String?
        public var error: String?
        /// Seconds per stage: preprocess, panel (first pass), OCR (second pass), parse.
        public var stages: LabelScanTimings?
    }

    public var folder: URL
    /// Where to write each photo's OCR words as JSON (for parser tests and for `wordsFolder`).
    public var saveWords: URL?
    /// Read the words from here instead of running the OCR (parser-only runs).
    public var wordsFolder: URL?

    public init(folder: URL, saveWords: URL? = nil, wordsFolder: URL? = nil) {
        self.folder = folder
        self.saveWords = saveWords
        self.wordsFolder = wordsFolder
    }

    public func run(scanner: LabelScanner, progress: (String) -> Void = { _ in }) throws -> [PhotoResult] {
        let labelsData = try Data(contentsOf: folder.appendingPathComponent("labels.json"))
        guard let root = try JSONSerialization.jsonObject(with: labelsData) as? [String: Any], let images = root["images"] as? [[String: Any]] else {
            throw LabelAccuracyError("labels.json has no images list")
        }
        var results: [PhotoResult] = []
        for image in images {
            guard let file = image["file"] as? String else { continue }
            var words: [RecognizedWord] = []
            var reading = LabelReading.noPanel
            var seconds = 0.0
            var failedStage: String?
            var errorText: String?
            var stages: LabelScanTimings?
            var cpu = 0.0
            if let wordsFolder {
                let data = try Data(contentsOf: wordsFolder.appendingPathComponent(file + ".words.json"))
                words = try JSONDecoder().decode([RecognizedWord].self, from: data)
                let start = DispatchTime.now()
                reading = LabelParser().read(words)
                seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
            } else {
                let data = try Data(contentsOf: folder.appendingPathComponent(file))
                let start = DispatchTime.now()
                let cpuStart = Self.cpuSeconds()
                do {
                    let result = try scanner.readNow(image: data, crop: nil)
                    reading = result.reading
                    words = result.words
                    failedStage = result.failedStage?.rawValue
                    stages = result.timings
                } catch {
                    errorText = "\(error)"
                    failedStage = "preprocess"
                }
                seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
                cpu = Self.cpuSeconds() - cpuStart
                if let saveWords {
                    try FileManager.default.createDirectory(at: saveWords, withIntermediateDirectories: true)
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.sortedKeys]
                    try encoder.encode(words).write(to: saveWords.appendingPathComponent(file + ".words.json"))
                }
            }
            var result = Self.score(file: file, image: image, reading: reading, words: words, seconds: seconds, failedStage: failedStage, error: errorText)
            result.stages = stages
            result.cpuSeconds = cpu
            progress(Self.line(result))
            results.append(result)
        }
        return results
    }

    /// User and system CPU time of this process and its finished children (the vips tools), in seconds.
    static func cpuSeconds() -> Double {
        func total(_ who: Int32) -> Double {
            var usage = rusage()
            guard getrusage(who, &usage) == 0 else { return 0 }
            return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
                + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        }
        #if canImport(Glibc)
        return total(RUSAGE_SELF.rawValue) + total(RUSAGE_CHILDREN.rawValue)
        #else
        return total(RUSAGE_SELF) + total(RUSAGE_CHILDREN)
        #endif
    }

    static func truthBasis(_ basis: LabelBasis) -> String {
        basis == .perServing ? "per_serving" : "per_100g"
    }

    static func score(file: String, image: [String: Any], reading: LabelReading, words: [RecognizedWord], seconds: Double, failedStage: String?, error: String?) -> PhotoResult {
        let columns = image["columns"] as? [[String: Any]] ?? []
        let uncertain = Set((image["uncertain"] as? [String]) ?? [])
        let ocrText = words.map(\.text).joined(separator: " ").replacingOccurrences(of: ",", with: ".")
        var outcomes: [(field: String, basis: String, outcome: Outcome, truth: String, read: String, inOCR: Bool)] = []
        var spurious: [String] = []
        for (columnIndex, column) in columns.enumerated() {
            guard let basis = column["basis"] as? String, basis != "per_serving_as_prepared", let values = column["values"] as? [String: Any] else { continue }
            let readColumn = reading.columns.first { truthBasis($0.basis) == basis }
            for (key, nutrient) in fields {
                guard let truth = values[key], !(truth is NSNull), !uncertain.contains("columns[\(columnIndex)].values.\(key)") else { continue }
                let field = readColumn?.values[nutrient]
                let truthText = "\(truth)"
                let digits = truthText.filter { $0.isNumber || $0 == "." }
                let inOCR = !digits.isEmpty && ocrText.contains(digits.hasSuffix(".0") ? String(digits.dropLast(2)) : digits)
                guard let field, field.isConfident else {
                    outcomes.append((key, basis, .empty, truthText, field.map { "(\(format($0)))" } ?? "-", inOCR))
                    continue
                }
                outcomes.append((key, basis, matches(field, truth: truth, nutrient: nutrient) ? .correct : .wrong, truthText, format(field), inOCR))
            }
        }
        for column in reading.columns {
            let truthColumn = columns.first { ($0["basis"] as? String) == truthBasis(column.basis) }
            let truthValues = truthColumn?["values"] as? [String: Any] ?? [:]
            for (key, nutrient) in fields {
                guard let field = column.values[nutrient], field.isConfident else { continue }
                if truthValues[key] == nil { spurious.append("\(truthBasis(column.basis)).\(key)=\(format(field))") }
            }
        }
        return PhotoResult(file: file, seconds: seconds, outcomes: outcomes, spurious: spurious, panelFound: reading.panelFound, failedStage: failedStage, error: error)
    }

    static func format(_ field: LabelFieldReading) -> String {
        let number = field.value == field.value.rounded() ? String(Int(field.value)) : String(format: "%g", field.value)
        return (field.lessThan ? "<" : "") + number + String(format: "@%.2f", field.confidence)
    }

    static func matches(_ field: LabelFieldReading, truth: Any, nutrient: LabelNutrient) -> Bool {
        if let text = truth as? String {
            if text == "trace" { return field.value <= 0.1 }
            if text.hasPrefix("<"), let bound = Double(text.dropFirst()) {
                return field.lessThan ? abs(field.value - bound) < 0.001 : (field.value >= 0 && field.value < bound)
            }
            return false
        }
        guard let number = (truth as? NSNumber)?.doubleValue else { return false }
        if field.lessThan { return false }
        let difference = abs(field.value - number)
        switch nutrient {
        case .fat, .carbohydrate, .protein: return difference <= 0.5 || difference <= number * 0.05
        case .energyKcal, .energyKJ: return difference <= 0.5
        case .sodium: return difference <= 5 || difference <= number * 0.02
        default: return difference <= 0.05 || difference <= number * 0.02
        }
    }

    static func line(_ result: PhotoResult) -> String {
        let correct = result.outcomes.count { $0.outcome == .correct }
        let wrong = result.outcomes.filter { $0.outcome == .wrong }
        let empty = result.outcomes.filter { $0.outcome == .empty }
        var text = "\(result.file.padding(toLength: 38, withPad: " ", startingAt: 0)) " + String(format: "%5.2f s (CPU %4.2f s)  correct %2d  wrong %d  empty %2d", result.seconds, result.cpuSeconds, correct, wrong.count, empty.count)
        if let stages = result.stages {
            let cpu = stages.cpu
            text += String(format: "  (vips %.2f, pass 1 %.2f, pass 2 %.2f; CPU vips %.2f, pass 1 %.2f + OCR %.2f, pass 2 %.2f + OCR %.2f, parser %.2f)",
                stages.preprocess, stages.panel, stages.ocr, cpu.preprocess, cpu.overviewImage, cpu.overviewOCR, cpu.panelImage, cpu.panelOCR, cpu.parse)
        }
        if !wrong.isEmpty { text += "  WRONG " + wrong.map { "\($0.basis).\($0.field) \($0.read)≠\($0.truth)" }.joined(separator: ", ") }
        if !result.spurious.isEmpty { text += "  SPURIOUS " + result.spurious.joined(separator: ", ") }
        if let error = result.error { text += "  ERROR \(error)" }
        // WDIET_LABEL_DETAIL=1: each field left empty, as truth and what was read below the bar ("-": nothing).
        if ProcessInfo.processInfo.environment["WDIET_LABEL_DETAIL"] == "1", !empty.isEmpty {
            text += "\n    empty: " + empty.map { "\($0.basis).\($0.field) \($0.truth) read \($0.read)\($0.inOCR ? " (in OCR)" : "")" }.joined(separator: ", ")
        }
        return text
    }

    /// Where the photos' CPU went, summed over them: "CPU by stage: vips 2.41 s (11 %), …".
    static func stageShares(_ stages: [LabelScanTimings.CPU]) -> String {
        let total = stages.reduce(0) { $0 + $1.total }
        let parts: [(String, KeyPath<LabelScanTimings.CPU, Double>)] = [
            ("vips", \.preprocess), ("pass 1 image", \.overviewImage), ("pass 1 Tesseract", \.overviewOCR),
            ("pass 2 image", \.panelImage), ("pass 2 Tesseract", \.panelOCR), ("panel finder and parser", \.parse),
        ]
        return "CPU by stage: " + parts.map { name, path in
            let seconds = stages.reduce(0) { $0 + $1[keyPath: path] }
            return String(format: "%@ %.2f s (%.0f %%)", name as NSString, seconds, seconds * 100 / max(total, 1e-9))
        }.joined(separator: ", ") + String(format: "; %.2f s in all", total)
    }

    /// The report: per field, the totals, times and the per-photo table of which stage failed.
    public static func report(_ results: [PhotoResult]) -> String {
        var lines: [String] = []
        lines.append("field            correct  wrong  empty  scored")
        var totalScored = 0, totalCorrect = 0, totalWrong = 0
        for (key, _) in fields {
            let all = results.flatMap { $0.outcomes.filter { $0.field == key } }
            guard !all.isEmpty else { continue }
            let correct = all.count { $0.outcome == .correct }, wrong = all.count { $0.outcome == .wrong }
            lines.append(key.padding(toLength: 16, withPad: " ", startingAt: 0) + String(format: " %7d  %5d  %5d  %6d", correct, wrong, all.count - correct - wrong, all.count))
            totalScored += all.count
            totalCorrect += correct
            totalWrong += wrong
        }
        let spurious = results.reduce(0) { $0 + $1.spurious.count }
        lines.append("all".padding(toLength: 16, withPad: " ", startingAt: 0) + String(format: " %7d  %5d  %5d  %6d", totalCorrect, totalWrong, totalScored - totalCorrect - totalWrong, totalScored))
        lines.append(String(format: "confident-but-wrong: %d wrong + %d spurious = %d of %d fields (%.1f %%; the line is 3 %%)",
            totalWrong, spurious, totalWrong + spurious, totalScored, Double(totalWrong + spurious) * 100 / Double(max(1, totalScored))))
        // Issue 19's figures: kcal on photos whose kcal is readable; fat, carbohydrate, protein.
        for key in ["energy_kcal", "fat_g", "carbohydrate_g", "protein_g"] {
            let photos = results.filter { $0.outcomes.contains { $0.field == key } }
            let right = photos.filter { photo in photo.outcomes.contains { $0.field == key && $0.outcome == .correct } }
            lines.append(String(format: "%@: correct on %d of %d photos (%.0f %%)", key as NSString, right.count, photos.count, Double(right.count) * 100 / Double(max(1, photos.count))))
        }
        let times = results.map(\.seconds).sorted()
        if !times.isEmpty {
            func percentile(_ p: Double) -> Double { times[min(times.count - 1, Int((Double(times.count) * p).rounded(.up)) - 1)] }
            lines.append(String(format: "time per photo: P50 %.2f s, P95 %.2f s, max %.2f s (%d photos)", percentile(0.5), percentile(0.95), times.last!, times.count))
        }
        let cpu = results.map(\.cpuSeconds).sorted()
        if let slowest = cpu.last, slowest > 0 {
            func percentile(_ p: Double) -> Double { cpu[min(cpu.count - 1, Int((Double(cpu.count) * p).rounded(.up)) - 1)] }
            lines.append(String(format: "CPU per photo (the time on an idle core): P50 %.2f s, P95 %.2f s, max %.2f s", percentile(0.5), percentile(0.95), slowest))
        }
        let stages = results.compactMap(\.stages?.cpu)
        let stageTotal = stages.reduce(0) { $0 + $1.total }
        if stageTotal > 0 {
            lines.append(Self.stageShares(stages))
        }
        lines.append("")
        lines.append("| photo | correct | wrong | empty | missed: not in OCR / in OCR | stage that failed |")
        lines.append("| --- | --- | --- | --- | --- | --- |")
        for result in results {
            let correct = result.outcomes.count { $0.outcome == .correct }
            let wrong = result.outcomes.count { $0.outcome == .wrong } + result.spurious.count
            let empty = result.outcomes.filter { $0.outcome == .empty }
            let notInOCR = empty.count { !$0.inOCR }, inOCR = empty.count { $0.inOCR }
            let stage: String
            if let error = result.error {
                stage = "preprocess (\(error))"
            } else if result.failedStage == "panel" || (!result.panelFound && correct == 0) {
                stage = "panel (no nutrient names found)"
            } else if empty.isEmpty && wrong == 0 {
                stage = "—"
            } else if notInOCR >= inOCR {
                stage = "OCR (values not read)"
            } else {
                stage = "parser (values read but not placed)"
            }
            lines.append("| \(result.file) | \(correct) | \(wrong) | \(empty.count) | \(notInOCR) / \(inOCR) | \(stage) |")
        }
        return lines.joined(separator: "\n")
    }
}

public struct LabelAccuracyError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
