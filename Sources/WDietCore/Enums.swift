/// Sex used by the BMR formula. "other" uses the mean of the male and female constants.
public enum Sex: String, CaseIterable, Codable, Sendable {
    case male, female, other

    /// The weight the picker shows the first time (000 Step 12: start high so the user swipes down).
    public var defaultPickerWeightKg: Double {
        switch self {
        case .male: 90
        case .female: 70
        case .other: 80
        }
    }

    /// "Male", "Female", "Other" in the reader's language.
    public var title: String { Strings.current("profile.sex\(rawValue.enumKeyTail)") }
}

public enum ActivityLevel: String, CaseIterable, Codable, Sendable {
    case sedentary, light, moderate, very, extreme

    /// The TDEE multipliers of 001 §3.
    public var multiplier: Double {
        switch self {
        case .sedentary: 1.2
        case .light: 1.375
        case .moderate: 1.55
        case .very: 1.725
        case .extreme: 1.9
        }
    }

    public var title: String {
        Strings.current("profile.activity\(rawValue.enumKeyTail)")
    }
}

public enum Goal: String, CaseIterable, Codable, Sendable {
    case lose, maintain, gain

    /// Protein per kg of the latest weight (PRODUCT.md, from 001).
    public var proteinGramsPerKg: Double {
        switch self {
        case .lose: 2.0
        case .maintain: 1.6
        case .gain: 2.2
        }
    }

    public var title: String {
        Strings.current("profile.goal\(rawValue.enumKeyTail)")
    }
}

/// How deep the MATADOR diet phase cuts.
public enum DeficitSetting: String, CaseIterable, Codable, Sendable {
    /// TDEE − 500 kcal (the default).
    case minus500
    /// The study's protocol: 67 % of TDEE.
    case studyProtocol

    public func dietCalories(tdee: Double) -> Double {
        switch self {
        case .minus500: tdee - 500
        case .studyProtocol: tdee * 0.67
        }
    }
}

public enum MealSource: String, CaseIterable, Codable, Sendable {
    case manual, database, labelScan
}

public enum WeightUnit: String, CaseIterable, Codable, Sendable { case kg, lb }
public enum HeightUnit: String, CaseIterable, Codable, Sendable { case cm, ftIn }

fileprivate extension String {
    /// "sedentary" → "Sedentary": the catalog key's tail for an enum case.
    var enumKeyTail: String { prefix(1).uppercased() + dropFirst() }
}
