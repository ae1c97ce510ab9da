import Foundation
import Mustache
import WDietCore

/// What the Challenge's templates get (issue 20 item 3). Values are made in Swift in the page's language; templates
/// only place them. Stored properties only: templates read values through reflection, or — for the values of Home,
/// the screen opened most — through `MustacheParent`, each stored property by its name without a `Mirror`
/// (`ChallengeTemplateValueTests` checks they answer what the reflection would).

/// 003's empty state: an icon (a sprite name), "No data yet", a prompt and an optional action.
struct ChallengeEmpty: Sendable, MustacheParent {
    var icon: String
    var prompt: String
    var actionHref: String?
    var actionLabel: String?

    func child(named name: String) -> Any? {
        switch name {
        case "icon": icon
        case "prompt": prompt
        case "actionHref": actionHref
        case "actionLabel": actionLabel
        default: nil
        }
    }
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

extension ChallengeState: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "kind": kind
        case "icon": icon
        case "text": text
        case "detail": detail
        default: nil
        }
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

extension ChallengeScoreValue: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "score": score
        case "colour": colour
        case "word": word
        case "detail": detail
        default: nil
        }
    }
}

struct ChallengeStreakValue: Sendable, MustacheParent {
    var label: String
    var text: String
    var icon: String

    func child(named name: String) -> Any? {
        switch name {
        case "label": label
        case "text": text
        case "icon": icon
        default: nil
        }
    }
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
