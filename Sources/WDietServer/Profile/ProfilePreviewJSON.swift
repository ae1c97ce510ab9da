import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// The answer of `GET /api/v1/profile/preview`: the five targets of the profile page (001 §2 "Current Targets")
/// before and after the proposed change, their differences, when the change would take effect, and what the
/// page must confirm first (001 §12).
struct ProfilePreviewJSON: ResponseEncodable, Sendable {
    /// BMR and TDEE in whole kcal as the page shows them; calories after the floor; protein in g; water in ml.
    struct TargetValues: Encodable, Sendable, Equatable {
        var bmr: Int
        var tdee: Int
        var calories: Int
        var proteinGrams: Int
        var waterMl: Int

        init(_ targets: Targets) {
            bmr = Int(targets.bmr.rounded())
            tdee = Int(targets.tdee.rounded())
            calories = targets.calories
            proteinGrams = targets.proteinGrams
            waterMl = targets.waterMl
        }

        init(bmr: Int, tdee: Int, calories: Int, proteinGrams: Int, waterMl: Int) {
            self.bmr = bmr
            self.tdee = tdee
            self.calories = calories
            self.proteinGrams = proteinGrams
            self.waterMl = waterMl
        }

        func minus(_ other: TargetValues) -> TargetValues {
            TargetValues(
                bmr: bmr - other.bmr, tdee: tdee - other.tdee, calories: calories - other.calories,
                proteinGrams: proteinGrams - other.proteinGrams, waterMl: waterMl - other.waterMl
            )
        }
    }

    struct Confirmation: Encodable, Sendable {
        /// dateOfBirthChange, largeHeightChange, largeWeightChange, goalChange, unrealisticTimeline, extremeHeight,
        /// extremeWeight.
        var kind: String
        var from: String?
        var to: String?
        var deltaCm: Double?
        var deltaKg: Double?
        var heightCm: Double?
        var weightKg: Double?
        var requiredKgPerWeek: Double?
        var recommendedDate: LocalDate?
        var recommendedWeeks: Int?
    }

    /// The day both columns are computed for: the first day of the new targets.
    var date: LocalDate
    var before: TargetValues
    var after: TargetValues
    var difference: TargetValues
    /// True when the change moves a target input (the save waits for midnight).
    var changesTargets: Bool
    /// The first day of the new targets; absent when the change applies at once (no target input moved).
    var effectiveDate: LocalDate?
    /// The instant the new targets begin: the user's next local midnight.
    var effectiveAt: Date?
    /// "Your plan will be updated tomorrow at midnight (Mon 2 Mar)".
    var message: String?
    var confirmations: [Confirmation]

    /// `proposed.weightKg` is the current weight as typed (PRODUCT.md "current weight"): a new one is logged for today
    /// and, like a change of the target inputs, reaches the targets tomorrow. Both columns are tomorrow's, each with
    /// the weight tomorrow would use: the latest logged, or the typed one when it is new.
    init(stored: StoredProfile, proposed: Profile, current: CurrentWeight, now: Date) {
        let today = LocalDate(now, in: proposed.timeZone)
        let weightChanges = current.isChange(proposed.weightKg, of: stored)
        // What the save would store: the profile's own weight stays.
        var saving = proposed
        saving.weightKg = stored.profile.weightKg
        let change = PlanChange.afterSaving(saving, over: stored.profile, pending: stored.planChange, at: now)
        let day = today.adding(days: 1)
        date = day
        before = TargetValues(Targets.compute(profile: stored.profile, latestWeightKg: current.latestKg, on: day))
        after = TargetValues(Targets.compute(profile: saving, latestWeightKg: weightChanges ? proposed.weightKg : current.latestKg, on: day))
        difference = after.minus(before)
        let inputsChange = stored.profile.targetInputs != saving.targetInputs
        changesTargets = inputsChange || weightChanges
        // No change left waiting (an edit back to the inputs the day began with) applies at once; a new weight waits
        // for tomorrow.
        let waiting = (inputsChange ? change?.effectiveDate : nil) ?? (weightChanges ? day : nil)
        effectiveDate = waiting
        effectiveAt = waiting.map { $0.startInstant(in: proposed.timeZone) }
        message = waiting.map { PlanChange.notice(effectiveDate: $0, today: today) }
        // A "large change" is measured from the current weight, as the page shows it.
        var saved = stored.profile
        saved.weightKg = current.shown(stored)
        confirmations = ProfileConfirmation.needed(saved: saved, proposed: proposed, today: today).map(Self.confirmation)
    }

    static func confirmation(_ confirmation: ProfileConfirmation) -> Confirmation {
        switch confirmation {
        case .dateOfBirthChange(let from, let to): Confirmation(kind: "dateOfBirthChange", from: from.iso, to: to.iso)
        case .largeHeightChange(let delta): Confirmation(kind: "largeHeightChange", deltaCm: delta)
        case .largeWeightChange(let delta): Confirmation(kind: "largeWeightChange", deltaKg: delta)
        case .goalChange(let from, let to): Confirmation(kind: "goalChange", from: from.rawValue, to: to.rawValue)
        case .unrealisticTimeline(let timeline):
            Confirmation(
                kind: "unrealisticTimeline", deltaKg: timeline.changeKg, requiredKgPerWeek: Units.tenth(timeline.requiredKgPerWeek),
                recommendedDate: timeline.recommendedDate, recommendedWeeks: timeline.recommendedWeeks
            )
        case .extremeHeight(let cm): Confirmation(kind: "extremeHeight", heightCm: cm)
        case .extremeWeight(let kg): Confirmation(kind: "extremeWeight", weightKg: kg)
        }
    }
}
