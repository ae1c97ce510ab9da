import Foundation
import WDietCore
import WDietStore

/// What the dashboard page shows, worked out from WDietCore's `DashboardDay` (the same value `GET /api/v1/dashboard`
/// encodes): every number already formatted, every SVG length already computed, so the template only places them.
struct DashboardView: Sendable {
    var chrome: PageChrome
    var streak: StreakView
    var windowLabel: String
    /// "Eating window: 12pm - 6pm"; nil for Maintain and Gain (the window is part of the Lose plan only).
    var windowBanner: String?
    /// "Your calories are held at the floor …" when the floor raised today's target.
    var floorNote: String?
    var phase: PhaseView?
    /// "Your plan will be updated tomorrow." while a saved profile change waits for midnight.
    var planNotice: String?
    var ring: RingView
    var macros: [MacroView]
    var showsWeightPrompt: Bool
    var weightCard: WeightCardView
    var picker: WeightPickerView
    var hasMeals: Bool
    var mealCountLabel: String
    /// "See today's meals · 2 meals today"
    var todayLinkLabel: String
    var fireCoach: FireCoachView
    var showsFirstPhaseSwitchTip: Bool
    var showsFirstWeeklyAverageTip: Bool
    /// Issue 17 "any day": the day switcher, and what changes on a past day.
    var dayNav: DayNavView
    var isToday: Bool
    /// "Dashboard · Yesterday": the page's heading (read by screen readers).
    var heading: String
    /// `/meals/new` or `/meals/new?date=…`: Log Meal logs onto the day shown.
    var logMealPath: String
    /// `/meals/today` or `/meals/today?date=…`
    var dayMealsPath: String
    /// The instant a weight logged from a past day's picker is saved at (that day's local noon); nil for today (now).
    var weightLoggedAt: String?
    /// The picker's title: "Log Weight", or "Log weight for Mon 23 Nov" on a past day.
    var weightSheetTitle: String
    /// The weights logged on the day shown, oldest first, each with Edit and Delete (issue 17).
    var weightEntries: [WeightEntryView] = [] {
        didSet { hasWeightEntries = !weightEntries.isEmpty }
    }
    /// Stored, as the templates read only stored properties.
    var hasWeightEntries = false
    /// "Weights logged on Today" reads badly: "Weights logged on Mon 23 Nov" names the day by its date always.
    var weightEntriesTitle: String

    /// - Parameters:
    ///   - latestWeightKg: the latest weight ever logged (the picker starts there; else at the profile's weight).
    ///   - shown: the day the page shows; today (the day of `day`) when nil.
    init(day: DashboardDay, profile: Profile, latestWeightKg: Double?, chrome: PageChrome, shown: PageDay? = nil) {
        let strings = Strings.current
        self.chrome = chrome
        let shown = shown ?? PageDay(date: day.date, today: day.date)
        dayNav = DayNavView(day: shown, basePath: "/dashboard")
        isToday = shown.isToday
        heading = shown.isToday ? strings("dashboard.heading") : strings("days.dashboardHeading", ["day": shown.label])
        logMealPath = "/meals/new" + shown.query
        dayMealsPath = "/meals/today" + shown.query
        weightLoggedAt = shown.isToday ? nil : WireFormat.instantText(shown.instant(now: Date(), in: profile.timeZone))
        weightSheetTitle = shown.isToday ? strings("weights.logWeight") : strings("days.logWeightOn", ["day": shown.date.shortLabel])
        weightEntriesTitle = strings("days.weightEntriesLabel", ["day": shown.date.shortLabel])
        streak = StreakView(day.streak)
        windowLabel = day.eatingWindow.twelveHourLabel
        windowBanner = profile.goal == .lose ? strings("dashboard.windowBanner", ["window": windowLabel]) : nil
        floorNote = day.targets.floorApplied ? strings("dashboard.floorNote", ["floor": strings.number(day.targets.calories)]) : nil
        phase = day.targets.cycle.map(PhaseView.init)
        planNotice = !shown.isToday ? nil : day.planUpdatesOn.map { date in
            date == day.date.adding(days: 1)
                ? strings("dashboard.planUpdatesTomorrow")
                : strings("dashboard.planUpdatesOn", ["date": date.shortLabel])
        }
        ring = RingView(ring: day.ring, targetCalories: day.targets.calories)
        macros = day.macros.map(MacroView.init)
        // The prompt asks for today's weight: a past day's card logs onto that day instead.
        showsWeightPrompt = shown.isToday && day.showsWeightPrompt
        weightCard = WeightCardView(day.weightCard, unit: profile.weightUnit)
        picker = WeightPickerView(startKg: latestWeightKg ?? profile.weightKg, unit: profile.weightUnit)
        hasMeals = day.totals.mealCount > 0
        if shown.isToday {
            mealCountLabel = strings("dashboard.mealsToday", count: day.totals.mealCount)
            todayLinkLabel = strings("dashboard.todayLink", ["meals": mealCountLabel])
        } else {
            mealCountLabel = strings("days.mealCount", count: day.totals.mealCount)
            todayLinkLabel = strings("days.dayLink", ["meals": mealCountLabel])
        }
        fireCoach = FireCoachView(variant: day.fireCoach, streak: day.streak, cycle: day.targets.cycle)
        // Tips are about now: a past day shows none.
        showsFirstPhaseSwitchTip = shown.isToday && Self.isEarlyInFirstDietPhase(day.targets.cycle)
        // The trend exists from the 7th weighed day on: that is when the 7-day average is first complete.
        showsFirstWeeklyAverageTip = shown.isToday && day.weightCard.trend != nil
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
        accessibilityLabel = Strings.current(streak.isActiveToday ? "coach.streakSummary" : "coach.streakSummaryNotToday", count: streak.days)
    }
}

/// The MATADOR timer and the explanation its ℹ️ opens.
struct PhaseView: Sendable {
    var label: String
    var isDiet: Bool
    /// "About the maintenance phase": the ℹ️ button's name.
    var infoLabel: String
    var title: String
    var explanation: String
    var learnPath: String
    var learnTitle: String
    var nextSwitch: String
    /// "Day 4 of 14 · Maintenance phase · next switch Sun 15 Mar"
    var dialogLine: String
    /// "Learn more → The MATADOR study"
    var learnLink: String

    init(_ status: MatadorCycle.Status) {
        let strings = Strings.current
        label = status.label
        isDiet = status.phase == .diet
        infoLabel = strings(isDiet ? "dashboard.phaseInfoDiet" : "dashboard.phaseInfoMaintenance")
        nextSwitch = status.nextSwitchDate.shortLabel
        dialogLine = strings("dashboard.phaseDialogLine", ["label": label, "date": nextSwitch])
        if status.phase == .maintenance {
            let firstWeeks = status.cycleNumber == 1 && status.dayOfPlan <= MatadorCycle.phaseLength
            title = strings("coach.phaseSwitchTitle")
            explanation = strings(firstWeeks ? "coach.explainWeekOne" : "coach.explainMaintenance")
            learnPath = firstWeeks ? "/learn/why-maintenance-first" : "/learn/matador-study"
            learnTitle = strings(firstWeeks ? "coach.learnWhyMaintenanceFirst" : "coach.learnMatadorStudy")
        } else {
            title = strings("coach.dietPhase")
            explanation = strings("coach.explainDiet")
            learnPath = "/learn/matador-study"
            learnTitle = strings("coach.learnMatadorStudy")
        }
        learnLink = strings("dashboard.learnMore", ["title": learnTitle])
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
    /// "of 1,900 cal", under the eaten number in the ring's centre.
    var targetLabel: String
    /// "1,250 of 1,900 cal"
    var caption: String
    var segments: [Segment]
    /// What a screen reader hears instead of the picture (000 C#1).
    var accessibilityLabel: String
    var isOver: Bool

    init(ring: Ring, targetCalories: Int) {
        let strings = Strings.current
        eaten = strings.number(ring.totalKcal)
        target = strings.number(targetCalories)
        targetLabel = strings("dashboard.ringTarget", ["target": target])
        caption = strings("dashboard.ringCaption", ["eaten": eaten, "target": target])
        isOver = ring.totalKcal > Double(targetCalories) + 0.5
        segments = ring.arcs.map { arc in
            let length = Self.rounded((arc.end - arc.start) * 100)
            let start = Self.rounded(arc.start * 100)
            return Segment(
                name: arc.segment.rawValue, length: length, start: start,
                dashArray: "\(Self.text(length)) \(Self.text(100 - length))", dashOffset: Self.text(-start)
            )
        }
        var parts = [strings("dashboard.ringCalories", ["eaten": eaten, "target": target])]
        let named: [(String, Double)] = [
            (MacroView.name(of: .protein), ring.proteinKcal), (MacroView.name(of: .carbs), ring.carbsKcal),
            (MacroView.name(of: .fat), ring.fatKcal), (strings("dashboard.ringUnspecified"), ring.unspecifiedKcal),
        ]
        for (name, kcal) in named where kcal.rounded() > 0 {
            parts.append(strings("dashboard.ringSegment", ["name": name, "kcal": strings.number(kcal)]))
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
        let strings = Strings.current
        key = progress.macro.rawValue
        label = progress.macro.label
        value = progress.label
        smiley = progress.smiley?.rawValue
        switch progress.smiley {
        case .happy: smileyLabel = strings("dashboard.macroHappy")
        case .neutral: smileyLabel = strings("dashboard.macroNeutral")
        case .sad: smileyLabel = strings("dashboard.macroSad")
        case nil: smileyLabel = ""
        }
        fill = RingView.text(progress.barFill * 100)
        let arguments = [
            "name": Self.name(of: progress.macro), "eaten": strings.number(Int(progress.grams.rounded())),
            "goal": strings.number(progress.goalGrams), "mood": smileyLabel,
        ]
        accessibilityLabel = strings(smileyLabel.isEmpty ? "dashboard.macroSummary" : "dashboard.macroSummaryWithMood", arguments)
    }

    /// "Protein", "Carbs", "Fats": how the macro is spoken (the card writes it in capitals).
    static func name(of macro: MacroProgress.Macro) -> String {
        switch macro {
        case .protein: Strings.current("dashboard.macroNameProtein")
        case .carbs: Strings.current("dashboard.macroNameCarbs")
        case .fat: Strings.current("dashboard.macroNameFat")
        }
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
        let strings = Strings.current
        hasToday = card.todayKg != nil
        value = card.todayKg.map { Units.format(kg: $0, in: unit) } ?? "-- \(unit.rawValue)"
        average = card.averageKg.map { Units.format(kg: $0, in: unit) }
        belowAverage = card.belowAverageKg.map { kg in
            let amount = unit == .kg ? kg : -Units.pounds(fromKilograms: -kg)
            return strings.number(amount, fractionDigits: 1)
        }
        trend = card.trend?.rawValue
        trendLabel = card.trend.map(WeightChart.name(of:))
        if let average {
            var arguments = ["weight": value, "average": average]
            arguments["difference"] = belowAverage
            accessibilityLabel = strings(belowAverage == nil ? "dashboard.weightCardSummary" : "dashboard.weightCardSummaryBelow", arguments)
        } else {
            accessibilityLabel = strings("dashboard.weightCardEmpty")
        }
    }
}

/// One weight logged on the day shown: "79.4 kg · 7:30 AM", with Edit (the picker, starting at this weight) and Delete.
struct WeightEntryView: Sendable {
    var id: String
    var value: String
    var time: String
    /// The weight in the user's unit as the picker reads it: "79.4".
    var pickerValue: String
    var editLabel: String
    var deleteLabel: String

    init(_ stored: StoredWeight, unit: WeightUnit, timeZone: TimeZone) {
        let strings = Strings.current
        id = stored.id.uuidString.lowercased()
        value = Units.format(kg: stored.entry.kg, in: unit)
        time = MealFormat.clock(in: timeZone).string(from: stored.entry.loggedAt)
        let amount = unit == .kg ? stored.entry.kg : Units.pounds(fromKilograms: stored.entry.kg)
        pickerValue = String(format: "%.1f", amount)
        let named = "\(value), \(time)"
        editLabel = strings("days.weightEdit", ["weight": named])
        deleteLabel = strings("days.weightDelete", ["weight": named])
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
    /// "Weight in kg", "Whole kg", "Tenths of a kg": the picker's names for screen readers.
    var groupLabel: String
    var wholeLabel: String
    var tenthsLabel: String
    var whole: [Option]
    var tenths: [Option]
    var startValue: String

    /// 30–200 kg, or the same range in pounds (66.2–440.9 lb, offered as 67–440 whole pounds so every choice is in range).
    init(startKg: Double, unit: WeightUnit) {
        self.unit = unit.rawValue
        isPounds = unit == .lb
        let strings = Strings.current
        groupLabel = strings("weights.pickerGroup", ["unit": unit.rawValue])
        wholeLabel = strings("weights.pickerWhole", ["unit": unit.rawValue])
        tenthsLabel = strings("weights.pickerTenths", ["unit": unit.rawValue])
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
        let strings = Strings.current
        emoji = coach.rawValue
        switch coach {
        case .standard:
            variant = "standard"
            message = strings(streak.isActiveToday ? "coach.messageActive" : "coach.messageInactive")
            accessibilityLabel = strings("coach.fireStandard")
        case .education:
            variant = "education"
            message = strings("coach.messageEducation")
            accessibilityLabel = strings("coach.fireEducation")
        case .strong:
            variant = "strong"
            if cycle?.completesFirstCycle == true {
                message = strings("coach.messageFirstCycle")
            } else if let milestone = streak.milestoneReached {
                message = strings("coach.messageMilestone", ["days": strings.number(milestone)])
            } else {
                message = strings("coach.messageStrong")
            }
            accessibilityLabel = strings("coach.fireStrong")
        case .gentle:
            variant = "gentle"
            message = strings("coach.messageGentle")
            accessibilityLabel = strings("coach.fireGentle")
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
