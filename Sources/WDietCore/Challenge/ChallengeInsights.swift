import Foundation

/// A positive, true statement about the challenge with its numbers (003 Insights: "You've logged nutrition 42/50
/// days"). `values` are the numbers the sentence says (weights in kg, measurements in cm), so a screen or a test
/// reads them without parsing text.
public struct ChallengeInsight: Hashable, Codable, Sendable {
    public enum Kind: String, Codable, CaseIterable, Hashable, Sendable {
        case nutritionDays, workouts, streak, towardGoal, aheadOfPace, onPace, photos, weighInsOnTime, bestWeek, improvement, waist
    }

    public var kind: Kind
    public var values: [String: Double]
    public var text: String
}

/// The Insights tab: only good things that are true, each with its numbers; nothing at all when there is nothing
/// good and true to say (a person 12 weeks into a hard programme is told what went right, never what did not).
/// The bars, in order:
/// - nutrition logged on at least half of the elapsed days (and on at least 3);
/// - at least 3 workouts done (a Rest day is not a workout);
/// - a current streak of at least 3 days, per kind (nutrition, workout, habits);
/// - at least 0.1 kg moved towards the goal from the start weight;
/// - at least 0.1 kg ahead of the goal pace, or within 0.1 kg of it ("right on");
/// - at least 2 weekly photos;
/// - at least 2 weigh-ins, all on their Monday;
/// - a finished week scoring ≥ 80 (the best one; the latest of equals);
/// - the latest finished week scoring more than the one before;
/// - a waist at least 0.5 cm smaller than at the first weigh-in that measured it.
public enum ChallengeInsights {
    public static func of(_ data: ChallengeData, today: LocalDate, matador: MatadorCycle?) -> [ChallengeInsight] {
        let strings = Strings.current
        let challenge = data.challenge
        guard today >= challenge.startDate else { return [] }
        let unit = challenge.weightUnit
        var insights: [ChallengeInsight] = []
        func add(_ kind: ChallengeInsight.Kind, _ values: [String: Double], _ text: String) {
            insights.append(ChallengeInsight(kind: kind, values: values, text: text))
        }
        func weight(_ kg: Double) -> String {
            unit == .kg ? strings.number(kg, fractionDigits: 1) + " kg" : strings.number(kg / Units.kilogramsPerPound, fractionDigits: 1) + " lb"
        }

        let elapsed = data.elapsedDays(today: today)
        let days = (0..<elapsed).map { challenge.startDate.adding(days: $0) }
        let nutritionDays = days.filter(data.nutritionDone).count
        if nutritionDays >= 3 && nutritionDays * 2 >= elapsed {
            add(.nutritionDays, ["done": Double(nutritionDays), "days": Double(elapsed)],
                strings("challenge.insightNutritionDays", ["done": strings.number(nutritionDays), "days": strings.number(elapsed)]))
        }
        let workouts = data.workouts.values.filter { $0.type != .rest && challenge.contains($0.date) && $0.date <= today }
        if workouts.count >= 3 {
            let minutes = workouts.compactMap(\.minutes).reduce(0, +)
            add(.workouts, ["count": Double(workouts.count), "minutes": Double(minutes)],
                strings("challenge.insightWorkouts", count: workouts.count, ["count": strings.number(workouts.count)]))
        }
        for streak in data.streaks(today: today) where streak.current >= 3 {
            let count = ["count": strings.number(streak.current)]
            let text = switch streak.kind {
            case .nutrition: strings("challenge.insightStreakNutrition", count)
            case .workout: strings("challenge.insightStreakWorkout", count)
            case .habits: strings("challenge.insightStreakHabits", count)
            }
            add(.streak, ["current": Double(streak.current)], text)
        }
        if let start = data.startKg, let latest = data.latestWeight(today: today) {
            let towards = challenge.goalWeightKg < start ? start - latest.kg : latest.kg - start
            if towards >= 0.1 - 1e-9 {
                add(.towardGoal, ["kg": towards], strings("challenge.insightTowardGoal", ["amount": weight(towards)]))
            }
            if let pace = data.pace(today: today, matador: matador) {
                if pace.aheadKg >= 0.1 - 1e-9 {
                    add(.aheadOfPace, ["kg": pace.aheadKg], strings("challenge.insightAheadOfPace", ["amount": weight(pace.aheadKg)]))
                } else if abs(pace.aheadKg) < 0.1 {
                    add(.onPace, ["kg": pace.aheadKg], strings("challenge.insightOnPace"))
                }
            }
        }
        let photos = data.photos.values.filter { $0.week <= challenge.currentWeek(today: today) }
        if photos.count >= 2 {
            add(.photos, ["count": Double(photos.count)], strings("challenge.insightPhotos", ["count": strings.number(photos.count)]))
        }
        let weighIns = data.weighIns.values.filter { $0.loggedOn <= today }
        if weighIns.count >= 2 && weighIns.allSatisfy({ !$0.isLate(in: challenge) }) {
            add(.weighInsOnTime, ["count": Double(weighIns.count)],
                strings("challenge.insightWeighInsOnTime", ["count": strings.number(weighIns.count)]))
        }
        let finished = data.scores(today: today).filter(\.isComplete)
        if let best = finished.max(by: { ($0.score, $0.week) < ($1.score, $1.week) }), best.score >= 80 {
            add(.bestWeek, ["week": Double(best.week), "score": Double(best.score)],
                strings("challenge.insightBestWeek", ["week": String(best.week), "score": String(best.score)]))
        }
        if finished.count >= 2 {
            let last = finished[finished.count - 1], previous = finished[finished.count - 2]
            if last.score > previous.score {
                add(.improvement, ["week": Double(last.week), "previous": Double(previous.week), "points": Double(last.score - previous.score)],
                    strings("challenge.insightImprovement", count: last.score - previous.score,
                            ["week": String(last.week), "previous": String(previous.week), "count": String(last.score - previous.score)]))
            }
        }
        let waists = data.weighIns.values.filter { $0.waistCm != nil && $0.loggedOn <= today }.sorted { $0.week < $1.week }
        if let first = waists.first, let latest = waists.last, first.week != latest.week {
            let smaller = first.waistCm! - latest.waistCm!
            if smaller >= 0.5 - 1e-9 {
                let amount = unit == .kg ? strings.number(smaller, fractionDigits: 1) + " cm"
                    : strings.number(smaller / Units.centimetresPerInch, fractionDigits: 1) + " in"
                add(.waist, ["cm": smaller, "week": Double(first.week)],
                    strings("challenge.insightWaist", ["amount": amount, "week": String(first.week)]))
            }
        }
        return insights
    }
}
