import Foundation
import Testing
import WDietCore

/// Two readings of one label (two OCR passes over different pixels) combined: `LabelReading.merged(with:)`.
@Suite("Label reading merged with a second pass")
struct LabelReadingMergeTests {
    static func reading(_ fields: [LabelNutrient: (Double, Double)], basis: LabelBasis = .per100g, lessThan: Set<LabelNutrient> = []) -> LabelReading {
        let values = fields.mapValues { LabelFieldReading(value: $0.0, unit: .g, confidence: $0.1) }
            .reduce(into: [LabelNutrient: LabelFieldReading]()) { result, entry in
                var field = entry.value
                field.lessThan = lessThan.contains(entry.key)
                result[entry.key] = field
            }
        return LabelReading(columns: [LabelColumn(basis: basis, values: values)], panelFound: true, confidence: 0)
    }

    @Test("the same number read twice, each nearly sure (0.78 and 0.72), becomes confident (0.87)")
    func agreement() throws {
        let merged = Self.reading([.sugars: (3.1, 0.78)]).merged(with: Self.reading([.sugars: (3.1, 0.72)]))
        let sugars = try #require(merged.column(.per100g)?.values[.sugars])
        #expect(sugars.value == 3.1)
        #expect(abs(sugars.confidence - 0.87) < 1e-9)
        #expect(sugars.isConfident)
        // A confident read keeps its own, higher confidence.
        let higher = Self.reading([.fat: (12, 0.95)]).merged(with: Self.reading([.fat: (12, 0.8)]))
        #expect(higher.column(.per100g)?.values[.fat]?.confidence == 0.95)
    }

    @Test("agreement needs both reads at least 0.7 sure, the same number and the same '<'")
    func weakOrDifferentAgreement() {
        // 0.65 is too doubtful a read to be confirmed by another one.
        #expect(Self.reading([.salt: (0.4, 0.65)]).merged(with: Self.reading([.salt: (0.4, 0.9)])).column(.per100g)?.values[.salt]?.confidence == 0.65)
        // 4.9 and 49: no agreement, and as neither was confident nothing changes.
        #expect(Self.reading([.fat: (4.9, 0.8)]).merged(with: Self.reading([.fat: (49, 0.8)])).column(.per100g)?.values[.fat]?.confidence == 0.8)
        // "<1 g" and "1 g" are not the same reading.
        let lessThan = Self.reading([.fiber: (1, 0.8)], lessThan: [.fiber]).merged(with: Self.reading([.fiber: (1, 0.8)]))
        #expect(lessThan.column(.per100g)?.values[.fiber]?.confidence == 0.8)
    }

    @Test("two confident reads of different numbers: one is a misreading, so the field falls below the bar (0.75)")
    func disagreement() throws {
        let merged = Self.reading([.protein: (7.5, 0.9), .fat: (12, 0.9)]).merged(with: Self.reading([.protein: (75, 0.9), .fat: (12, 0.9)]))
        let protein = try #require(merged.column(.per100g)?.values[.protein])
        #expect(protein.value == 7.5)
        #expect(abs(protein.confidence - 0.75) < 1e-9)
        #expect(!protein.isConfident)
        #expect(merged.confident(.fat, .per100g) == 12)
    }

    @Test("a field only the other pass read with confidence is taken; a doubtful one is not; nor a column of another basis")
    func fieldsFromTheOtherPass() {
        let mine = Self.reading([.energyKcal: (375, 0.95), .fat: (12, 0.9), .carbohydrate: (58, 0.9)])
        let theirs = LabelReading(columns: [
            LabelColumn(basis: .per100g, values: [
                .protein: LabelFieldReading(value: 7.5, unit: .g, confidence: 0.9),
                .salt: LabelFieldReading(value: 0.4, unit: .g, confidence: 0.8),
            ]),
            LabelColumn(basis: .perServing, servingText: "30 g", servingGrams: 30, values: [.fat: LabelFieldReading(value: 3.6, unit: .g, confidence: 0.95)]),
        ], panelFound: true, confidence: 0.5)
        let merged = mine.merged(with: theirs)
        #expect(merged.confident(.protein, .per100g) == 7.5)
        #expect(merged.column(.per100g)?.values[.salt] == nil)
        #expect(merged.column(.perServing) == nil)
        #expect(merged.columns.count == 1)
        // Energy, fat, carbohydrate and now protein: all four core fields of the column are confident.
        #expect(merged.confidence == 1)
        #expect(mine.confidence == 0)
    }

    @Test("fields from two passes must still hold together: sugars 21 g from one pass above carbohydrate 18 g of the other are both left empty")
    func combinedColumnHoldsTogether() {
        let merged = Self.reading([.carbohydrate: (18, 0.9), .fat: (2.9, 0.9)]).merged(with: Self.reading([.sugars: (21, 0.9), .saturatedFat: (2, 0.9)]))
        #expect(merged.column(.per100g)?.values[.sugars]?.isConfident == false)
        #expect(merged.column(.per100g)?.values[.carbohydrate]?.isConfident == false)
        // Saturated 2 g of fat 2.9 g holds together: both kept.
        #expect(merged.confident(.saturatedFat, .per100g) == 2)
        #expect(merged.confident(.fat, .per100g) == 2.9)
        // kJ from one pass and kcal from the other out of ratio (1569 / 157 = 10): both left empty.
        let energy = LabelReading(columns: [LabelColumn(basis: .per100g, values: [.energyKJ: LabelFieldReading(value: 1569, unit: .kJ, confidence: 0.9)])], panelFound: true, confidence: 0)
            .merged(with: LabelReading(columns: [LabelColumn(basis: .per100g, values: [.energyKcal: LabelFieldReading(value: 157, unit: .kcal, confidence: 0.9)])], panelFound: true, confidence: 0))
        #expect(energy.column(.per100g)?.values[.energyKJ]?.isConfident == false)
        #expect(energy.column(.per100g)?.values[.energyKcal]?.isConfident == false)
    }

    @Test("a pass that found no panel adds nothing; a reading without a panel takes the other's")
    func noPanel() {
        let mine = Self.reading([.fat: (12, 0.8)])
        #expect(mine.merged(with: .noPanel) == mine)
        #expect(LabelReading.noPanel.merged(with: mine) == mine)
    }
}
