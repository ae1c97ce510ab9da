import Foundation

/// Conversions between the metric values we store and the units a user sees. Display values keep one decimal,
/// and a value converted to display and back returns to the same tenth (82.5 kg → 181.9 lb → 82.5 kg).
public enum Units {
    public static let kilogramsPerPound = 0.45359237
    public static let centimetresPerInch = 2.54

    /// Rounds to one decimal, half away from zero.
    public static func tenth(_ value: Double) -> Double { (value * 10).rounded() / 10 }

    public static func pounds(fromKilograms kg: Double) -> Double { tenth(kg / kilogramsPerPound) }
    public static func kilograms(fromPounds lb: Double) -> Double { tenth(lb * kilogramsPerPound) }

    /// Height as feet and inches, the inches to one decimal (175 cm → 5 ft 8.9 in).
    public static func feetAndInches(fromCentimetres cm: Double) -> (feet: Int, inches: Double) {
        let totalInches = tenth(cm / centimetresPerInch)
        let feet = Int((totalInches / 12).rounded(.down))
        return (feet, tenth(totalInches - Double(feet) * 12))
    }

    public static func centimetres(feet: Int, inches: Double) -> Double {
        tenth((Double(feet) * 12 + inches) * centimetresPerInch)
    }

    /// Weight as the user wants to read it: "69.1 kg" or "152.3 lb".
    public static func format(kg: Double, in unit: WeightUnit) -> String {
        switch unit {
        case .kg: "\(oneDecimal(tenth(kg))) kg"
        case .lb: "\(oneDecimal(pounds(fromKilograms: kg))) lb"
        }
    }

    /// Height as the user wants to read it: "175 cm" or "5'9\"" (whole inches, as the design documents show it).
    public static func format(cm: Double, in unit: HeightUnit) -> String {
        switch unit {
        case .cm:
            return "\(oneDecimalTrimmed(tenth(cm))) cm"
        case .ftIn:
            let totalInches = Int((cm / centimetresPerInch).rounded())
            return "\(totalInches / 12)'\(totalInches % 12)\""
        }
    }

    /// In the current language's number format: "82.5" / "82,5".
    static func oneDecimal(_ value: Double) -> String { Strings.current.number(value, fractionDigits: 1) }

    static func oneDecimalTrimmed(_ value: Double) -> String {
        Strings.current.number(value, fractionDigits: 1, trimmingZeros: true)
    }
}
