import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// The profile editor of 001 at `/profile`: seven sections, rendered with the saved values and enhanced by
/// `assets/js/profile.js`, which validates as the user types (001 §5), asks the confirmations of §12, previews the
/// targets with `GET /api/v1/profile/preview` and saves with `PUT /api/v1/profile` against the version shown.
/// It lives under the ⚙️ tab (Settings links to it): editing the profile is a setting, not a daily screen.
struct ProfilePages: Sendable {
    let services: AppServices

    struct Option {
        var value: String
        var label: String
        var selected: Bool
    }

    struct ActivityOption {
        var value: String
        var title: String
        var description: String
        var multiplier: String
        var selected: Bool
    }

    struct TargetRow {
        var id: String
        var label: String
        var value: String
        var unit: String
        var icon: String
        var caption: String
        var explanationTitle: String
        var explanation: [String]
        /// The row's value on the first day of a saved change that still waits ("→ 1,700 from Tue 25 Nov"), with
        /// the change's own difference; nil when nothing waits or the change leaves this target as it is.
        var pending: PendingValue?
        /// The row's value on tomorrow's date from the inputs the day began with: what the script compares a save's
        /// preview with, so that several edits in one day show their sum.
        var baseTomorrow: Int
    }

    /// 001 §2 Section 6 "Shows before/after when values change after save".
    struct PendingValue {
        var value: String
        var difference: String
        var dateLabel: String
    }

    struct ProfilePage {
        var chrome: PageChrome
        /// The saved profile as `GET /api/v1/profile` returns it: the script's base copy.
        var profileJSON: String
        var version: String
        var today: String
        var earliestBirth: String
        var latestBirth: String
        var earliestTarget: String
        var latestTarget: String
        var dateOfBirth: String
        var sexes: [Option]
        /// The description field shows only for Other (001 §3 "Custom entry allowed for 'Other'").
        var isOther: Bool
        var genderDescription: String
        var genderDescriptionCount: Int
        var heightInCm: Bool
        var heightCm: String
        var heightFeet: String
        var heightInches: String
        var weightInKg: Bool
        var weightUnit: String
        var weight: String
        var targetWeight: String
        var goals: [Option]
        var targetDate: String
        var activities: [ActivityOption]
        var dietaryPreferences: [String]
        var allergies: [String]
        var preferenceSuggestions: [String]
        var allergySuggestions: [String]
        var mealsPerDay: Int
        var targets: [TargetRow]
        /// "Your plan will be updated tomorrow at midnight (Mon 2 Mar)" while a saved change waits.
        var pendingNotice: String?
    }

    /// 001 §8's "Complete Your Profile" screen for a signed-in user who has none yet.
    struct EmptyPage {
        var chrome: PageChrome
    }

    /// 001 §3 "Common Suggestions".
    static let preferenceSuggestions = [
        "Vegetarian", "Vegan", "Keto", "Paleo", "Low-carb", "Gluten-free", "Dairy-free", "Pescatarian", "Mediterranean", "Whole30",
    ]
    static let allergySuggestions = ["Peanuts", "Tree nuts", "Shellfish", "Fish", "Eggs", "Dairy", "Soy", "Wheat", "Gluten", "Sesame"]

    /// 001 §3 "Activity Level" options.
    static func activityDescription(_ level: ActivityLevel) -> String {
        switch level {
        case .sedentary: "Desk job, little to no exercise"
        case .light: "Light exercise 1-3 days/week"
        case .moderate: "Moderate exercise 3-5 days/week"
        case .very: "Hard exercise 6-7 days/week"
        case .extreme: "Physical job + daily intense training"
        }
    }

    func register(on group: RouterGroup<WebUserContext>) {
        group.get("/profile") { _, context in
            let userId = context.userId
            // 001 §8 "First-Time User (No Profile)": say what the profile is for before sending anyone into the
            // onboarding steps, rather than redirecting there unannounced.
            guard let stored = try await services.profiles.profile(userId: userId) else {
                return try WebTemplates.page("profile-empty", EmptyPage(chrome: PageChrome(context: context)))
            }
            let latestWeight = try await services.weights.latestWeight(userId: userId)?.entry.kg
            return try WebTemplates.page("profile", try page(stored, latestWeightKg: latestWeight, context: context))
        }
    }

    func page(_ stored: StoredProfile, latestWeightKg: Double?, context: WebUserContext) throws -> ProfilePage {
        let now = services.now()
        let profile = stored.profile
        let today = LocalDate(now, in: profile.timeZone)
        let json = try APICoding.encoder.encode(ProfileJSON(stored, now: now))
        let (feet, inches) = Units.feetAndInches(fromCentimetres: profile.heightCm)
        let inKg = profile.weightUnit == .kg
        func weightText(_ kg: Double?) -> String {
            guard let kg else { return "" }
            return Self.decimal(inKg ? Units.tenth(kg) : Units.pounds(fromKilograms: kg))
        }
        let targets = Targets.compute(profile: stored.profile(forTargetsOn: today), latestWeightKg: latestWeightKg, on: today)
        // Both columns of a waiting change on its first day, so the difference is the change's and not tomorrow's
        // MATADOR switch (as GET /profile/preview compares them).
        let tomorrow = today.adding(days: 1)
        let startOfDay = Targets.compute(profile: stored.profile(forTargetsOn: today), latestWeightKg: latestWeightKg, on: tomorrow)
        let waiting = stored.pendingChange(on: today).map { change -> (date: LocalDate, after: Targets, before: Targets) in
            (
                date: change.effectiveDate,
                after: Targets.compute(profile: profile, latestWeightKg: latestWeightKg, on: change.effectiveDate),
                before: Targets.compute(profile: stored.profile(forTargetsOn: today), latestWeightKg: latestWeightKg, on: change.effectiveDate)
            )
        }
        return ProfilePage(
            chrome: PageChrome(context: context, tab: .settings),
            profileJSON: String(decoding: json, as: UTF8.self),
            version: String(stored.version),
            today: today.iso,
            earliestBirth: Self.yearsBefore(today, ProfileValidator.ageRange.upperBound + 1).adding(days: 1).iso,
            latestBirth: Self.yearsBefore(today, ProfileValidator.ageRange.lowerBound).iso,
            earliestTarget: today.adding(days: 1).iso,
            latestTarget: ProfileValidator.latestTargetDate(today: today).iso,
            dateOfBirth: profile.dateOfBirth.iso,
            sexes: Sex.allCases.map { Option(value: $0.rawValue, label: $0.rawValue.capitalized, selected: $0 == profile.sex) },
            isOther: profile.sex == .other,
            genderDescription: profile.genderDescription ?? "",
            genderDescriptionCount: profile.genderDescription?.count ?? 0,
            heightInCm: profile.heightUnit == .cm,
            heightCm: Self.decimal(profile.heightCm),
            heightFeet: String(feet),
            heightInches: Self.decimal(inches),
            weightInKg: inKg,
            weightUnit: inKg ? "kg" : "lb",
            weight: weightText(profile.weightKg),
            targetWeight: weightText(profile.targetWeightKg),
            goals: Goal.allCases.map { Option(value: $0.rawValue, label: $0.title, selected: $0 == profile.goal) },
            targetDate: profile.targetDate?.iso ?? "",
            activities: ActivityLevel.allCases.map { level in
                ActivityOption(
                    value: level.rawValue, title: level.title, description: Self.activityDescription(level),
                    multiplier: "(\(Self.decimal(level.multiplier))× BMR multiplier)", selected: level == profile.activity
                )
            },
            dietaryPreferences: profile.dietaryPreferences,
            allergies: profile.allergies,
            preferenceSuggestions: Self.preferenceSuggestions,
            allergySuggestions: Self.allergySuggestions,
            mealsPerDay: profile.mealsPerDay,
            targets: Self.targetRows(targets, startOfDayTomorrow: startOfDay, waiting: waiting),
            pendingNotice: stored.pendingChange(on: today)?.notice(today: today)
        )
    }

    /// 001 §4 "Metric Explanations", verbatim.
    static func targetRows(
        _ targets: Targets, startOfDayTomorrow: Targets, waiting: (date: LocalDate, after: Targets, before: Targets)?
    ) -> [TargetRow] {
        let rows = [
            TargetRow(
                id: "bmr", label: "BMR", value: WebFormat.grouped(targets.bmr), unit: "kcal/day", icon: "ℹ️",
                caption: "Basal Metabolic Rate", explanationTitle: "Basal Metabolic Rate (BMR)",
                explanation: [
                    "The calories your body burns at rest just to stay alive - breathing, circulation, basic cellular functions.",
                    "Calculated from: Age, gender, height, and weight",
                    "This is your baseline. Even if you did nothing all day, you'd burn this many calories.",
                ],
                pending: nil, baseTomorrow: 0
            ),
            TargetRow(
                id: "tdee", label: "TDEE", value: WebFormat.grouped(targets.tdee), unit: "kcal/day", icon: "ℹ️",
                caption: "Total Daily Energy Expenditure", explanationTitle: "Total Daily Energy Expenditure (TDEE)",
                explanation: [
                    "The total calories you burn in a day including all activity - walking, exercise, fidgeting, etc.",
                    "Calculated from: BMR × Activity Level Multiplier",
                    "This is your maintenance calories. Eat this amount to maintain your current weight.",
                ],
                pending: nil, baseTomorrow: 0
            ),
            TargetRow(
                id: "calories", label: "Daily Calories", value: WebFormat.grouped(Double(targets.calories)), unit: "kcal", icon: "🎯",
                caption: "Your personalized target", explanationTitle: "Daily Calorie Target",
                explanation: [
                    "Your personalized daily calorie goal to reach your target weight safely.",
                    "Calculated from: TDEE adjusted for your goal",
                    "• Lose weight: TDEE - 500 (for ~0.5kg/week loss)",
                    "• Gain muscle: TDEE + 250 (for ~0.25kg/week gain)",
                    "• Maintain: TDEE",
                    "This is what you should aim to eat each day.",
                    // The coach's own rule (PRODUCT.md): losing runs MATADOR's two-week cycles.
                    "w-diet runs Lose weight in MATADOR cycles: two weeks at TDEE, then two weeks at TDEE - 500, never below your BMR.",
                ],
                pending: nil, baseTomorrow: 0
            ),
            TargetRow(
                id: "protein", label: "Daily Protein", value: String(targets.proteinGrams), unit: "g", icon: "💪",
                caption: "Supports muscle maintenance", explanationTitle: "Daily Protein Target",
                explanation: [
                    "Your recommended protein intake to support your goal.",
                    "Calculated from: Body weight × protein ratio",
                    "• Lose weight: 2.0g per kg (preserve muscle)",
                    "• Gain muscle: 2.2g per kg (build muscle)",
                    "• Maintain: 1.6g per kg (maintain muscle)",
                    "Protein keeps you full and supports muscle maintenance.",
                ],
                pending: nil, baseTomorrow: 0
            ),
            TargetRow(
                id: "water", label: "Daily Water", value: WebFormat.grouped(Double(targets.waterMl)), unit: "ml", icon: "💧",
                caption: "Stay hydrated for optimal health", explanationTitle: "Daily Water Target",
                explanation: [
                    "Your recommended daily water intake for optimal hydration.",
                    "Calculated from: Body weight × 35ml per kg",
                    "Staying hydrated supports metabolism, recovery, and overall health.",
                    "💡 Drink more if you exercise or it's hot outside.",
                ],
                pending: nil, baseTomorrow: 0
            ),
        ]
        return rows.map { row in
            var row = row
            row.baseTomorrow = Self.value(of: row.id, in: startOfDayTomorrow)
            if let waiting {
                let after = Self.value(of: row.id, in: waiting.after)
                let difference = after - Self.value(of: row.id, in: waiting.before)
                if difference != 0 {
                    row.pending = PendingValue(
                        value: WebFormat.grouped(Double(after)),
                        difference: (difference > 0 ? "+" : "-") + WebFormat.grouped(Double(abs(difference))),
                        dateLabel: waiting.date.shortLabel
                    )
                }
            }
            return row
        }
    }

    /// A row's number as the page shows it (and `GET /profile/preview` answers it): whole kcal, g and ml.
    static func value(of row: String, in targets: Targets) -> Int {
        let values = ProfilePreviewJSON.TargetValues(targets)
        switch row {
        case "bmr": return values.bmr
        case "tdee": return values.tdee
        case "calories": return values.calories
        case "protein": return values.proteinGrams
        default: return values.waterMl
        }
    }

    /// The same day `years` years earlier; 29 February becomes 28 February in a year without it.
    static func yearsBefore(_ date: LocalDate, _ years: Int) -> LocalDate {
        LocalDate(year: date.year - years, month: date.month, day: date.day)
            ?? LocalDate(year: date.year - years, month: date.month, day: date.day - 1)!
    }

    /// 180 → "180", 82.5 → "82.5", 1.375 → "1.375": no trailing zeros.
    static func decimal(_ value: Double) -> String {
        var text = String(format: "%.3f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
