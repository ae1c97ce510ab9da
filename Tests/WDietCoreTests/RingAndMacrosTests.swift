import Foundation
import Testing
import WDietCore
import WDietTestSupport

@Suite("Ring, totals and macro smileys")
struct RingAndMacrosTests {
    let noon = Fixtures.utc("2026-01-15T11:00:00Z")

    @Test("daily totals add meals; missing macros count as 0 g")
    func totals() {
        let meals = [
            Meal(name: "Oats", kcal: 380, protein: 13, carbs: 60, fat: 7, fiber: 10, loggedAt: noon),
            Meal(name: "Chicken", kcal: 420, protein: 62, carbs: 0, fat: 18, loggedAt: noon),
            Meal(name: "Quick add", kcal: 450, loggedAt: noon),
        ]
        let t = DailyTotals(meals: meals)
        #expect(t == DailyTotals(kcal: 1_250, protein: 75, carbs: 60, fat: 25, fiber: 10, mealCount: 3))
    }

    @Test("segments: protein × 4, carbs × 4, fat × 9, the rest unspecified, adding up to the calories logged", arguments: [
        // kcal, P, C, F → protein, carbs, fat, unspecified kcal
        (1_250.0, 100.0, 100.0, 30.0, 400.0, 400.0, 270.0, 180.0),
        (500, 0, 0, 0, 0, 0, 0, 500),
        (0, 0, 0, 0, 0, 0, 0, 0),
        // Labels that claim more than the calories (40 + 40 + 45 = 125 > 100) are scaled to fit: × 0.8.
        (100, 10, 10, 5, 32, 32, 36, 0),
    ])
    func segments(kcal: Double, p: Double, c: Double, f: Double, pk: Double, ck: Double, fk: Double, uk: Double) {
        let ring = Ring(totals: DailyTotals(kcal: kcal, protein: p, carbs: c, fat: f, mealCount: 1), targetKcal: 1_900)
        #expect(abs(ring.proteinKcal - pk) < 1e-9)
        #expect(abs(ring.carbsKcal - ck) < 1e-9)
        #expect(abs(ring.fatKcal - fk) < 1e-9)
        #expect(abs(ring.unspecifiedKcal - uk) < 1e-9)
        #expect(abs(ring.totalKcal - kcal) < 1e-9)
    }

    @Test("arcs run clockwise from 12 o'clock in protein, carbs, fat, unspecified order")
    func arcs() {
        let ring = Ring(totals: DailyTotals(kcal: 1_250, protein: 100, carbs: 100, fat: 30, mealCount: 2), targetKcal: 2_000)
        let arcs = ring.arcs
        #expect(arcs.map(\.segment) == [.protein, .carbs, .fat, .unspecified])
        for (arc, start) in zip(arcs, [0, 0.2, 0.4, 0.535]) { #expect(abs(arc.start - start) < 1e-12) }
        #expect(abs(arcs[3].end - 0.625) < 1e-12)
    }

    @Test("past the target the ring is full and keeps its proportions")
    func arcsOverTarget() {
        let ring = Ring(totals: DailyTotals(kcal: 2_500, protein: 125, carbs: 250, fat: 0, mealCount: 3), targetKcal: 2_000)
        #expect(abs((ring.arcs.last?.end ?? 0) - 1) < 1e-12)
        #expect(abs((ring.arcs.first?.end ?? 0) - 0.2) < 1e-12)
    }

    @Test("smileys: 😊 ≥70 %, 😐 50–69 %, 😞 <50 % of a 160 g goal", arguments: [
        (112.0, MacroProgress.Smiley.happy), (200, .happy), (111.9, .neutral), (80, .neutral), (79.9, .sad), (0, .sad),
    ])
    func smileys(grams: Double, smiley: MacroProgress.Smiley) {
        #expect(MacroProgress(macro: .protein, grams: grams, goalGrams: 160, mealsLogged: 1).smiley == smiley)
    }

    @Test("smileys are hidden before the day's first meal")
    func hiddenBeforeFirstMeal() {
        #expect(MacroProgress(macro: .protein, grams: 0, goalGrams: 160, mealsLogged: 0).smiley == nil)
    }

    @Test("the macro card's text and bar: 128/160g is 80 %")
    func labelAndBar() {
        let p = MacroProgress(macro: .protein, grams: 128, goalGrams: 160, mealsLogged: 2)
        #expect(p.label == "128/160g")
        #expect(p.barFill == 0.8)
        #expect(MacroProgress(macro: .fat, grams: 120, goalGrams: 80, mealsLogged: 2).barFill == 1)
        #expect(MacroProgress.Macro.carbs.colorHex == "#FFA726")
    }
}
