import ArgumentParser
import Foundation
import WDietCore
import WDietLabelScan
import WDietServer

/// `wdiet label`: nutrition labels.
struct LabelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "label",
        abstract: "Read nutrition labels from photos.",
        subcommands: [Read.self]
    )

    /// `wdiet label read IMAGE [--crop X,Y,W,H] [--json]`: what `POST /api/v1/labels/read` answers for the photo, on
    /// this machine, without a server (for operators checking an installation, and for measuring).
    struct Read: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read a nutrition label from a photo: each field with its unit, basis and confidence.",
            discussion: """
                The same pipeline as the server's POST /api/v1/labels/read: the vips tools, finding the panel (unless \
                --crop is given), Tesseract and the label parser. Fields below the confidence bar (0.85) are shown \
                but marked; the app leaves them empty. Needs tesseract-ocr (libtesseract.so.5 with English and German \
                data) and libvips-tools; docs/label-scan.md.
                """
        )

        @Argument(help: "The photo: JPEG, PNG, WebP or HEIC.")
        var image: String

        @Option(help: "Read only this rectangle of the photo as shown upright, in pixels: X,Y,WIDTH,HEIGHT.")
        var crop: String?

        @Flag(help: "Print the API's JSON.")
        var json = false

        func validate() throws {
            if let crop, LabelCommand.parseCrop(crop) == nil {
                throw ValidationError("--crop must be four whole numbers X,Y,WIDTH,HEIGHT (width and height above 0), e.g. --crop 120,80,900,1400.")
            }
        }

        func run() async throws {
            let url = URL(fileURLWithPath: image)
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                throw CommandFailure("Cannot read \(image): \((error as NSError).localizedDescription)")
            }
            let scanner = LabelScanner()
            guard !data.isEmpty else { throw CommandFailure("\(image) is empty.") }
            guard data.count <= scanner.configuration.maxBytes else {
                throw CommandFailure("\(image) is \(data.count) bytes; at most \(scanner.configuration.maxBytes) are read.")
            }
            let result: LabelScanResult
            do {
                result = try await scanner.read(image: data, crop: crop.flatMap(LabelCommand.parseCrop))
            } catch {
                throw CommandFailure(LabelCommand.describe(error, image: image))
            }
            let answer = LabelReadingJSON(reading: result.reading, timings: result.timings, waitedSeconds: 0)
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                print(String(decoding: try encoder.encode(answer), as: UTF8.self))
            } else {
                print(LabelCommand.text(answer))
            }
        }
    }

    static func parseCrop(_ text: String) -> LabelCrop? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let width = parts[2], let height = parts[3],
              x >= 0, y >= 0, width > 0, height > 0 else { return nil }
        return LabelCrop(x: x, y: y, width: width, height: height)
    }

    static func describe(_ error: LabelScanError, image: String) -> String {
        switch error {
        case .notAnImage: "\(image) is not a photo the image tools can read (JPEG, PNG, WebP or HEIC)."
        case .tooLarge: "\(image) has more pixels than the scanner decodes."
        case .badCrop: "The crop lies outside the photo (or is empty)."
        case .ocrUnavailable(let reason): "Label scanning is unavailable on this machine: \(reason). Install tesseract-ocr, tesseract-ocr-eng, tesseract-ocr-deu and libvips-tools."
        case .timedOut: "Reading \(image) took too long."
        }
    }

    static let names: [(String, String)] = [
        ("energyKcal", "Energy"), ("energyKJ", "Energy"), ("fat", "Fat"), ("saturatedFat", "  saturated"),
        ("carbohydrate", "Carbohydrate"), ("sugars", "  sugars"), ("fiber", "Fiber"), ("protein", "Protein"),
        ("sodium", "Sodium"), ("salt", "Salt"),
    ]

    /// The reading for a person at a terminal.
    static func text(_ answer: LabelReadingJSON) -> String {
        func number(_ value: Double) -> String {
            value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
        }
        var lines: [String] = []
        if !answer.panelFound {
            lines.append("No nutrition panel found: the app offers \"Try manual entry\".")
        } else {
            lines.append(
                "Panel found · confidence \(String(format: "%.2f", answer.confidence))"
                    + (answer.needsManualEntry ? " (below \(answer.threshold): the app offers \"Try manual entry\")" : ""))
        }
        for column in answer.columns {
            var title: String
            switch column.basis {
            case .perServing: title = "Per serving"
            case .per100g: title = "Per 100 g"
            case .per100ml: title = "Per 100 ml"
            }
            if let text = column.servingText { title += " (\(text))" }
            if let grams = column.servingGrams { title += ", \(number(grams)) g" }
            if column.basis == answer.suggestedBasis { title += "  · suggested" }
            lines.append("")
            lines.append(title)
            for (key, name) in names {
                guard let field = column.fields[key] else { continue }
                let value = (field.lessThan ? "<" : "") + number(field.value) + " " + field.unit.rawValue
                let mark = field.confident ? "" : "  (below the bar: left empty in the app)"
                lines.append("  " + name.padding(toLength: 14, withPad: " ", startingAt: 0)
                    + value.padding(toLength: 12, withPad: " ", startingAt: 0) + String(format: "%.2f", field.confidence) + mark)
            }
        }
        let t = answer.timings
        lines.append("")
        lines.append("Time: preprocess \(t.preprocessMs) ms · panel \(t.panelMs) ms · OCR \(t.ocrMs) ms · parse \(t.parseMs) ms · total \(t.totalMs) ms")
        return lines.joined(separator: "\n")
    }
}
