import Foundation
import WDietCore

/// What the Challenge's templates get (issue 20 item 3). Values are made in Swift in the page's language; templates
/// only place them. Stored properties only: templates read values through reflection.

/// 003's empty state: an icon (a sprite name), "No data yet", a prompt and an optional action.
struct ChallengeEmpty: Sendable {
    var icon: String
    var prompt: String
    var actionHref: String?
    var actionLabel: String?
}

/// A state with its word and icon: done (green), pending and skipped (gray, never red), late (orange).
struct ChallengeState: Sendable {
    enum Kind: String, Sendable { case done, pending, skipped, late }
    var kind: String
    var icon: String
    var text: String
    var detail: String?

    init(_ kind: Kind, text: String, detail: String? = nil) {
        self.kind = kind.rawValue
        self.icon = switch kind {
        case .done: "check-circle"
        case .pending: "circle"
        case .skipped: "minus-circle"
        case .late: "clock"
        }
        self.text = text
        self.detail = detail
    }
}

/// A week's compliance score as shown: the number, its colour (green ≥ 80, yellow 60–79, gray < 60) and a word.
struct ChallengeScoreValue: Sendable {
    var score: Int
    var colour: String
    var word: String
    var detail: String

    init(_ score: ChallengeWeekScore) {
        self.score = score.score
        colour = score.colour.rawValue
        word = switch score.colour {
        case .green: Strings.current("challenge.scoreGreen")
        case .yellow: Strings.current("challenge.scoreYellow")
        case .gray: Strings.current("challenge.scoreGray")
        }
        detail = score.isComplete
            ? Strings.current("challenge.scoreWeekDone")
            : Strings.current("challenge.scoreSoFar", ["days": String(score.daysElapsed)])
    }
}

struct ChallengeStreakValue: Sendable {
    var label: String
    var text: String
    var icon: String
}

/// Formats for the Challenge's screens, in the challenge's unit.
enum ChallengeFormat {
    static func weight(_ kg: Double, unit: WeightUnit) -> String {
        let strings = Strings.current
        switch unit {
        case .kg: return strings("challenge.weightKg", ["value": strings.number(kg, fractionDigits: 1)])
        case .lb: return strings("challenge.weightLb", ["value": strings.number(Units.pounds(fromKilograms: kg), fractionDigits: 1)])
        }
    }

    /// A weight as a form's field shows it: "82.4" in the unit, the page language's decimal mark.
    static func weightField(_ kg: Double, unit: WeightUnit) -> String {
        let value = unit == .lb ? Units.pounds(fromKilograms: kg) : kg
        return Strings.current.number(value, fractionDigits: 1, trimmingZeros: true)
    }

    static func number(_ value: Double?) -> String {
        guard let value else { return "" }
        return Strings.current.number(value, fractionDigits: 1, trimmingZeros: true)
    }
}
