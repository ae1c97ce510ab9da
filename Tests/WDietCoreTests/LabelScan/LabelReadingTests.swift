import Foundation
import Testing
import WDietCore

@Suite("Label reading")
struct LabelReadingTests {
    static let yoghurt = LabelReading(
        columns: [
            LabelColumn(basis: .perServing, servingText: "1 pot de 125 g", servingGrams: 125, values: [
                .energyKcal: LabelFieldReading(value: 127, unit: .kcal, confidence: 0.95),
                .fat: LabelFieldReading(value: 4.9, unit: .g, confidence: 0.9),
                .protein: LabelFieldReading(value: 4.8, unit: .g, confidence: 0.5),
            ]),
            LabelColumn(basis: .per100g, values: [
                .energyKJ: LabelFieldReading(value: 430, unit: .kJ, confidence: 0.9),
                .carbohydrate: LabelFieldReading(value: 13, unit: .g, confidence: 0.9),
            ]),
        ],
        panelFound: true, confidence: 0.9
    )

    @Test("macros per serving count servings and leave unsure fields out")
    func perServing() throws {
        let macros = try #require(Self.yoghurt.macros(basis: .perServing, amount: 2))
        #expect(macros.kcal == 254)
        #expect(macros.fat == 9.8)
        #expect(macros.protein == nil)  // confidence 0.5 < 0.85
        #expect(macros.carbs == nil)
    }

    @Test("macros per 100 g scale by grams; kcal from kJ when no kcal was read")
    func per100g() throws {
        let macros = try #require(Self.yoghurt.macros(basis: .per100g, amount: 150))
        #expect(macros.carbs == 19.5)
        #expect(abs(try #require(macros.kcal) - 154.16) < 0.01)  // 430 kJ × 1.5 ÷ 4.184
        #expect(Self.yoghurt.macros(basis: .per100ml, amount: 100) == nil)
    }

    @Test("a reading encodes its fields by name")
    func json() throws {
        let data = try JSONEncoder().encode(Self.yoghurt)
        let text = try #require(String(data: data, encoding: .utf8))
        #expect(text.contains("\"energyKcal\":{"))
        #expect(try JSONDecoder().decode(LabelReading.self, from: data) == Self.yoghurt)
    }
}
