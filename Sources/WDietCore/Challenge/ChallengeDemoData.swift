import Foundation

/// "Seed Demo Data" (003 Settings → Data): a deterministic 12-week challenge to look around the screens with —
/// the same rows for every user and every day, relative to the week it is made in. It starts 11 weeks before this
/// week's Monday (so today is in week 12 of 17), 92 → 82 kg, and fills every day before today: nutrition typed on
/// most days (about one day in ten skipped), a Push / Pull / Legs / Rest / Plyo-Abs / Push / Rest week with a
/// missed workout now and then, habits mostly ticked, a weigh-in every week (week 3's on the Tuesday: late). Today
/// is left open, so Home has something to do. A weekly photo every week up to this one (week 5's on the Wednesday:
/// late): the server draws each as a pictogram and stores it in the media store under an id derived from the user
/// and the week (`photoMediaId`), then adds the photo rows (`photo(…)`) for the items it has — never a picture of a
/// person.
///
/// Its id is derived from the user's (`ChallengeDemoData.challengeId(userId:)`), so the demo is recognisable
/// (Settings offers "Remove Demo Data", which deletes that challenge and only that one) and seeding twice writes the
/// same rows.
public enum ChallengeDemoData {
    public static let weeks = 17
    public static let startKg = 92.0
    public static let goalKg = 82.0

    public static func challengeId(userId: UUID) -> UUID { ChallengeIds.v5(userId, "challenge/demo") }

    public struct Rows: Sendable {
        public var challenge: Challenge
        public var nutrition: [ChallengeNutritionLog]
        public var workouts: [ChallengeWorkoutLog]
        public var habits: [ChallengeHabitsLog]
        public var weighIns: [ChallengeWeighIn]

        public var all: [any ChallengeRowValue] { [challenge] + nutrition + workouts + habits + weighIns }
    }

    /// The media id of the demo's photo of `week`: the same for the user every time, so seeding again finds it.
    public static func photoMediaId(userId: UUID, week: Int) -> UUID { ChallengeIds.v5(userId, "challenge/demo/photo/\(week)") }

    /// The weeks with a demo photo and the day each was taken: every week whose photo day is before today, on its
    /// Monday except week 5's, taken on the Wednesday (late, so Progress shows "Late Upload").
    public static func photoDays(today: LocalDate) -> [(week: Int, takenOn: LocalDate)] {
        let start = startDate(today: today)
        var days: [(week: Int, takenOn: LocalDate)] = []
        for week in 1...weeks {
            let takenOn = start.adding(days: 7 * (week - 1) + (week == 5 ? 2 : 0))
            guard takenOn < today else { break }
            days.append((week, takenOn))
        }
        return days
    }

    /// The photo row of `week`, naming the item `photoMediaId` (the server adds it only once that item is stored).
    public static func photo(userId: UUID, week: Int, takenOn: LocalDate, now: Date) -> ChallengePhoto {
        ChallengePhoto(challengeId: challengeId(userId: userId), week: week, mediaId: photoMediaId(userId: userId, week: week),
                       takenOn: takenOn, createdAt: now)
    }

    /// The demo's first day: 11 weeks before the Monday of `today`'s week.
    public static func startDate(today: LocalDate) -> LocalDate { Challenge.monday(onOrBefore: today).adding(days: -77) }

    public static func rows(userId: UUID, today: LocalDate, now: Date, unit: WeightUnit = .kg) -> Rows {
        let id = challengeId(userId: userId)
        let start = startDate(today: today)
        let challenge = Challenge(id: id, startDate: start, weeks: weeks, startWeightKg: startKg, goalWeightKg: goalKg, weightUnit: unit, createdAt: now)
        var random = SeededRandom(seed: 20_030_017)
        var rows = Rows(challenge: challenge, nutrition: [], workouts: [], habits: [], weighIns: [])
        let plan: [ChallengeWorkoutType] = [.push, .pull, .legs, .rest, .plyoAbs, .push, .rest]
        let days = start.days(until: today)
        for index in 0..<days {
            let date = start.adding(days: index)
            if random.next(below: 10) == 0 {
                rows.nutrition.append(ChallengeNutritionLog(challengeId: id, date: date, status: .skipped, createdAt: now))
            } else {
                rows.nutrition.append(ChallengeNutritionLog(
                    challengeId: id, date: date, kcal: Double(1_700 + 10 * random.next(below: 41)), protein: Double(130 + random.next(below: 31)),
                    carbs: Double(150 + random.next(below: 61)), fat: Double(50 + random.next(below: 21)), createdAt: now))
            }
            let type = plan[date.weekdayIndex]
            if type == .rest || random.next(below: 6) != 0 {
                let template = ChallengeWorkoutTemplate.defaults.first { $0.type == type }
                rows.workouts.append(ChallengeWorkoutLog(challengeId: id, date: date, type: type, minutes: type == .rest ? nil : template?.minutes,
                                                         createdAt: now))
            }
            rows.habits.append(ChallengeHabitsLog(challengeId: id, date: date, water: random.next(below: 10) < 9, steps: random.next(below: 10) < 8,
                                                  sleep: random.next(below: 10) < 7, createdAt: now))
        }
        for week in 1...weeks {
            let monday = challenge.monday(ofWeek: week)
            let loggedOn = week == 3 ? monday.adding(days: 1) : monday
            guard loggedOn < today else { break }
            let noise = Double(random.next(below: 7) - 3) / 10
            let kg = ((startKg - 0.6 * Double(week - 1) + noise) * 10).rounded() / 10
            rows.weighIns.append(ChallengeWeighIn(challengeId: id, week: week, kg: week == 1 ? startKg : kg, loggedOn: loggedOn,
                                                  waistCm: week % 4 == 1 ? 98 - Double(week - 1) * 0.5 : nil, createdAt: now))
        }
        return rows
    }
}
