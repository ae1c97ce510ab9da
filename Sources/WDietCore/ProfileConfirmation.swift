/// Changes that are valid but unusual enough to ask "are you sure?" before saving (001 §3 and §12).
public enum ProfileConfirmation: Hashable, Sendable {
    case dateOfBirthChange(from: LocalDate, to: LocalDate)
    /// More than 5 cm away from the saved height.
    case largeHeightChange(deltaCm: Double)
    /// More than 10 kg away from the saved weight.
    case largeWeightChange(deltaKg: Double)
    case goalChange(from: Goal, to: Goal)
    case unrealisticTimeline(Timeline)
    /// Height outside 80–250 cm.
    case extremeHeight(cm: Double)
    /// Weight outside 30–200 kg.
    case extremeWeight(kg: Double)

    public static let heightChangeThresholdCm = 5.0
    public static let weightChangeThresholdKg = 10.0
    public static let usualHeightCm = 80.0...250.0
    public static let usualWeightKg = 30.0...200.0

    /// What a proposed profile needs confirmed, compared with the saved one (nil for a new profile). A timeline or an
    /// extreme value the user already confirmed is not asked again while its inputs stay as saved: a person of 210 kg
    /// who changes the meals per day is not asked to verify the weight at every save.
    public static func needed(saved: Profile?, proposed: Profile, today: LocalDate) -> [ProfileConfirmation] {
        var result: [ProfileConfirmation] = []
        if let saved {
            if saved.dateOfBirth != proposed.dateOfBirth {
                result.append(.dateOfBirthChange(from: saved.dateOfBirth, to: proposed.dateOfBirth))
            }
            let heightDelta = Units.tenth(proposed.heightCm - saved.heightCm)
            if abs(heightDelta) > heightChangeThresholdCm { result.append(.largeHeightChange(deltaCm: heightDelta)) }
            let weightDelta = Units.tenth(proposed.weightKg - saved.weightKg)
            if abs(weightDelta) > weightChangeThresholdKg { result.append(.largeWeightChange(deltaKg: weightDelta)) }
            if saved.goal != proposed.goal { result.append(.goalChange(from: saved.goal, to: proposed.goal)) }
        }
        let timelineEdited = saved.map {
            $0.weightKg != proposed.weightKg || $0.targetWeightKg != proposed.targetWeightKg || $0.targetDate != proposed.targetDate
        } ?? true
        if timelineEdited, let target = proposed.targetWeightKg, let date = proposed.targetDate,
           let timeline = Timeline(currentKg: proposed.weightKg, targetKg: target, targetDate: date, today: today),
           !timeline.isRealistic {
            result.append(.unrealisticTimeline(timeline))
        }
        if saved?.heightCm != proposed.heightCm, !usualHeightCm.contains(proposed.heightCm) {
            result.append(.extremeHeight(cm: proposed.heightCm))
        }
        if saved?.weightKg != proposed.weightKg, !usualWeightKg.contains(proposed.weightKg) {
            result.append(.extremeWeight(kg: proposed.weightKg))
        }
        return result
    }
}

/// The pace a target weight and date ask for, against the safe rates of 001 (loss 0.5–1 kg a week, gain 0.25–0.5).
public struct Timeline: Hashable, Sendable {
    public static let safeLossKgPerWeek = 0.5...1.0
    public static let safeGainKgPerWeek = 0.25...0.5

    public var changeKg: Double
    public var weeks: Double
    public var requiredKgPerWeek: Double
    public var isLoss: Bool
    /// The soonest date the change is safe by (at the top of the safe range), in whole weeks from today.
    public var recommendedDate: LocalDate
    public var recommendedWeeks: Int

    /// Nil when there is nothing to change or the date is not in the future.
    public init?(currentKg: Double, targetKg: Double, targetDate: LocalDate, today: LocalDate) {
        let days = today.days(until: targetDate)
        let change = Units.tenth(targetKg - currentKg)
        guard days > 0, change != 0 else { return nil }
        changeKg = change
        isLoss = change < 0
        weeks = Double(days) / 7
        requiredKgPerWeek = abs(change) / weeks
        let fastest = isLoss ? Self.safeLossKgPerWeek.upperBound : Self.safeGainKgPerWeek.upperBound
        recommendedWeeks = Int((abs(change) / fastest - 1e-9).rounded(.up))
        recommendedDate = today.adding(days: recommendedWeeks * 7)
    }

    public var isRealistic: Bool {
        let limit = isLoss ? Self.safeLossKgPerWeek.upperBound : Self.safeGainKgPerWeek.upperBound
        return requiredKgPerWeek <= limit + 1e-9
    }

    /// The "smart helper" range: weeks needed at the top and at the bottom of the safe rate.
    public var safeWeeksRange: ClosedRange<Int> {
        let rates = isLoss ? Self.safeLossKgPerWeek : Self.safeGainKgPerWeek
        let fewest = Int((abs(changeKg) / rates.upperBound - 1e-9).rounded(.up))
        let most = Int((abs(changeKg) / rates.lowerBound - 1e-9).rounded(.up))
        return fewest...most
    }
}
