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
        /// "→ 1,805 kcal/day from Mon 2 Mar (+25)".
        var text: String
    }

    /// A dietary preference or allergy as a removable tag: its text and what a screen reader calls its button.
    struct Tag {
        var tag: String
        var name: String

        init(_ tag: String) {
            self.tag = tag
            name = Strings.current("profile.removeTag", ["tag": tag])
        }
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
        /// "0/20 characters".
        var genderDescriptionCount: String
        var heightInCm: Bool
        var heightCm: String
        var heightFeet: String
        var heightInches: String
        /// "Enter your height in centimeters": the field's description until the script writes its own.
        var heightA11y: String
        var weightInKg: Bool
        var weightUnit: String
        var weight: String
        var weightA11y: String
        var targetWeight: String
        var targetWeightA11y: String
        /// "Your goal weight in kg."
        var targetWeightUnitCopy: String
        var goals: [Option]
        var targetDate: String
        var activities: [ActivityOption]
        var dietaryPreferences: [Tag]
        var allergies: [Tag]
        var preferenceSuggestions: [String]
        var allergySuggestions: [String]
        var mealsPerDay: Int
        /// "4 meals per day".
        var mealsPerDayText: String
        var targets: [TargetRow]
        /// "Your plan will be updated tomorrow at midnight (Mon 2 Mar)" while a saved change waits.
        var pendingNotice: String?
        /// "Your calories are held at the floor: 1,200 cal. …" when the floor raised today's calories.
        var floorNote: String? = nil
    }

    /// 001 §8's "Complete Your Profile" screen for a signed-in user who has none yet.
    struct EmptyPage {
        var chrome: PageChrome
    }

    /// 001 §3 "Common Suggestions", in the reader's language (a tag is saved as the words tapped).
    static var preferenceSuggestions: [String] { list("profile.preferenceSuggestions") }
    static var allergySuggestions: [String] { list("profile.allergySuggestions") }

    /// A catalog entry that lists items separated by ", ".
    static func list(_ key: String) -> [String] {
        Strings.current(key).components(separatedBy: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// 001 §3 "Activity Level" options.
    static func activityDescription(_ level: ActivityLevel) -> String {
        switch level {
        case .sedentary: Strings.current("profile.activitySedentaryDescription")
        case .light: Strings.current("profile.activityLightDescription")
        case .moderate: Strings.current("profile.activityModerateDescription")
        case .very: Strings.current("profile.activityVeryDescription")
        case .extreme: Strings.current("profile.activityExtremeDescription")
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
            let today = LocalDate(services.now(), in: stored.profile.timeZone)
            let current = try await CurrentWeight.read(services, userId: userId, today: today)
            return try WebTemplates.page("profile", try page(stored, current: current, context: context))
        }
    }

    /// `current`: the weight log's side of the profile (PRODUCT.md "current weight"): the weight field shows the
    /// latest logged weight, and the targets are the days' own (`Targets.of`).
    func page(_ stored: StoredProfile, current: CurrentWeight, context: WebUserContext) throws -> ProfilePage {
        let now = services.now()
        let strings = Strings.current
        let profile = stored.profile
        let today = LocalDate(now, in: profile.timeZone)
        let json = try APICoding.encoder.encode(ProfileJSON(stored, now: now, current: current))
        let (feet, inches) = Units.feetAndInches(fromCentimetres: profile.heightCm)
        let inKg = profile.weightUnit == .kg
        func weightText(_ kg: Double?) -> String {
            guard let kg else { return "" }
            return Self.decimal(inKg ? Units.tenth(kg) : Units.pounds(fromKilograms: kg))
        }
        // Today's targets: the inputs and the weight as they stood when today began.
        let targets = stored.targets(on: today, weightBeforeDayKg: current.beforeTodayKg)
        // Both columns of a waiting change (of the inputs, or a weight logged today) on its first day, so the
        // difference is the change's and not tomorrow's MATADOR switch (as GET /profile/preview compares them).
        let tomorrow = today.adding(days: 1)
        let startOfDay = Targets.compute(profile: stored.profile(forTargetsOn: today), latestWeightKg: current.beforeTodayKg, on: tomorrow)
        let waiting = current.planUpdatesOn(stored, today: today).map { date -> (date: LocalDate, after: Targets, before: Targets) in
            (
                date: date,
                after: stored.targets(on: date, weightBeforeDayKg: current.latestKg),
                before: Targets.compute(profile: stored.profile(forTargetsOn: today), latestWeightKg: current.beforeTodayKg, on: date)
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
            sexes: Sex.allCases.map { Option(value: $0.rawValue, label: $0.title, selected: $0 == profile.sex) },
            isOther: profile.sex == .other,
            genderDescription: profile.genderDescription ?? "",
            genderDescriptionCount: strings("profile.characterCount", ["count": strings.number(profile.genderDescription?.count ?? 0)]),
            heightInCm: profile.heightUnit == .cm,
            heightCm: Self.decimal(profile.heightCm),
            heightFeet: String(feet),
            heightInches: Self.decimal(inches),
            // The page opens with the description of a centimetre and kilogram form; the script words it for the units shown.
            heightA11y: strings("profile.enterHeightCm"),
            weightInKg: inKg,
            weightUnit: inKg ? "kg" : "lb",
            weight: weightText(current.shown(stored)),
            weightA11y: strings("profile.enterWeightKg"),
            targetWeight: weightText(profile.targetWeightKg),
            targetWeightA11y: strings("profile.enterTargetWeightKg"),
            targetWeightUnitCopy: strings("profile.goalWeightIn", ["unit": inKg ? "kg" : "lb"]),
            goals: Goal.allCases.map { Option(value: $0.rawValue, label: $0.title, selected: $0 == profile.goal) },
            targetDate: profile.targetDate?.iso ?? "",
            activities: ActivityLevel.allCases.map { level in
                ActivityOption(
                    value: level.rawValue, title: level.title, description: Self.activityDescription(level),
                    multiplier: strings("profile.activityMultiplier", ["multiplier": Self.decimal(level.multiplier)]),
                    selected: level == profile.activity
                )
            },
            dietaryPreferences: profile.dietaryPreferences.map(Tag.init),
            allergies: profile.allergies.map(Tag.init),
            preferenceSuggestions: Self.preferenceSuggestions,
            allergySuggestions: Self.allergySuggestions,
            mealsPerDay: profile.mealsPerDay,
            mealsPerDayText: strings("profile.mealsPerDayCount", count: profile.mealsPerDay),
            targets: Self.targetRows(targets, startOfDayTomorrow: startOfDay, waiting: waiting),
            pendingNotice: current.notice(stored, today: today),
            floorNote: targets.floorApplied ? strings("dashboard.floorNote", ["floor": strings.number(targets.calories)]) : nil
        )
    }

    /// 001 §4 "Metric Explanations", verbatim (in English; the catalog's `profile.<row>…` strings).
    static func targetRows(
        _ targets: Targets, startOfDayTomorrow: Targets, waiting: (date: LocalDate, after: Targets, before: Targets)?
    ) -> [TargetRow] {
        let strings = Strings.current
        /// The row's copy: `profile.<id>Label`, `…Caption`, `…ExplanationTitle` and the paragraphs `…Explanation1`, 2, ….
        func row(_ id: String, value: String, unit: String, icon: String) -> TargetRow {
            let explanation = (1...9).map { "profile.\(id)Explanation\($0)" }.filter(strings.has).map { strings($0) }
            return TargetRow(
                id: id, label: strings("profile.\(id)Label"), value: value, unit: unit, icon: icon,
                caption: strings("profile.\(id)Caption"), explanationTitle: strings("profile.\(id)ExplanationTitle"),
                explanation: explanation, pending: nil, baseTomorrow: 0
            )
        }
        let rows = [
            row("bmr", value: grouped(targets.bmr), unit: strings("profile.unitKcalPerDay"), icon: "ℹ️"),
            row("tdee", value: grouped(targets.tdee), unit: strings("profile.unitKcalPerDay"), icon: "ℹ️"),
            row("calories", value: grouped(Double(targets.calories)), unit: strings("profile.unitKcal"), icon: "🎯"),
            row("protein", value: String(targets.proteinGrams), unit: strings("profile.unitGrams"), icon: "💪"),
            row("water", value: grouped(Double(targets.waterMl)), unit: strings("profile.unitMillilitres"), icon: "💧"),
        ]
        return rows.map { row in
            var row = row
            row.baseTomorrow = Self.value(of: row.id, in: startOfDayTomorrow)
            if let waiting {
                let after = Self.value(of: row.id, in: waiting.after)
                let difference = after - Self.value(of: row.id, in: waiting.before)
                if difference != 0 {
                    let value = grouped(Double(after))
                    let signed = (difference > 0 ? "+" : "-") + grouped(Double(abs(difference)))
                    let date = waiting.date.shortLabel
                    row.pending = PendingValue(
                        value: value, difference: signed, dateLabel: date,
                        text: strings("profile.targetPending", ["value": value, "unit": row.unit, "date": date, "difference": signed])
                    )
                }
            }
            return row
        }
    }

    /// A whole number grouped by thousands as the reader's language writes it: 2759.4 → "2,759" / "2.759".
    static func grouped(_ value: Double) -> String { Strings.current.number(Int(value.rounded())) }

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

    /// 180 → "180", 82.5 → "82.5", 1.375 → "1.375": no trailing zeros, no thousands separator (the form reads it
    /// back), and the decimal comma in German ("82,5").
    static func decimal(_ value: Double) -> String {
        var text = String(format: "%.3f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text.replacingOccurrences(of: ".", with: decimalMark)
    }

    /// The reader's decimal separator, "." or ",".
    static var decimalMark: String { String(Strings.current.number(0.5, fractionDigits: 1).dropFirst().prefix(1)) }
}
