import Foundation
import WDietCore

/// What every store refuses before writing, whichever backend it is. The ranges and messages are WDietCore's
/// (the ones the forms show), so a client that skipped the form's checks gets the same words back.
public enum StoreValidation {
    /// Instants a log may carry. A clock reset to 1970 or a typo'd year would otherwise put a log on a day the
    /// streak and charts can never show.
    public static let instantRange = Date(timeIntervalSince1970: 946_684_800)..<Date(timeIntervalSince1970: 4_102_444_800)

    public enum Message {
        public static var instant: String { Strings.current("errors.storeInstant") }
        public static var databaseMealIncomplete: String { Strings.current("errors.storeFoodAndAmount") }
    }

    public static func validate(_ meal: Meal) throws(StoreError) {
        if meal.name.count > MealInput.maxNameLength { throw .invalid(MealInput.Message.nameTooLong) }
        // The 1–9999 rule is the manual form's (000, 004 FR-2.1). Catalog and label meals are computed, and a
        // catalog food can rightly have 0 kcal (water, black tea), so for them only nonsense is refused.
        switch meal.source {
        case .manual:
            guard MealInput.calorieRange.contains(meal.kcal) else { throw .invalid(MealInput.Message.calories) }
        case .database, .labelScan:
            guard meal.kcal.isFinite, meal.kcal >= 0 else { throw .invalid(MealInput.Message.macro) }
        }
        for value in [meal.protein, meal.carbs, meal.fat, meal.fiber].compactMap({ $0 }) {
            let acceptable = meal.source == .manual ? MealInput.macroRange.contains(value) : value.isFinite && value >= 0
            guard acceptable else { throw .invalid(MealInput.Message.macro) }
        }
        if let grams = meal.grams, !MealInput.gramsRange.contains(grams) { throw .invalid(MealInput.Message.amount) }
        if meal.source == .database, meal.foodId?.isEmpty ?? true || meal.grams == nil {
            throw .invalid(Message.databaseMealIncomplete)
        }
        guard instantRange.contains(meal.loggedAt) else { throw .invalid(Message.instant) }
    }

    public static func validate(_ entry: WeightEntry) throws(StoreError) {
        let range = ProfileValidator.weightRangeKg
        guard entry.kg.isFinite else { throw .invalid(ProfileValidator.Message.notANumber) }
        if entry.kg < range.lowerBound { throw .invalid(ProfileValidator.Message.weightTooLow) }
        if entry.kg > range.upperBound { throw .invalid(ProfileValidator.Message.weightTooHigh) }
        guard instantRange.contains(entry.loggedAt) else { throw .invalid(Message.instant) }
    }

    /// The profile form's rules that hold at any time. Date of birth and target date are judged against "today"
    /// by the form only: a stored profile must stay saveable after its target date has passed.
    public static func validate(_ profile: Profile) throws(StoreError) {
        // The form's range checks let NaN through (it compares false both ways); a form never produces it.
        let numbers = [profile.heightCm, profile.weightKg] + (profile.targetWeightKg.map { [$0] } ?? [])
        guard numbers.allSatisfy(\.isFinite) else { throw .invalid(ProfileValidator.Message.notANumber) }
        // `today` only matters to the two fields filtered out; the plan start stands in for it.
        // A plan start of this century (issue 21): a push or import has no "today" of the user to judge "a year ahead".
        let planStarts = DateWindow.earliestPlanStart...DateWindow.accepted.upperBound
        guard planStarts.contains(profile.planStartDate) else {
            throw .invalid(DateWindow.message(member: "planStartDate", range: planStarts))
        }
        for day in [profile.dateOfBirth, profile.targetDate].compactMap({ $0 }) where !DateWindow.accepted.contains(day) {
            throw .invalid(DateWindow.message(member: day == profile.dateOfBirth ? "dateOfBirth" : "targetDate", range: DateWindow.accepted))
        }
        let timeless = ProfileValidator.errors(in: ProfileDraft(profile), today: profile.planStartDate)
            .filter { $0.field != .dateOfBirth && $0.field != .targetDate }
        if let first = timeless.first { throw .invalid(first.message) }
        // Every way in trims it and turns "" into nil; an untrimmed or empty value would read back differently.
        if let description = profile.genderDescription, description != ProfileValidator.normalizedGenderDescription(description) {
            throw .invalid(ProfileValidator.Message.genderDescriptionUntrimmed)
        }
    }
}
