import Foundation
import Hummingbird
import WDietCore

/// A day's plan, as numbers. BMR and TDEE are whole kcal; the MATADOR members are absent when the plan does not
/// cycle that day (maintain, gain, under 18, before the start date).
struct PlanJSON: ResponseEncodable, Sendable {
    var date: LocalDate
    var bmr: Int
    var tdee: Int
    var goal: Goal
    var phase: MatadorCycle.Phase?
    var dayOfPhase: Int?
    var dayOfPlan: Int?
    var cycle: Int?
    var nextSwitch: LocalDate?
    /// "Day 1 of 14 · Diet phase".
    var phaseLabel: String?
    var calories: Int
    var protein: Int
    var carbs: Int
    var fat: Int
    /// Millilitres.
    var water: Int
    /// The weight the targets were computed from: the latest logged on or before `date`, else the profile's.
    var weightKg: Double
    /// The floor (BMR; 1,200 kcal for women, 1,500 for men and other) raised the calories.
    var floorApplied: Bool
    /// Under 18 with goal lose: a maintenance plan, no deficit.
    var underageMaintenance: Bool
    /// Set while a saved profile change waits: the first day of the new targets.
    var planUpdatesOn: LocalDate?

    init(date: LocalDate, targets t: Targets, weightKg: Double, goal: Goal, planUpdatesOn: LocalDate?) {
        self.date = date
        bmr = Int(t.bmr.rounded())
        tdee = Int(t.tdee.rounded())
        self.goal = goal
        phase = t.cycle?.phase
        dayOfPhase = t.cycle?.dayOfPhase
        dayOfPlan = t.cycle?.dayOfPlan
        cycle = t.cycle?.cycleNumber
        nextSwitch = t.cycle?.nextSwitchDate
        phaseLabel = t.cycle?.label
        calories = t.calories
        protein = t.proteinGrams
        carbs = t.carbsGrams
        fat = t.fatGrams
        water = t.waterMl
        self.weightKg = weightKg
        floorApplied = t.floorApplied
        underageMaintenance = t.underageMaintenance
        self.planUpdatesOn = planUpdatesOn
    }
}
