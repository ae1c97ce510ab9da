import Foundation
import WDietCore
import WDietStore

/// The body of `PUT /api/v1/profile`: the profile in metric. Required members are checked by `ProfileValidator`
/// (001's messages); optional members left out keep the stored value, or take the default for a new profile.
struct ProfileBody: Decodable, Sendable {
    var dateOfBirth: JSONField<String>
    var sex: JSONField<String>
    /// Only with `sex` "other", at most 20 characters, trimmed; "" or null is none. Left out, it keeps the stored
    /// one while the profile stays "other", and is dropped when `sex` becomes something else.
    var genderDescription: JSONField<String>
    var heightCm: JSONField<NumberInput>
    var weightKg: JSONField<NumberInput>
    var targetWeightKg: JSONField<NumberInput>
    var targetDate: JSONField<String>
    var goal: JSONField<String>
    var activity: JSONField<String>
    var dietaryPreferences: JSONField<[String]>
    var allergies: JSONField<[String]>
    var mealsPerDay: JSONField<NumberInput>
    var timeZone: JSONField<String>
    /// "HH:MM" on the half hour; the window lasts 6 hours.
    var eatingWindowStart: JSONField<String>
    var deficit: JSONField<String>
    var weightUnit: JSONField<String>
    var heightUnit: JSONField<String>
    /// Day 1 of the MATADOR plan: today (in the profile's zone) for a new profile, kept for an existing one.
    var planStartDate: JSONField<String>
    /// The `version` the edit started from; a stale one is answered 409 with the server's copy.
    var baseVersion: JSONField<Int64>

    enum Message {
        static var eatingWindowStart: String { Strings.current("profile.eatingWindowStartInvalid") }
        static var deficit: String { Strings.current("profile.deficitInvalid") }
        static var weightUnit: String { Strings.current("profile.weightUnitInvalid") }
        static var heightUnit: String { Strings.current("profile.heightUnitInvalid") }
        static var wholeNumber: String { Strings.current("profile.wholeNumber") }
    }

    /// The body's member that carries each field of the profile form, so 422's `fields` name what the client sent.
    static func member(for field: ProfileField) -> String {
        switch field {
        case .dateOfBirth: "dateOfBirth"
        case .gender: "sex"
        case .genderDescription: "genderDescription"
        case .height: "heightCm"
        case .currentWeight: "weightKg"
        case .targetWeight: "targetWeightKg"
        case .primaryGoal: "goal"
        case .targetDate: "targetDate"
        case .activityLevel: "activity"
        case .dietaryPreferences: "dietaryPreferences"
        case .allergies: "allergies"
        case .mealsPerDay: "mealsPerDay"
        case .timeZone: "timeZone"
        }
    }

    /// The profile this body describes over the stored one (nil for a new profile), validated as the profile form
    /// validates it on the user's local day of `now`. Throws `InvalidInput` with every field's message (the API's 422).
    func profile(over stored: Profile?, now: Date) throws(InvalidInput) -> Profile {
        var errors: [String: String] = [:]

        let timeZoneIdentifier = timeZone.merged(into: stored?.timeZoneIdentifier) ?? "UTC"
        let zone = TimeZone(identifier: timeZoneIdentifier) ?? .gmt
        let today = LocalDate(now, in: zone)

        func date(
            _ field: JSONField<String>, member: String, message: String = APIInput.Message.date, range: ClosedRange<LocalDate> = DateWindow.accepted,
            outOfRange: String? = nil
        ) -> JSONField<LocalDate> {
            switch field {
            case .absent: return .absent
            case .null: return .null
            case .value(let text):
                guard let date = LocalDate(iso: text) else { errors[member] = message; return .null }
                guard range.contains(date) else {
                    errors[member] = outOfRange ?? DateWindow.message(member: member, range: range)
                    return .null
                }
                return .value(date)
            }
        }
        func choice<E: RawRepresentable<String>>(_ field: JSONField<String>, member: String, current: E?, message: String) -> E? {
            guard let text = field.value else { return field.isAbsent ? current : nil }
            guard let value = E(rawValue: text) else { errors[member] = message; return current }
            return value
        }

        // A birth date outside the window is one nobody has: the profile's own words for it (001), as the page says.
        let birth = date(dateOfBirth, member: "dateOfBirth", message: ProfileValidator.Message.tooOld, outOfRange: ProfileValidator.Message.tooOld).value
        let target = date(targetDate, member: "targetDate").merged(into: stored?.targetDate)
        // A plan from this century, starting at most a year from now (issue 21); a stored one is kept as it is.
        let planStart = date(planStartDate, member: "planStartDate", range: DateWindow.planStart(today: today)).value ?? stored?.planStartDate ?? today

        var mealsPerDay = stored?.mealsPerDay ?? 3
        switch self.mealsPerDay.numeric {
        case .missing: break
        case .invalid: errors["mealsPerDay"] = ProfileValidator.Message.notANumber
        case .value(let v):
            if v == v.rounded(), abs(v) < 1_000 { mealsPerDay = Int(v) } else { errors["mealsPerDay"] = Message.wholeNumber }
        }

        var eatingWindow = stored?.eatingWindow ?? .default
        if let text = eatingWindowStart.value {
            if let window = EatingWindow(start: text) { eatingWindow = window } else { errors["eatingWindowStart"] = Message.eatingWindowStart }
        }
        let deficit: DeficitSetting? = choice(deficit, member: "deficit", current: stored?.deficit, message: Message.deficit)
        let weightUnit: WeightUnit? = choice(weightUnit, member: "weightUnit", current: stored?.weightUnit, message: Message.weightUnit)
        let heightUnit: HeightUnit? = choice(heightUnit, member: "heightUnit", current: stored?.heightUnit, message: Message.heightUnit)

        // Unknown values of the form's choices read as "not chosen", which the validator words as 001 does.
        let chosenSex = sex.value.flatMap(Sex.init(rawValue:))
        // Left out, the stored description follows the profile only while it stays "other" (001: choosing another
        // option clears it); sent, it is judged, so a description beside "male" is a 422, not silently dropped.
        let description = genderDescription.isAbsent
            ? (chosenSex == .other ? stored?.genderDescription : nil)
            : genderDescription.value
        let draft = ProfileDraft(
            dateOfBirth: birth, sex: chosenSex, height: heightCm.numeric,
            currentWeight: weightKg.numeric,
            targetWeight: targetWeightKg.isAbsent ? (stored?.targetWeightKg).map { .value($0) } ?? .missing : targetWeightKg.numeric,
            goal: goal.value.flatMap(Goal.init(rawValue:)), targetDate: target,
            activity: activity.value.flatMap(ActivityLevel.init(rawValue:)),
            dietaryPreferences: dietaryPreferences.merged(into: stored?.dietaryPreferences) ?? [],
            allergies: allergies.merged(into: stored?.allergies) ?? [],
            mealsPerDay: mealsPerDay, timeZoneIdentifier: timeZoneIdentifier, genderDescription: description
        )
        for error in ProfileValidator.errors(in: draft, today: today) {
            let member = Self.member(for: error.field)
            if errors[member] == nil { errors[member] = error.message }
        }
        guard errors.isEmpty, let birth, let sex = draft.sex, let height = draft.height.number,
              let weight = draft.currentWeight.number, let goal = draft.goal, let activity = draft.activity
        else { throw InvalidInput(errors) }

        return Profile(
            dateOfBirth: birth, sex: sex, heightCm: height, weightKg: weight, targetWeightKg: draft.targetWeight.number,
            targetDate: target, goal: goal, activity: activity,
            dietaryPreferences: ProfileValidator.normalizedTags(draft.dietaryPreferences),
            allergies: ProfileValidator.normalizedTags(draft.allergies), mealsPerDay: mealsPerDay,
            timeZoneIdentifier: timeZoneIdentifier, eatingWindow: eatingWindow, planStartDate: planStart,
            deficit: deficit ?? .minus500, weightUnit: weightUnit ?? .kg, heightUnit: heightUnit ?? .cm,
            genderDescription: ProfileValidator.normalizedGenderDescription(description)
        )
    }
}
