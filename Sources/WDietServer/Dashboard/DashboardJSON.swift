import Foundation
import Hummingbird
import WDietCore

/// Everything the dashboard shows for one local day, as numbers (the web page draws the same `DashboardDay`).
struct DashboardJSON: ResponseEncodable, Sendable {
    struct StreakJSON: Encodable, Sendable {
        var days: Int
        /// Today already counts: the badge is in colour, not grey.
        var activeToday: Bool
        /// 7, 14 or 28 on the day the streak reaches it.
        var milestone: Int?
    }

    struct TargetsJSON: Encodable, Sendable {
        var calories: Int
        var protein: Int
        var carbs: Int
        var fat: Int
        var water: Int
        var bmr: Int
        var tdee: Int
        var floorApplied: Bool
        var underageMaintenance: Bool
    }

    struct RingJSON: Encodable, Sendable {
        struct Arc: Encodable, Sendable {
            var segment: Ring.Segment
            /// Fractions of the full circle, clockwise from 12 o'clock.
            var start: Double
            var end: Double
        }
        var targetKcal: Double
        var totalKcal: Double
        var proteinKcal: Double
        var carbsKcal: Double
        var fatKcal: Double
        /// Calories logged without macros: the neutral segment.
        var unspecifiedKcal: Double
        var arcs: [Arc]
    }

    struct MacroJSON: Encodable, Sendable {
        var macro: MacroProgress.Macro
        var grams: Double
        var goal: Int
        /// Share of the goal reached (1 for a goal of 0 g); may exceed 1.
        var fraction: Double
        /// happy (≥70 %), neutral (50–69 %) or sad (<50 %); absent before the day's first meal.
        var smiley: String?
    }

    struct WeightCardJSON: Encodable, Sendable {
        /// Absent when nothing is logged today ("-- kg · Tap to log your weight").
        var todayKg: Double?
        var averageKg: Double?
        var trend: String?
        /// Negative kg below the average, only when today's weight is below it (the green ↓).
        var belowAverageKg: Double?
    }

    struct CycleJSON: Encodable, Sendable {
        var phase: MatadorCycle.Phase
        var dayOfPhase: Int
        var dayOfPlan: Int
        var cycle: Int
        var nextSwitch: LocalDate
    }

    struct FireCoachJSON: Encodable, Sendable {
        var variant: String
        var emoji: String
    }

    var date: LocalDate
    var streak: StreakJSON
    var targets: TargetsJSON
    var totals: TotalsJSON
    var ring: RingJSON
    var macros: [MacroJSON]
    var weightCard: WeightCardJSON
    var showsWeightPrompt: Bool
    var eatingWindow: EatingWindowJSON
    /// "Day 3 of 14 · Maintenance phase"; absent when the plan does not cycle.
    var phaseLabel: String?
    var cycle: CycleJSON?
    var fireCoach: FireCoachJSON
    /// Set while a saved profile change waits: the first day of the new targets.
    var planUpdatesOn: LocalDate?

    init(_ day: DashboardDay) {
        date = day.date
        streak = StreakJSON(days: day.streak.days, activeToday: day.streak.isActiveToday, milestone: day.streak.milestoneReached)
        let t = day.targets
        targets = TargetsJSON(
            calories: t.calories, protein: t.proteinGrams, carbs: t.carbsGrams, fat: t.fatGrams, water: t.waterMl,
            bmr: Int(t.bmr.rounded()), tdee: Int(t.tdee.rounded()), floorApplied: t.floorApplied,
            underageMaintenance: t.underageMaintenance
        )
        totals = TotalsJSON(day.totals)
        let r = day.ring
        ring = RingJSON(
            targetKcal: r.targetKcal, totalKcal: TotalsJSON.tenth(r.totalKcal), proteinKcal: TotalsJSON.tenth(r.proteinKcal),
            carbsKcal: TotalsJSON.tenth(r.carbsKcal), fatKcal: TotalsJSON.tenth(r.fatKcal),
            unspecifiedKcal: TotalsJSON.tenth(r.unspecifiedKcal),
            arcs: r.arcs.map { RingJSON.Arc(segment: $0.segment, start: Self.fraction($0.start), end: Self.fraction($0.end)) }
        )
        macros = day.macros.map {
            MacroJSON(
                macro: $0.macro, grams: TotalsJSON.tenth($0.grams), goal: $0.goalGrams, fraction: Self.fraction($0.fraction),
                smiley: $0.smiley.map(Self.name(of:))
            )
        }
        weightCard = WeightCardJSON(
            todayKg: day.weightCard.todayKg, averageKg: day.weightCard.averageKg.map(TotalsJSON.tenth),
            trend: day.weightCard.trend.map(WeightDayJSON.name(of:)), belowAverageKg: day.weightCard.belowAverageKg
        )
        showsWeightPrompt = day.showsWeightPrompt
        eatingWindow = EatingWindowJSON(day.eatingWindow, placementNow: day.windowPlacementNow)
        phaseLabel = t.cycle?.label
        cycle = t.cycle.map {
            CycleJSON(phase: $0.phase, dayOfPhase: $0.dayOfPhase, dayOfPlan: $0.dayOfPlan, cycle: $0.cycleNumber, nextSwitch: $0.nextSwitchDate)
        }
        fireCoach = FireCoachJSON(variant: Self.name(of: day.fireCoach), emoji: day.fireCoach.rawValue)
        planUpdatesOn = day.planUpdatesOn
    }

    /// Four decimals are plenty for an arc or a progress bar, and keep the JSON short.
    static func fraction(_ value: Double) -> Double { (value * 10_000).rounded() / 10_000 }

    static func name(of smiley: MacroProgress.Smiley) -> String {
        switch smiley {
        case .happy: "happy"
        case .neutral: "neutral"
        case .sad: "sad"
        }
    }

    static func name(of coach: FireCoach) -> String {
        switch coach {
        case .standard: "standard"
        case .education: "education"
        case .strong: "strong"
        case .gentle: "gentle"
        }
    }
}
