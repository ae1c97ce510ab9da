import Foundation
import Hummingbird
import WDietCore
import WDietLabelScan

/// A label reading as `POST /api/v1/labels/read` answers it:
///
/// ```json
/// {"panelFound": true, "confidence": 0.93, "threshold": 0.85, "needsManualEntry": false,
///  "suggestedBasis": "perServing",
///  "columns": [{"basis": "perServing", "servingText": "2/3 cup (55g)", "servingGrams": 55,
///               "fields": {"energyKcal": {"value": 230, "unit": "kcal", "confidence": 0.97, "confident": true,
///                                         "lessThan": false}, …}}],
///  "timings": {"waitMs": 0, "preprocessMs": 310, "panelMs": 120, "ocrMs": 640, "parseMs": 3, "totalMs": 1073}}
/// ```
///
/// Every field read is there with its confidence; `confident` is false below `threshold`, and a client leaves such a
/// field empty and marked for the person to fill in. `needsManualEntry` is true without a panel or when the reading
/// as a whole is below the threshold: the client offers "Try manual entry".
public struct LabelReadingJSON: ResponseEncodable, Sendable, Equatable {
    public struct Field: Codable, Sendable, Equatable {
        public var value: Double
        public var unit: LabelUnit
        public var confidence: Double
        public var confident: Bool
        public var lessThan: Bool
    }

    public struct Column: Codable, Sendable, Equatable {
        public var basis: LabelBasis
        public var servingText: String?
        public var servingGrams: Double?
        /// Keyed by `LabelNutrient`: energyKcal, energyKJ, fat, saturatedFat, carbohydrate, sugars, fiber, protein,
        /// sodium, salt. A field the label does not print (or the parser did not find) is absent.
        public var fields: [String: Field]
    }

    public struct Timings: Codable, Sendable, Equatable {
        public var waitMs: Int
        public var preprocessMs: Int
        public var panelMs: Int
        public var ocrMs: Int
        public var parseMs: Int
        public var totalMs: Int
    }

    public var panelFound: Bool
    public var confidence: Double
    public var threshold: Double
    public var needsManualEntry: Bool
    public var suggestedBasis: LabelBasis?
    public var columns: [Column]
    public var timings: Timings

    init(_ outcome: LabelScanService.Outcome) {
        self.init(reading: outcome.result.reading, timings: outcome.result.timings, waitedSeconds: outcome.waitedSeconds)
    }

    public init(reading: LabelReading, timings: LabelScanTimings, waitedSeconds: Double) {
        panelFound = reading.panelFound
        confidence = (reading.confidence * 1_000).rounded() / 1_000
        threshold = LabelConfidence.threshold
        needsManualEntry = Self.needsManualEntry(reading)
        suggestedBasis = Self.suggestedBasis(reading)
        columns = reading.columns.map { column in
            Column(
                basis: column.basis, servingText: column.servingText, servingGrams: column.servingGrams,
                fields: Dictionary(uniqueKeysWithValues: column.values.map { nutrient, field in
                    (nutrient.rawValue, Field(
                        value: field.value, unit: field.unit, confidence: (field.confidence * 1_000).rounded() / 1_000,
                        confident: field.isConfident, lessThan: field.lessThan))
                }))
        }
        func ms(_ seconds: Double) -> Int { Int((seconds * 1_000).rounded()) }
        self.timings = Timings(
            waitMs: ms(waitedSeconds), preprocessMs: ms(timings.preprocess), panelMs: ms(timings.panel), ocrMs: ms(timings.ocr),
            parseMs: ms(timings.parse), totalMs: ms(timings.total))
    }

    /// No panel, or a reading below the confidence bar (004 S3.3: "Try manual entry" below 85 %).
    static func needsManualEntry(_ reading: LabelReading) -> Bool {
        !reading.panelFound || reading.confidence < LabelConfidence.threshold
    }

    /// The column a person most likely logs from: the one with the most confident core fields (energy, protein,
    /// carbohydrate, fat), per serving on a tie (what a person eats is a serving more often than 100 g).
    static func suggestedBasis(_ reading: LabelReading) -> LabelBasis? {
        let core: [LabelNutrient] = [.energyKcal, .protein, .carbohydrate, .fat]
        func score(_ column: LabelColumn) -> Int {
            let energy = column.values[.energyKcal]?.isConfident == true || column.values[.energyKJ]?.isConfident == true
            return core.dropFirst().filter { column.values[$0]?.isConfident == true }.count + (energy ? 2 : 0)
        }
        let order: [LabelBasis] = [.perServing, .per100g, .per100ml]
        return reading.columns
            .sorted { (score($0), -(order.firstIndex(of: $0.basis) ?? 0)) > (score($1), -(order.firstIndex(of: $1.basis) ?? 0)) }
            .first?.basis
    }
}
