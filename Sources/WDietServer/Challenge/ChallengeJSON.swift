import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// A JSON body the Challenge's API answers with, built as `SyncJSON` (keys written sorted, ids lowercase like every
/// id the API writes, instants as the wire format's).
struct ChallengeResponse: ResponseEncodable, Sendable {
    var json: SyncJSON

    func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
}

/// The members of the Challenge's API answers (docs/challenge.md): a row is its synced `data` plus `version`; the
/// summaries add what the rules work out (states, score, streaks, pace, insights).
enum ChallengeJSON {
    /// A stored row: its members as synced, ids lowercase, plus `version`.
    static func row<V: ChallengeRowValue>(_ stored: StoredChallengeRow<V>) throws -> SyncJSON {
        var members = try object(stored.value)
        members["version"] = .number(Double(stored.version))
        return .object(members)
    }

    static func object(_ value: some Encodable) throws -> [String: SyncJSON] {
        guard case .object(let members) = lowercasedIds(try SyncRules.rowData(value)) else { return [:] }
        return members
    }

    /// Ids as the API writes them (lowercase); other strings as they are.
    static func lowercasedIds(_ json: SyncJSON) -> SyncJSON {
        switch json {
        case .string(let text) where text.count == 36 && UUID(uuidString: text) != nil: .string(text.lowercased())
        case .array(let values): .array(values.map(lowercasedIds))
        case .object(let members): .object(members.mapValues(lowercasedIds))
        default: json
        }
    }

    static func number(_ value: Double?) -> SyncJSON { value.map { .number(($0 * 100).rounded() / 100) } ?? .null }
    static func int(_ value: Int) -> SyncJSON { .number(Double(value)) }

    static func photo(_ stored: StoredChallengeRow<ChallengePhoto>?, in challenge: Challenge) throws -> SyncJSON {
        guard let stored, !stored.isDeleted, case .object(var members) = try row(stored) else { return .null }
        members["late"] = .bool(stored.value.isLate(in: challenge))
        return .object(members)
    }

    static func weighIn(_ stored: StoredChallengeRow<ChallengeWeighIn>?, in challenge: Challenge) throws -> SyncJSON {
        guard let stored, !stored.isDeleted, case .object(var members) = try row(stored) else { return .null }
        members["late"] = .bool(stored.value.isLate(in: challenge))
        return .object(members)
    }

    static func score(_ score: ChallengeWeekScore) -> SyncJSON {
        .object([
            "week": int(score.week), "score": int(score.score), "colour": .string(score.colour.rawValue),
            "nutritionDays": int(score.nutritionDays), "workoutDays": int(score.workoutDays), "habitTicks": int(score.habitTicks),
            "hasPhoto": .bool(score.hasPhoto), "hasWeighIn": .bool(score.hasWeighIn), "daysElapsed": int(score.daysElapsed),
            "complete": .bool(score.isComplete),
        ])
    }

    static func streak(_ streak: ChallengeStreak) -> SyncJSON {
        .object(["kind": .string(streak.kind.rawValue), "current": int(streak.current), "longest": int(streak.longest)])
    }

    /// A day as the Log screen and Today's Checklist read it: each kind's state and its row (null when none).
    static func day(_ date: LocalDate, data: ChallengeData, stored: DayRows) throws -> SyncJSON {
        let state: String, fromMeals: Bool
        var totals: SyncJSON = .null
        switch data.nutritionState(on: date) {
        case .pending: (state, fromMeals) = ("pending", false)
        case .skipped: (state, fromMeals) = ("skipped", false)
        case let .done(kcal, protein, carbs, fat, meals):
            (state, fromMeals) = ("done", meals)
            totals = .object(["kcal": number(kcal), "protein": number(protein), "carbs": number(carbs), "fat": number(fat)])
        }
        return .object([
            "date": .string(date.iso),
            "week": data.challenge.week(of: date).map(int) ?? .null,
            "nutrition": .object([
                "state": .string(state), "fromMeals": .bool(fromMeals), "totals": totals,
                "log": try stored.nutrition.map(row) ?? .null,
                "mealTotals": data.mealTotals[date].map { .object(["kcal": number($0.kcal), "protein": number($0.protein),
                                                                   "carbs": number($0.carbs), "fat": number($0.fat),
                                                                   "meals": int($0.mealCount)]) } ?? .null,
            ]),
            "workout": .object([
                "state": .string(data.workoutDone(on: date) ? "done" : "pending"),
                "log": try stored.workout.map(row) ?? .null,
            ]),
            "habits": .object([
                "ticked": int(data.habitsTicked(on: date)),
                "log": try stored.habits.map(row) ?? .null,
            ]),
        ])
    }

    struct DayRows {
        var nutrition: StoredChallengeRow<ChallengeNutritionLog>?
        var workout: StoredChallengeRow<ChallengeWorkoutLog>?
        var habits: StoredChallengeRow<ChallengeHabitsLog>?
    }

    static func macroAverage(_ average: ChallengeMacroAverage) -> SyncJSON {
        .object(["week": int(average.week), "days": int(average.days), "kcal": number(average.kcal), "protein": number(average.protein),
                 "carbs": number(average.carbs), "fat": number(average.fat)])
    }

    static func pace(_ pace: ChallengePace?) -> SyncJSON {
        guard let pace else { return .null }
        return .object([
            "date": .string(pace.date.iso), "currentKg": number(pace.currentKg), "expectedKg": number(pace.expectedKg),
            "aheadKg": number(pace.aheadKg), "actualPerWeekKg": number(pace.actualPerWeekKg),
            "expectedPerWeekKg": number(pace.expectedPerWeekKg), "onPace": .bool(pace.onPace),
        ])
    }

    static func insight(_ insight: ChallengeInsight) -> SyncJSON {
        .object(["kind": .string(insight.kind.rawValue), "text": .string(insight.text),
                 "values": .object(insight.values.mapValues { number($0) })])
    }

    static func settings(_ settings: ChallengeSettings, version: Int64?) throws -> SyncJSON {
        var members = try object(settings)
        // Every reminder and template, the defaults where none was chosen, so a screen shows all five.
        members["reminders"] = try SyncRules.rowData(ChallengeReminderKind.allCases.map(settings.reminder))
        members["workoutTemplates"] = try SyncRules.rowData(ChallengeWorkoutType.allCases.map(settings.template))
        members["version"] = version.map { .number(Double($0)) } ?? .null
        return .object(members)
    }
}
