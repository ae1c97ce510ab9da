import ArgumentParser
import Foundation
import WDietClient
import WDietCore

/// `wdiet client challenge start|log|checkin|status`: the 17-week Challenge (issue 20) on this device through the
/// client library, offline first: every command writes locally and queues the change for `wdiet client sync`.
/// (The weekly photo needs the media store's upload, which is the web app's and the API's; not here.)
struct ClientChallengeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "challenge",
        abstract: "Run the 17-week Challenge on this device (works offline; `sync` sends it).",
        subcommands: [Start.self, Log.self, CheckIn.self, Status.self]
    )

    static func today(_ store: ClientStore, now: Date) throws -> LocalDate {
        LocalDate(now, in: try ClientJournalCommand.zone(store))
    }

    static func current(_ store: ClientStore) throws -> Challenge {
        guard let challenge = try store.currentChallenge() else {
            throw CommandFailure("no challenge on this device: start one with `wdiet client challenge start --goal-kg 80`")
        }
        return challenge
    }

    static func kilograms(kg: Double?, lb: Double?, option: String) throws -> Double? {
        if kg != nil && lb != nil { throw ValidationError("give \(option) in kg or in lb, not both") }
        return kg ?? lb.map { $0 * Units.kilogramsPerPound }
    }

    static func format(_ kg: Double, _ unit: WeightUnit) -> String { Units.format(kg: kg, in: unit) }

    struct Start: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Start a challenge: a Monday, a goal weight, 17 weeks.")

        @OptionGroup var options: ClientStoreOptions
        @Option(name: .customLong("goal-kg"), help: "Goal weight in kilograms.") var goalKg: Double?
        @Option(name: .customLong("goal-lb"), help: "Goal weight in pounds.") var goalLb: Double?
        @Option(name: .customLong("start-kg"), help: "Start weight in kilograms (default: the first weigh-in).") var startKg: Double?
        @Option(name: .customLong("start-lb"), help: "Start weight in pounds.") var startLb: Double?
        @Option(help: "The first day, a Monday as YYYY-MM-DD (default: the next Monday, or today when it is one).") var start: String?
        @Option(help: "How many weeks (1-52).") var weeks: Int = Challenge.defaultWeeks

        func run() throws {
            guard let goal = try ClientChallengeCommand.kilograms(kg: goalKg, lb: goalLb, option: "the goal") else {
                throw ValidationError("give the goal weight with --goal-kg or --goal-lb")
            }
            let startWeight = try ClientChallengeCommand.kilograms(kg: startKg, lb: startLb, option: "the start weight")
            let store = try options.open()
            let now = Date()
            let today = try ClientChallengeCommand.today(store, now: now)
            let unit: WeightUnit = goalLb != nil ? .lb : (try store.profile()?.weightUnit ?? .kg)
            var first = Challenge.nextMonday(onOrAfter: today)
            if let start {
                guard let day = LocalDate(iso: start) else { throw ValidationError("--start must be a date as YYYY-MM-DD, not '\(start)'") }
                first = day
            }
            let challenge = Challenge(startDate: first, weeks: weeks, startWeightKg: startWeight, goalWeightKg: goal, weightUnit: unit, createdAt: now)
            do { try challenge.validate() } catch { throw CommandFailure(error.firstMessage) }
            do { try store.saveChallenge(challenge) } catch let error as ClientError { throw CommandFailure("\(error)") }
            print("Challenge started: \(challenge.weeks) weeks from \(first.iso) to \(challenge.lastDate.iso), goal \(ClientChallengeCommand.format(goal, unit)). \(try ClientPending.line(store))")
        }
    }

    struct Log: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Log a day: nutrition (typed totals, the day's meals, or skipped), a workout, habits.",
            discussion: "A second log of the same day edits it. Example: log --kcal 1800 --protein 140 --workout push --minutes 45 --water --steps")

        @OptionGroup var options: ClientStoreOptions
        @Option(help: "The day, YYYY-MM-DD (default: today).") var date: String?
        @Option(help: "The day's calories.") var kcal: Double?
        @Option(help: "Protein in grams.") var protein: Double?
        @Option(help: "Carbs in grams.") var carbs: Double?
        @Option(help: "Fat in grams.") var fat: Double?
        @Flag(help: "Take the day's nutrition from the meals logged in w-diet.") var fromMeals = false
        @Flag(help: "Mark the day's nutrition as skipped.") var skip = false
        @Option(help: "push, pull, legs, plyoAbs or rest.") var workout: String?
        @Option(help: "The workout's minutes (default: the type's template).") var minutes: Int?
        @Option(help: "Notes for the day's nutrition.") var notes: String?
        @Flag(help: "Drank enough water.") var water = false
        @Flag(help: "Reached the day's steps.") var steps = false
        @Flag(help: "Slept enough.") var sleep = false

        func validate() throws {
            let typed = kcal != nil || protein != nil || carbs != nil || fat != nil
            if [typed, fromMeals, skip].filter({ $0 }).count > 1 { throw ValidationError("give typed totals, --from-meals or --skip, one of them") }
            if (protein != nil || carbs != nil || fat != nil) && kcal == nil { throw ValidationError("typed totals need --kcal") }
            if !typed && !fromMeals && !skip && workout == nil && !water && !steps && !sleep {
                throw ValidationError("nothing to log: give nutrition, --workout or a habit")
            }
        }

        func run() throws {
            let store = try options.open()
            let now = Date()
            let today = try ClientChallengeCommand.today(store, now: now)
            let day = try ClientJournalCommand.day(date, default: today)
            let challenge = try ClientChallengeCommand.current(store)
            var said: [String] = []
            do {
                if kcal != nil || fromMeals || skip {
                    let log = ChallengeNutritionLog(
                        challengeId: challenge.id, date: day, status: skip ? .skipped : .logged, source: fromMeals ? .meals : .typed,
                        kcal: kcal, protein: protein, carbs: carbs, fat: fat, notes: notes, createdAt: now)
                    try store.logChallengeNutrition(log, today: today)
                    said.append(skip ? "nutrition skipped" : fromMeals ? "nutrition from the day's meals" : "nutrition \(ClientFormat.number(kcal ?? 0)) kcal")
                }
                if let workout {
                    guard let type = ChallengeWorkoutType(rawValue: workout) else {
                        throw ValidationError("--workout must be one of \(ChallengeWorkoutType.allCases.map(\.rawValue).joined(separator: ", "))")
                    }
                    let template = try store.challengeSettings(challengeId: challenge.id, now: now).template(type)
                    let log = ChallengeWorkoutLog(challengeId: challenge.id, date: day, type: type, minutes: minutes ?? template.minutes,
                                                  notes: template.notes, createdAt: now)
                    try store.logChallengeWorkout(log, today: today)
                    said.append("workout \(type.rawValue)" + (log.minutes.map { " \($0) min" } ?? ""))
                }
                if water || steps || sleep {
                    let old = try store.challengeData(challengeId: challenge.id)?.habits[day]
                    let log = ChallengeHabitsLog(challengeId: challenge.id, date: day, water: water || old?.water == true,
                                                 steps: steps || old?.steps == true, sleep: sleep || old?.sleep == true, createdAt: old?.createdAt ?? now)
                    try store.logChallengeHabits(log, today: today)
                    said.append("habits \(log.ticked)/3")
                }
            } catch let error as ClientError {
                throw CommandFailure("\(error)")
            }
            print("Logged \(day.iso): \(said.joined(separator: ", ")). \(try ClientPending.line(store))")
        }
    }

    struct CheckIn: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "checkin",
            abstract: "The weekly weigh-in with optional measurements (one a week: a second one edits the first).")

        @OptionGroup var options: ClientStoreOptions
        @Option(help: "The week (default: this week).") var week: Int?
        @Option(help: "Weight in kilograms.") var kg: Double?
        @Option(help: "Weight in pounds.") var lb: Double?
        @Option(help: "Waist in cm.") var waist: Double?
        @Option(help: "Hips in cm.") var hips: Double?
        @Option(help: "Chest in cm.") var chest: Double?
        @Option(help: "Notes.") var notes: String?

        func run() throws {
            guard let kilograms = try ClientChallengeCommand.kilograms(kg: kg, lb: lb, option: "the weight") else {
                throw ValidationError("give the weight with --kg or --lb")
            }
            let store = try options.open()
            let now = Date()
            let today = try ClientChallengeCommand.today(store, now: now)
            let challenge = try ClientChallengeCommand.current(store)
            let week = week ?? challenge.currentWeek(today: today)
            let existing = try store.challengeWeighIn(challengeId: challenge.id, week: week)
            var weighIn = ChallengeWeighIn(challengeId: challenge.id, week: week, kg: kilograms, loggedOn: existing?.loggedOn ?? today,
                                           waistCm: waist ?? existing?.waistCm, hipsCm: hips ?? existing?.hipsCm, chestCm: chest ?? existing?.chestCm,
                                           notes: notes ?? existing?.notes, createdAt: existing?.createdAt ?? now)
            if existing != nil { weighIn.updatedAt = max(now, weighIn.createdAt) }
            do { try store.saveChallengeWeighIn(weighIn, today: today) } catch let error as ClientError { throw CommandFailure("\(error)") }
            let what = existing == nil ? "Weigh-in for week \(week)" : "Already logged this week: week \(week)'s weigh-in edited"
            let late = weighIn.isLate(in: challenge) ? " (late)" : ""
            print("\(what): \(ClientChallengeCommand.format(kilograms, challenge.weightUnit))\(late). \(try ClientPending.line(store))")
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The challenge today: the week, today's checklist, the week's score, streaks, pace.")

        @OptionGroup var options: ClientStoreOptions
        @Flag(help: "As JSON.") var json = false

        func run() throws {
            let store = try options.open()
            let now = Date()
            let today = try ClientChallengeCommand.today(store, now: now)
            let challenge = try ClientChallengeCommand.current(store)
            guard let data = try store.challengeData(challengeId: challenge.id) else { throw CommandFailure("the challenge's rows are missing") }
            let profile = try store.profile()
            let matador = profile.flatMap { $0.goal == .lose ? MatadorCycle(planStart: $0.planStartDate) : nil }
            let started = today >= challenge.startDate
            let week = challenge.currentWeek(today: today)
            let score = started ? data.score(week: week, today: today) : nil
            let streaks = data.streaks(today: today)
            let pace = data.pace(today: today, matador: matador)
            let nutrition: String = switch data.nutritionState(on: today) {
            case .done: "done"
            case .skipped: "skipped"
            default: "pending"
            }
            let workout = data.workoutDone(on: today) ? "done" : "pending"
            let habits = data.habitsTicked(on: today)
            if json {
                var object: [String: Any] = [
                    "challengeId": challenge.id.uuidString.lowercased(), "startDate": challenge.startDate.iso, "weeks": challenge.weeks,
                    "today": today.iso, "status": !started ? "upcoming" : today > challenge.lastDate ? "finished" : "running", "week": week,
                    "nutrition": nutrition, "workout": workout, "habits": habits, "goalWeightKg": challenge.goalWeightKg,
                    "streaks": Dictionary(uniqueKeysWithValues: streaks.map { ($0.kind.rawValue, $0.current) }),
                ]
                if let score { object["score"] = score.score; object["colour"] = score.colour.rawValue }
                if let pace { object["pace"] = ["currentKg": pace.currentKg, "expectedKg": (pace.expectedKg * 100).rounded() / 100, "aheadKg": (pace.aheadKg * 100).rounded() / 100] }
                let bytes = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
                print(String(decoding: bytes, as: UTF8.self))
                return
            }
            let unit = challenge.weightUnit
            if !started {
                print("Challenge starts \(challenge.startDate.iso) (\(challenge.weeks) weeks), goal \(ClientChallengeCommand.format(challenge.goalWeightKg, unit)).")
                return
            }
            print("Week \(week) of \(challenge.weeks) (\(challenge.startDate.iso) to \(challenge.lastDate.iso)), goal \(ClientChallengeCommand.format(challenge.goalWeightKg, unit))")
            print("Today \(today.iso): nutrition \(nutrition), workout \(workout), habits \(habits)/3")
            if let score { print("This week's score so far: \(score.score)/100 (\(score.colour.rawValue))") }
            print("Streaks: " + streaks.map { "\($0.kind.rawValue) \($0.current)" }.joined(separator: ", "))
            if let pace {
                let ahead = pace.aheadKg >= 0.05 ? "\(ClientFormat.number((pace.aheadKg * 10).rounded() / 10)) kg ahead of" : pace.aheadKg <= -0.05
                    ? "\(ClientFormat.number((-pace.aheadKg * 10).rounded() / 10)) kg behind" : "right on"
                print("Pace: \(ClientChallengeCommand.format(pace.currentKg, unit)) on \(pace.date.iso), goal pace \(ClientChallengeCommand.format(pace.expectedKg, unit)) (\(ahead) the pace)")
            }
            print(try ClientPending.line(store))
        }
    }
}
