import Testing
import WDietCore
@testable import WDietLabelScan

/// When the first pass's reading is complete enough to skip the panel pass (`LabelScanner.isComplete`). Pure: no
/// Tesseract needed.
@Suite("Label scan early stop")
struct LabelScanEarlyStopTests {
    static func field(_ value: Double, _ unit: LabelUnit = .g, confidence: Double = 0.9) -> LabelFieldReading {
        LabelFieldReading(value: value, unit: unit, confidence: confidence)
    }

    /// A US panel per serving: 250 kcal, fat 12 g, carbohydrate 31 g, protein 5 g (9 × 12 + 4 × 31 + 4 × 5 = 252).
    static func column(_ basis: LabelBasis = .perServing, dropping: LabelNutrient? = nil, proteinConfidence: Double = 0.9) -> LabelColumn {
        var values: [LabelNutrient: LabelFieldReading] = [
            .energyKcal: field(250, .kcal), .fat: field(12), .carbohydrate: field(31), .protein: field(5, confidence: proteinConfidence),
            .sodium: field(470, .mg, confidence: 0.6),
        ]
        if let dropping { values[dropping] = nil }
        return LabelColumn(basis: basis, servingText: "1 cup (228g)", servingGrams: 228, values: values)
    }

    @Test("energy and the three macros confident and the reading at 0.9: complete (a field below the bar elsewhere does not matter)")
    func complete() {
        #expect(LabelScanner.isComplete(LabelReading(columns: [Self.column()], panelFound: true, confidence: 0.9)))
        #expect(LabelScanner.isComplete(LabelReading(columns: [Self.column(), Self.column(.per100g)], panelFound: true, confidence: 0.97)))
    }

    @Test("a reading not cross-checked (0.87, read cleanly but unconfirmed) is not complete")
    func notCrossChecked() {
        #expect(!LabelScanner.isComplete(LabelReading(columns: [Self.column()], panelFound: true, confidence: 0.87)))
    }

    @Test("a core field missing or below the bar, in any column, is not complete")
    func missingField() {
        for nutrient in [LabelNutrient.energyKcal, .fat, .carbohydrate, .protein] {
            #expect(!LabelScanner.isComplete(LabelReading(columns: [Self.column(dropping: nutrient)], panelFound: true, confidence: 0.95)))
        }
        #expect(!LabelScanner.isComplete(LabelReading(columns: [Self.column(proteinConfidence: 0.84)], panelFound: true, confidence: 0.95)))
        let secondIncomplete = LabelReading(columns: [Self.column(), Self.column(.per100g, dropping: .fat)], panelFound: true, confidence: 0.95)
        #expect(!LabelScanner.isComplete(secondIncomplete))
    }

    @Test("no panel or no column is never complete")
    func noPanel() {
        #expect(!LabelScanner.isComplete(.noPanel))
        #expect(!LabelScanner.isComplete(LabelReading(columns: [], panelFound: true, confidence: 0.95)))
        #expect(!LabelScanner.isComplete(LabelReading(columns: [Self.column()], panelFound: false, confidence: 0.95)))
    }
}
