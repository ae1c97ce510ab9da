import Foundation

extension Profile {
    /// The fields that feed `Targets.compute`. A saved change to any of them waits for the user's next local
    /// midnight (`PlanChange`, "changes apply tomorrow"); every other field schedules or displays the plan (time
    /// zone, eating window, units, dietary tags, meals per day, target weight and date) and applies at once.
    /// A field added to `Profile` belongs here when the targets read it.
    ///
    /// The SQLite store keeps a pending change's inputs as JSON of this value, so the coding keys are history:
    /// rename a property only with a custom `CodingKeys` that keeps the old key.
    public struct TargetInputs: Hashable, Codable, Sendable {
        public var dateOfBirth: LocalDate
        public var sex: Sex
        public var heightCm: Double
        public var weightKg: Double
        public var goal: Goal
        public var activity: ActivityLevel
        public var deficit: DeficitSetting
        public var planStartDate: LocalDate

        public init(
            dateOfBirth: LocalDate, sex: Sex, heightCm: Double, weightKg: Double, goal: Goal, activity: ActivityLevel,
            deficit: DeficitSetting, planStartDate: LocalDate
        ) {
            self.dateOfBirth = dateOfBirth
            self.sex = sex
            self.heightCm = heightCm
            self.weightKg = weightKg
            self.goal = goal
            self.activity = activity
            self.deficit = deficit
            self.planStartDate = planStartDate
        }
    }

    /// Reading gives the profile's target inputs; setting replaces them and leaves every other field alone.
    public var targetInputs: TargetInputs {
        get {
            TargetInputs(
                dateOfBirth: dateOfBirth, sex: sex, heightCm: heightCm, weightKg: weightKg, goal: goal, activity: activity,
                deficit: deficit, planStartDate: planStartDate
            )
        }
        set {
            dateOfBirth = newValue.dateOfBirth
            sex = newValue.sex
            heightCm = newValue.heightCm
            weightKg = newValue.weightKg
            goal = newValue.goal
            activity = newValue.activity
            deficit = newValue.deficit
            planStartDate = newValue.planStartDate
        }
    }
}
