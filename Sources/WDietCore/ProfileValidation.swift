import Foundation

/// The fields of the profile form, in the order the form shows them (001 §2–3).
public enum ProfileField: String, CaseIterable, Codable, Sendable {
    case dateOfBirth, gender, genderDescription, height, currentWeight, targetWeight, primaryGoal, targetDate, activityLevel
    case dietaryPreferences, allergies, mealsPerDay, timeZone
}

/// A number typed into a form: absent, not a number, or a value (already converted to metric).
public enum NumericInput: Hashable, Sendable {
    case missing
    case invalid
    case value(Double)

    /// Parses what a person typed; accepts a decimal comma ("82,5") as well as a point.
    public init(text: String?) {
        let trimmed = (text ?? "").trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".")
        if trimmed.isEmpty { self = .missing; return }
        if let number = Double(trimmed), number.isFinite { self = .value(number) } else { self = .invalid }
    }

    public var number: Double? {
        if case .value(let v) = self { v } else { nil }
    }
}

/// A profile as typed: anything may be missing or wrong until `ProfileValidator` accepts it.
public struct ProfileDraft: Hashable, Sendable {
    public var dateOfBirth: LocalDate?
    public var sex: Sex?
    /// As typed; `ProfileValidator.normalizedGenderDescription` gives the value saved.
    public var genderDescription: String?
    public var height: NumericInput
    public var currentWeight: NumericInput
    /// Optional: onboarding does not ask for it; the profile editor does.
    public var targetWeight: NumericInput
    public var goal: Goal?
    public var targetDate: LocalDate?
    public var activity: ActivityLevel?
    public var dietaryPreferences: [String]
    public var allergies: [String]
    public var mealsPerDay: Int
    public var timeZoneIdentifier: String

    public init(
        dateOfBirth: LocalDate? = nil, sex: Sex? = nil, height: NumericInput = .missing, currentWeight: NumericInput = .missing,
        targetWeight: NumericInput = .missing, goal: Goal? = nil, targetDate: LocalDate? = nil, activity: ActivityLevel? = nil,
        dietaryPreferences: [String] = [], allergies: [String] = [], mealsPerDay: Int = 3, timeZoneIdentifier: String = "UTC",
        genderDescription: String? = nil
    ) {
        self.dateOfBirth = dateOfBirth
        self.sex = sex
        self.genderDescription = genderDescription
        self.height = height
        self.currentWeight = currentWeight
        self.targetWeight = targetWeight
        self.goal = goal
        self.targetDate = targetDate
        self.activity = activity
        self.dietaryPreferences = dietaryPreferences
        self.allergies = allergies
        self.mealsPerDay = mealsPerDay
        self.timeZoneIdentifier = timeZoneIdentifier
    }

    public init(_ profile: Profile) {
        self.init(
            dateOfBirth: profile.dateOfBirth, sex: profile.sex, height: .value(profile.heightCm),
            currentWeight: .value(profile.weightKg), targetWeight: profile.targetWeightKg.map { .value($0) } ?? .missing,
            goal: profile.goal, targetDate: profile.targetDate, activity: profile.activity,
            dietaryPreferences: profile.dietaryPreferences, allergies: profile.allergies,
            mealsPerDay: profile.mealsPerDay, timeZoneIdentifier: profile.timeZoneIdentifier,
            genderDescription: profile.genderDescription
        )
    }
}

public struct FieldError: Hashable, Sendable, Codable {
    public var field: ProfileField
    public var message: String

    public init(_ field: ProfileField, _ message: String) {
        self.field = field
        self.message = message
    }
}

/// The validation rules and messages of 001 §5, verbatim.
public enum ProfileValidator {
    public static let heightRangeCm = 50.0...300.0
    public static let weightRangeKg = 20.0...500.0
    public static let ageRange = 13...120
    public static let mealsPerDayRange = 1...10
    public static let maxDietaryPreferences = 10
    public static let maxAllergies = 20
    public static let maxTagLength = 30
    /// 001 §3 "Custom entry allowed for 'Other' (max 20 chars)", counted as a person sees them (an emoji flag is one).
    public static let maxGenderDescriptionLength = 20

    public enum Message {
        public static var tooYoung: String { Strings.current("profile.tooYoung") }
        public static var tooOld: String { Strings.current("profile.tooOld") }
        public static var birthInFuture: String { Strings.current("profile.birthInFuture") }
        public static var genderMissing: String { Strings.current("profile.genderMissing") }
        public static var heightTooLow: String { Strings.current("profile.heightTooLow") }
        public static var heightTooHigh: String { Strings.current("profile.heightTooHigh") }
        public static var notANumber: String { Strings.current("profile.notANumber") }
        public static var weightTooLow: String { Strings.current("profile.weightTooLow") }
        public static var weightTooHigh: String { Strings.current("profile.weightTooHigh") }
        public static var targetWeightTooLow: String { Strings.current("profile.targetWeightTooLow") }
        public static var targetWeightTooHigh: String { Strings.current("profile.targetWeightTooHigh") }
        public static var goalMissing: String { Strings.current("profile.goalMissing") }
        public static var targetDateNotFuture: String { Strings.current("profile.targetDateNotFuture") }
        public static var targetDateTooFar: String { Strings.current("profile.targetDateTooFar") }
        public static var activityMissing: String { Strings.current("profile.activityMissing") }
        public static var tooManyPreferences: String { Strings.current("profile.tooManyPreferences") }
        public static var tooManyAllergies: String { Strings.current("profile.tooManyAllergies") }
        public static var tooFewMeals: String { Strings.current("profile.tooFewMeals") }
        public static var tooManyMeals: String { Strings.current("profile.tooManyMeals") }
        // Not in 001's table, which names the limit but no message; worded in its style.
        public static var tagTooLong: String { Strings.current("profile.tagTooLong") }
        public static var unknownTimeZone: String { Strings.current("profile.unknownTimeZone") }
        // 001 allows the custom entry and its 20-character limit but gives no message; worded like the tag limit.
        public static var genderDescriptionTooLong: String { Strings.current("profile.genderDescriptionTooLong") }
        public static var genderDescriptionNotOther: String { Strings.current("profile.genderDescriptionNotOther") }
        public static var genderDescriptionUntrimmed: String { Strings.current("profile.genderDescriptionUntrimmed") }
    }

    /// Every error in the draft, in form order. `today` is the user's local date.
    public static func errors(in draft: ProfileDraft, today: LocalDate) -> [FieldError] {
        var errors: [FieldError] = []
        if let message = dateOfBirthError(draft.dateOfBirth, today: today) { errors.append(.init(.dateOfBirth, message)) }
        if draft.sex == nil { errors.append(.init(.gender, Message.genderMissing)) }
        if let message = genderDescriptionError(draft.genderDescription, sex: draft.sex) {
            errors.append(.init(.genderDescription, message))
        }
        if let message = rangeError(draft.height, range: heightRangeCm, low: Message.heightTooLow, high: Message.heightTooHigh, required: true) {
            errors.append(.init(.height, message))
        }
        if let message = rangeError(draft.currentWeight, range: weightRangeKg, low: Message.weightTooLow, high: Message.weightTooHigh, required: true) {
            errors.append(.init(.currentWeight, message))
        }
        if let message = rangeError(draft.targetWeight, range: weightRangeKg, low: Message.targetWeightTooLow, high: Message.targetWeightTooHigh, required: false) {
            errors.append(.init(.targetWeight, message))
        }
        if draft.goal == nil { errors.append(.init(.primaryGoal, Message.goalMissing)) }
        if let date = draft.targetDate, let message = targetDateError(date, today: today) { errors.append(.init(.targetDate, message)) }
        if draft.activity == nil { errors.append(.init(.activityLevel, Message.activityMissing)) }
        if let message = tagsError(draft.dietaryPreferences, max: maxDietaryPreferences, tooMany: Message.tooManyPreferences) {
            errors.append(.init(.dietaryPreferences, message))
        }
        if let message = tagsError(draft.allergies, max: maxAllergies, tooMany: Message.tooManyAllergies) {
            errors.append(.init(.allergies, message))
        }
        if draft.mealsPerDay < mealsPerDayRange.lowerBound { errors.append(.init(.mealsPerDay, Message.tooFewMeals)) }
        if draft.mealsPerDay > mealsPerDayRange.upperBound { errors.append(.init(.mealsPerDay, Message.tooManyMeals)) }
        if TimeZone(identifier: draft.timeZoneIdentifier) == nil { errors.append(.init(.timeZone, Message.unknownTimeZone)) }
        return errors
    }

    public static func dateOfBirthError(_ dateOfBirth: LocalDate?, today: LocalDate) -> String? {
        guard let dateOfBirth else { return Message.tooOld }
        if dateOfBirth > today { return Message.birthInFuture }
        let age = dateOfBirth.age(on: today)
        if age < ageRange.lowerBound { return Message.tooYoung }
        if age > ageRange.upperBound { return Message.tooOld }
        return nil
    }

    /// Judged after trimming; an empty description is none. Only a person who chose Other describes their gender
    /// (the form clears the description when another option is chosen, so this only refuses a client that did not).
    public static func genderDescriptionError(_ description: String?, sex: Sex?) -> String? {
        guard let description = normalizedGenderDescription(description) else { return nil }
        if description.count > maxGenderDescriptionLength { return Message.genderDescriptionTooLong }
        if let sex, sex != .other { return Message.genderDescriptionNotOther }
        return nil
    }

    /// The description as stored: trimmed of spaces and line breaks; nil when nothing is left.
    public static func normalizedGenderDescription(_ description: String?) -> String? {
        let trimmed = (description ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The target date must be at least tomorrow and at most two calendar years from today.
    public static func targetDateError(_ date: LocalDate, today: LocalDate) -> String? {
        if date <= today { return Message.targetDateNotFuture }
        if date > latestTargetDate(today: today) { return Message.targetDateTooFar }
        return nil
    }

    /// Two years from today; 29 February becomes 28 February in a year without it.
    public static func latestTargetDate(today: LocalDate) -> LocalDate {
        let year = today.year + 2
        return LocalDate(year: year, month: today.month, day: today.day)
            ?? LocalDate(year: year, month: today.month, day: today.day - 1)!
    }

    static func rangeError(_ input: NumericInput, range: ClosedRange<Double>, low: String, high: String, required: Bool) -> String? {
        switch input {
        case .missing: return required ? Message.notANumber : nil
        case .invalid: return Message.notANumber
        case .value(let v):
            if v < range.lowerBound { return low }
            if v > range.upperBound { return high }
            return nil
        }
    }

    static func tagsError(_ tags: [String], max: Int, tooMany: String) -> String? {
        let cleaned = normalizedTags(tags)
        if cleaned.count > max { return tooMany }
        if cleaned.contains(where: { $0.count > maxTagLength }) { return Message.tagTooLong }
        return nil
    }

    /// Tags as stored: trimmed, empty ones dropped, duplicates removed regardless of case (first spelling kept).
    public static func normalizedTags(_ tags: [String]) -> [String] {
        var seen = Set<String>()
        var result: [String] = []
        for tag in tags {
            let trimmed = tag.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, seen.insert(trimmed.lowercased()).inserted else { continue }
            result.append(trimmed)
        }
        return result
    }
}
