import Foundation
import WDietCore

/// A 17-week challenge from Monday 30 November 2026, 90 → 80 kg, and helpers that fill its days.
enum ChallengeTestData {
    static let id = UUID(uuidString: "0190A0B1-0000-7000-8000-000000000001")!
    static let start = LocalDate(year: 2026, month: 11, day: 30)!
    static let now = Date(timeIntervalSince1970: 1_796_000_000)

    static func challenge(startKg: Double? = 90, goalKg: Double = 80, unit: WeightUnit = .kg) -> Challenge {
        Challenge(id: id, startDate: start, startWeightKg: startKg, goalWeightKg: goalKg, weightUnit: unit, createdAt: now)
    }

    static func day(_ index: Int) -> LocalDate { start.adding(days: index) }

    static func nutrition(_ index: Int, kcal: Double = 2_000, protein: Double? = 150, carbs: Double? = 200, fat: Double? = 60,
                          status: ChallengeNutritionStatus = .logged, source: ChallengeNutritionSource = .typed) -> ChallengeNutritionLog {
        let typed = status == .logged && source == .typed
        return ChallengeNutritionLog(
            challengeId: id, date: day(index), status: status, source: source, kcal: typed ? kcal : nil,
            protein: typed ? protein : nil, carbs: typed ? carbs : nil, fat: typed ? fat : nil, createdAt: now)
    }

    static func workout(_ index: Int, _ type: ChallengeWorkoutType = .push, minutes: Int? = 45) -> ChallengeWorkoutLog {
        ChallengeWorkoutLog(challengeId: id, date: day(index), type: type, minutes: minutes, createdAt: now)
    }

    static func habits(_ index: Int, ticks: Int) -> ChallengeHabitsLog {
        ChallengeHabitsLog(challengeId: id, date: day(index), water: ticks >= 1, steps: ticks >= 2, sleep: ticks >= 3, createdAt: now)
    }

    static func photo(week: Int, takenOn: LocalDate? = nil) -> ChallengePhoto {
        ChallengePhoto(challengeId: id, week: week, mediaId: UUID(), takenOn: takenOn ?? day((week - 1) * 7), createdAt: now)
    }

    static func weighIn(week: Int, kg: Double, loggedOn: LocalDate? = nil, waist: Double? = nil) -> ChallengeWeighIn {
        ChallengeWeighIn(challengeId: id, week: week, kg: kg, loggedOn: loggedOn ?? day((week - 1) * 7), waistCm: waist, createdAt: now)
    }

    /// Marks from a pattern, one character per day from the start: "X" done, anything else not.
    static func indices(_ pattern: String) -> [Int] {
        pattern.enumerated().filter { $0.element == "X" }.map(\.offset)
    }
}
