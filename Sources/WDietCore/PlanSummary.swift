/// A day's plan, as numbers: what `GET /api/v1/plan` and `wdiet plan --json` print. BMR and TDEE are whole kcal;
/// the MATADOR members are absent when the plan does not cycle that day (maintain, gain, under 18, before the start).
public struct PlanSummary: Codable, Hashable, Sendable {
    public var date: LocalDate
    public var bmr: Int
    public var tdee: Int
    public var goal: Goal
    public var phase: MatadorCycle.Phase?
    public var dayOfPhase: Int?
    public var dayOfPlan: Int?
    public var cycle: Int?
    public var nextSwitch: LocalDate?
    /// "Day 1 of 14 · Diet phase".
    public var phaseLabel: String?
    public var calories: Int
    public var protein: Int
    public var carbs: Int
    public var fat: Int
    /// Millilitres.
    public var water: Int
    /// The weight the targets were computed from: the latest logged on or before `date`, else the profile's.
    public var weightKg: Double
    /// The floor (BMR; 1,200 kcal for women, 1,500 for men and other) raised the calories.
    public var floorApplied: Bool
    /// Under 18 with goal lose: a maintenance plan, no deficit.
    public var underageMaintenance: Bool
    /// Set while a saved profile change waits: the first day of the new targets.
    public var planUpdatesOn: LocalDate?

    public init(date: LocalDate, targets t: Targets, weightKg: Double, goal: Goal, planUpdatesOn: LocalDate?) {
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
