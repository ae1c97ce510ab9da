import Foundation
import WDietCore

/// What the dashboard page shows, worked out from WDietCore's `DashboardDay` (the same value `GET /api/v1/dashboard`
/// encodes): every number already formatted, every SVG length already computed, so the template only places them.
struct DashboardView: Sendable {
    var chrome: PageChrome
    var streak: StreakView
    var windowLabel: String
    var phase: PhaseView?
    var planUpdatesOn: String?
    var ring: RingView
    var macros: [MacroView]
    var showsWeightPrompt: Bool
    var weightCard: WeightCardView
    var picker: WeightPickerView
    var hasMeals: Bool
    var mealCountLabel: String
    var fireCoach: FireCoachView
    var showsFirstPhaseSwitchTip: Bool
    var showsFirstWeeklyAverageTip: Bool

    /// - Parameters:
    ///   - latestWeightKg: the latest weight ever logged (the picker starts there; else at the profile's weight).
    init(day: DashboardDay, profile: Profile, latestWeightKg: Double?, chrome: PageChrome) {
        self.chrome = chrome
        streak = StreakView(day.streak)
        windowLabel = day.eatingWindow.twelveHourLabel
        phase = day.targets.cycle.map(PhaseView.init)
        planUpdatesOn = day.planUpdatesOn.map { $0 == day.date.adding(days: 1) ? "tomorrow" : "on \($0.shortLabel)" }
        ring = RingView(ring: day.ring, targetCalories: day.targets.calories)
        macros = day.macros.map(MacroView.init)
        showsWeightPrompt = day.showsWeightPrompt
        weightCard = WeightCardView(day.weightCard, unit: profile.weightUnit)
        picker = WeightPickerView(startKg: latestWeightKg ?? profile.weightKg, unit: profile.weightUnit)
        hasMeals = day.totals.mealCount > 0
        mealCountLabel = day.totals.mealCount == 1 ? "1 meal today" : "\(day.totals.mealCount) meals today"
        fireCoach = FireCoachView(variant: day.fireCoach, streak: day.streak, cycle: day.targets.cycle)
        showsFirstPhaseSwitchTip = Self.isEarlyInFirstDietPhase(day.targets.cycle)
        // The trend exists from the 7th weighed day on: that is when the 7-day average is first complete.
        showsFirstWeeklyAverageTip = day.weightCard.trend != nil
    }

    /// The first days of the first diet phase (Days 15–17 of the plan): the first switch away from maintenance.
    static func isEarlyInFirstDietPhase(_ cycle: MatadorCycle.Status?) -> Bool {
        guard let cycle else { return false }
        return cycle.phase == .diet && cycle.cycleNumber == 1 && cycle.dayOfPhase <= 3
    }

}

struct StreakView: Sendable {
    var days: Int
    var isActive: Bool
    /// "0 day streak", "5 day streak" (000 Step 12).
    var label: String
    var accessibilityLabel: String

    init(_ streak: Streak) {
        days = streak.days
        isActive = streak.isActiveToday
        label = streak.label
        accessibilityLabel = "Logging streak: \(streak.days) \(streak.days == 1 ? "day" : "days")" + (streak.isActiveToday ? "" : ", not logged today yet")
    }
}

/// The MATADOR timer and the explanation its ℹ️ opens.
struct PhaseView: Sendable {
    var label: String
    var isDiet: Bool
    var title: String
    var explanation: String
    var learnPath: String
    var learnTitle: String
    var nextSwitch: String

    init(_ status: MatadorCycle.Status) {
        label = status.label
        isDiet = status.phase == .diet
        nextSwitch = status.nextSwitchDate.shortLabel
        if status.phase == .maintenance {
            title = "MATADOR Phase Switch"
            explanation = status.cycleNumber == 1 && status.dayOfPlan <= MatadorCycle.phaseLength
                ? "Week 1 starts gentle: you eat at maintenance for two weeks so that your body and your habits settle before any deficit. Your body needs maintenance calories for 2 weeks to preserve metabolism."
                : "Your body needs maintenance calories for 2 weeks to preserve metabolism. Eating at maintenance between diet blocks is what made the MATADOR study's group lose more fat."
            learnPath = status.cycleNumber == 1 && status.dayOfPlan <= MatadorCycle.phaseLength ? "/learn/why-maintenance-first" : "/learn/matador-study"
            learnTitle = status.cycleNumber == 1 && status.dayOfPlan <= MatadorCycle.phaseLength ? "Why Week 1 starts at maintenance" : "The MATADOR study"
        } else {
            title = "Diet phase"
            explanation = "Two weeks of eating below maintenance, then two weeks at maintenance again. In the MATADOR study (Byrne et al. 2018), men who alternated like this lost more weight (14.1 vs 9.1 kg) and more fat (12.3 vs 8.0 kg) than those who dieted without breaks."
            learnPath = "/learn/matador-study"
            learnTitle = "The MATADOR study"
        }
    }
}

/// The segmented ring as SVG circles drawn with dashes on a circumference of 100 (`pathLength`), so a segment's
/// dash is its share of the ring in percent and its offset is where it starts, clockwise from 12 o'clock.
struct RingView: Sendable {
    struct Segment: Sendable {
        /// protein, carbs, fat or unspecified: the CSS class that colours it.
        var name: String
        /// Share of the ring, 0–100.
        var length: Double
        /// Where the segment starts, 0–100.
        var start: Double
        /// `stroke-dasharray` and `stroke-dashoffset` values.
        var dashArray: String
        var dashOffset: String
    }

    var eaten: String
    var target: String
    /// "1,250 of 1,900 cal"
    var caption: String
    var segments: [Segment]
    /// What a screen reader hears instead of the picture (000 C#1).
    var accessibilityLabel: String
    var isOver: Bool

    init(ring: Ring, targetCalories: Int) {
        eaten = WebFormat.grouped(ring.totalKcal)
        target = WebFormat.grouped(Double(targetCalories))
        caption = "\(eaten) of \(target) cal"
        isOver = ring.totalKcal > Double(targetCalories) + 0.5
        segments = ring.arcs.map { arc in
            let length = Self.rounded((arc.end - arc.start) * 100)
            let start = Self.rounded(arc.start * 100)
            return Segment(
                name: arc.segment.rawValue, length: length, start: start,
                dashArray: "\(Self.text(length)) \(Self.text(100 - length))", dashOffset: Self.text(-start)
            )
        }
        var parts = ["Calories: \(eaten) of \(target)"]
        let named: [(String, Double)] = [
            ("Protein", ring.proteinKcal), ("Carbs", ring.carbsKcal), ("Fats", ring.fatKcal), ("Without macros", ring.unspecifiedKcal),
        ]
        for (name, kcal) in named where kcal.rounded() > 0 {
            parts.append("\(name) \(WebFormat.grouped(kcal)) calories")
        }
        accessibilityLabel = parts.joined(separator: ". ") + "."
    }

    static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }

    /// "12.5", "40", "-0": short numbers for SVG attributes.
    static func text(_ value: Double) -> String {
        let v = rounded(value)
        if v == 0 { return "0" }
        return v == v.rounded() ? String(Int(v)) : String(v)
    }
}

struct MacroView: Sendable {
    var key: String
    var label: String
    /// "128/160g"
    var value: String
    var smiley: String?
    var smileyLabel: String
    /// The bar's fill in percent of its width, capped at 100.
    var fill: String
    var accessibilityLabel: String

    init(_ progress: MacroProgress) {
        key = progress.macro.rawValue
        label = progress.macro.label
        value = progress.label
        smiley = progress.smiley?.rawValue
        switch progress.smiley {
        case .happy: smileyLabel = "good progress"
        case .neutral: smileyLabel = "on track"
        case .sad: smileyLabel = "needs attention"
        case nil: smileyLabel = ""
        }
        fill = RingView.text(progress.barFill * 100)
        let name = progress.macro == .fat ? "Fats" : progress.macro.rawValue.capitalized
        accessibilityLabel = "\(name): \(Int(progress.grams.rounded())) of \(progress.goalGrams) grams"
            + (smileyLabel.isEmpty ? "" : ", \(smileyLabel)")
    }
}

/// 000's weight card: "69.1 kg", the average, and the green ↓ only below the average.
struct WeightCardView: Sendable {
    var hasToday: Bool
    var value: String
    var average: String?
    /// "-0.4" (in the user's unit), only when today's weight is below the average.
    var belowAverage: String?
    var trend: String?
    var trendLabel: String?
    var accessibilityLabel: String

    init(_ card: WeightCard, unit: WeightUnit) {
        hasToday = card.todayKg != nil
        value = card.todayKg.map { Units.format(kg: $0, in: unit) } ?? "-- \(unit.rawValue)"
        average = card.averageKg.map { Units.format(kg: $0, in: unit) }
        belowAverage = card.belowAverageKg.map { kg in
            let amount = unit == .kg ? kg : -Units.pounds(fromKilograms: -kg)
            return String(format: "%.1f", amount)
        }
        trend = card.trend?.rawValue
        trendLabel = card.trend.map { trend in
            switch trend {
            case .down: "Trending down"
            case .stable: "Stable"
            case .up: "Trending up"
            }
        }
        if let average {
            accessibilityLabel = "Weight today \(value), average \(average)" + (belowAverage.map { ", \($0) below the average" } ?? "") + ". Tap to log your weight"
        } else {
            accessibilityLabel = "No weight logged today. Tap to log your weight"
        }
    }
}

/// The weight picker's two columns: whole units and tenths, starting at the latest weight.
struct WeightPickerView: Sendable {
    struct Option: Sendable {
        var value: Int
        var selected: Bool
    }

    var unit: String
    var isPounds: Bool
    var whole: [Option]
    var tenths: [Option]
    var startValue: String

    /// 30–200 kg, or the same range in pounds (66.2–440.9 lb, offered as 67–440 whole pounds so every choice is in range).
    init(startKg: Double, unit: WeightUnit) {
        self.unit = unit.rawValue
        isPounds = unit == .lb
        let clampedKg = min(200, max(30, Units.tenth(startKg)))
        let start = unit == .kg ? clampedKg : Units.pounds(fromKilograms: clampedKg)
        let range = unit == .kg ? 30...200 : 67...440
        let tenthsTotal = Int((start * 10).rounded())
        let startWhole = min(range.upperBound, max(range.lowerBound, tenthsTotal / 10))
        let startTenth = startWhole == tenthsTotal / 10 ? tenthsTotal % 10 : 0
        whole = range.map { Option(value: $0, selected: $0 == startWhole) }
        tenths = (0...9).map { Option(value: $0, selected: $0 == startTenth) }
        startValue = "\(startWhole).\(startTenth)"
    }
}

/// The fire coach in the variant the day calls for (PRODUCT.md: 🔥 default, 🔥💪 milestones, 🔥😌 Week 1).
struct FireCoachView: Sendable {
    var emoji: String
    var variant: String
    var message: String
    var accessibilityLabel: String

    init(variant coach: FireCoach, streak: Streak, cycle: MatadorCycle.Status?) {
        emoji = coach.rawValue
        switch coach {
        case .standard:
            variant = "standard"
            message = streak.isActiveToday ? "Nice work today. Keep logging as you go." : "Log your first meal or weight today to keep the fire going."
            accessibilityLabel = "Fire coach"
        case .education:
            variant = "education"
            message = "Curious why? Tap ℹ️ to learn the science."
            accessibilityLabel = "Fire coach, studying"
        case .strong:
            variant = "strong"
            if cycle?.completesFirstCycle == true {
                message = "First Cycle Complete!"
            } else if let milestone = streak.milestoneReached {
                message = "\(milestone) day streak! You're on fire."
            } else {
                message = "You're on fire!"
            }
            accessibilityLabel = "Fire coach, strong"
        case .gentle:
            variant = "gentle"
            message = "Week 1 starts gentle: eat at maintenance and get used to logging."
            accessibilityLabel = "Fire coach, gentle"
        }
    }
}

extension PageChrome {
    /// A signed-in chrome without a request, for rendering a view in tests.
    init(csrfToken: String) {
        self.csrfToken = csrfToken
        signedIn = true
    }
}
