/// The dashboard's segmented ring: calories by where they came from, drawn clockwise from 12 o'clock
/// as protein (green), carbs (orange), fat (red) and calories logged without macros (neutral).
/// The segments always add up to the calories logged.
public struct Ring: Hashable, Codable, Sendable {
    public var proteinKcal: Double
    public var carbsKcal: Double
    public var fatKcal: Double
    public var unspecifiedKcal: Double
    public var targetKcal: Double

    public var totalKcal: Double { proteinKcal + carbsKcal + fatKcal + unspecifiedKcal }

    public init(totals: DailyTotals, targetKcal: Double) {
        var protein = totals.protein * Targets.proteinKcalPerGram
        var carbs = totals.carbs * Targets.carbsKcalPerGram
        var fat = totals.fat * Targets.fatKcalPerGram
        let macroKcal = protein + carbs + fat
        // Labels round; when the macros claim more than the meal's calories, shrink them to fit
        // so the ring still shows exactly what was logged.
        if macroKcal > totals.kcal, macroKcal > 0 {
            let scale = totals.kcal / macroKcal
            protein *= scale
            carbs *= scale
            fat *= scale
        }
        proteinKcal = protein
        carbsKcal = carbs
        fatKcal = fat
        unspecifiedKcal = max(0, totals.kcal - protein - carbs - fat)
        self.targetKcal = targetKcal
    }

    public enum Segment: String, CaseIterable, Codable, Sendable { case protein, carbs, fat, unspecified }

    public struct Arc: Hashable, Codable, Sendable {
        public var segment: Segment
        /// Fractions of the full circle, clockwise from 12 o'clock.
        public var start: Double
        public var end: Double
    }

    /// The arcs to draw. The circle stands for the target, or for the total once the target is passed.
    public var arcs: [Arc] {
        let scale = max(targetKcal, totalKcal)
        guard scale > 0 else { return [] }
        var position = 0.0
        var result: [Arc] = []
        for (segment, kcal) in [(Segment.protein, proteinKcal), (.carbs, carbsKcal), (.fat, fatKcal), (.unspecified, unspecifiedKcal)] where kcal > 0 {
            let end = position + kcal / scale
            result.append(Arc(segment: segment, start: position, end: end))
            position = end
        }
        return result
    }
}
