import Foundation

/// What the coach knows about a person. Quantities are metric; the units are display preferences.
public struct Profile: Hashable, Codable, Sendable {
    public var dateOfBirth: LocalDate
    public var sex: Sex
    /// How a person who chose Other describes their gender (001 §3: at most 20 characters), trimmed; nil when
    /// none. Only ever set with `sex == .other`, and never read by a calculation: Other keeps its own BMR rule.
    public var genderDescription: String?
    public var heightCm: Double
    /// The weight entered at onboarding or in the profile; the latest logged weight wins over it for targets.
    public var weightKg: Double
    public var targetWeightKg: Double?
    public var targetDate: LocalDate?
    public var goal: Goal
    public var activity: ActivityLevel
    public var dietaryPreferences: [String]
    public var allergies: [String]
    public var mealsPerDay: Int
    /// IANA identifier, e.g. "Europe/Berlin". Every "day" of this user is a day in this zone.
    public var timeZoneIdentifier: String
    public var eatingWindow: EatingWindow
    /// Day 1 of the first MATADOR cycle.
    public var planStartDate: LocalDate
    public var deficit: DeficitSetting
    public var weightUnit: WeightUnit
    public var heightUnit: HeightUnit

    public init(
        dateOfBirth: LocalDate, sex: Sex, heightCm: Double, weightKg: Double,
        targetWeightKg: Double? = nil, targetDate: LocalDate? = nil,
        goal: Goal, activity: ActivityLevel,
        dietaryPreferences: [String] = [], allergies: [String] = [], mealsPerDay: Int = 3,
        timeZoneIdentifier: String = "UTC", eatingWindow: EatingWindow = .default,
        planStartDate: LocalDate, deficit: DeficitSetting = .minus500,
        weightUnit: WeightUnit = .kg, heightUnit: HeightUnit = .cm, genderDescription: String? = nil
    ) {
        self.dateOfBirth = dateOfBirth
        self.sex = sex
        self.genderDescription = genderDescription
        self.heightCm = heightCm
        self.weightKg = weightKg
        self.targetWeightKg = targetWeightKg
        self.targetDate = targetDate
        self.goal = goal
        self.activity = activity
        self.dietaryPreferences = dietaryPreferences
        self.allergies = allergies
        self.mealsPerDay = mealsPerDay
        self.timeZoneIdentifier = timeZoneIdentifier
        self.eatingWindow = eatingWindow
        self.planStartDate = planStartDate
        self.deficit = deficit
        self.weightUnit = weightUnit
        self.heightUnit = heightUnit
    }

    /// The profile's time zone; an unknown identifier (which validation refuses) falls back to UTC.
    public var timeZone: TimeZone { TimeZone(identifier: timeZoneIdentifier) ?? .gmt }

    public func age(on date: LocalDate) -> Int { dateOfBirth.age(on: date) }
}
