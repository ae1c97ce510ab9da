import Foundation

/// What a day's nutrition log says (003 "Mark as Skipped"): logged (typed totals, or the day's logged meals) or
/// skipped. Skipped is an honest answer shown in gray, never red; it does not count as done.
public enum ChallengeNutritionStatus: String, Codable, CaseIterable, Hashable, Sendable {
    case logged, skipped
}

/// Where a logged day's totals come from: typed as the day's totals, or w-diet's meal log of that day
/// (PRODUCT.md "the day's logged meals"), read when the day is shown, so meals logged later still count.
public enum ChallengeNutritionSource: String, Codable, CaseIterable, Hashable, Sendable {
    case typed, meals
}

/// A day's nutrition (collection `challenge_nutrition`, one row per day: its id is
/// `ChallengeIds.nutrition(challengeId:date:)`).
public struct ChallengeNutritionLog: Hashable, Codable, Sendable, Identifiable {
    public static let collection = "challenge_nutrition"
    public static let kcalRange = 0.0...20_000.0
    public static let gramsRange = 0.0...2_000.0

    public var id: UUID
    public var challengeId: UUID
    public var date: LocalDate
    public var status: ChallengeNutritionStatus
    public var source: ChallengeNutritionSource
    public var kcal: Double?
    public var protein: Double?
    public var carbs: Double?
    public var fat: Double?
    public var notes: String?
    public var createdAt: Date
    public var updatedAt: Date?

    public init(
        challengeId: UUID, date: LocalDate, status: ChallengeNutritionStatus = .logged, source: ChallengeNutritionSource = .typed,
        kcal: Double? = nil, protein: Double? = nil, carbs: Double? = nil, fat: Double? = nil, notes: String? = nil,
        createdAt: Date, updatedAt: Date? = nil
    ) {
        self.id = ChallengeIds.nutrition(challengeId: challengeId, date: date)
        self.challengeId = challengeId
        self.date = date
        self.status = status
        self.source = source
        self.kcal = kcal
        self.protein = protein
        self.carbs = carbs
        self.fat = fat
        self.notes = notes
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Typed totals need calories (0–20,000 kcal) and macros of 0–2,000 g; a skipped day or one read from the meal
    /// log carries no numbers; notes up to 500 characters; the id is the day's derived id.
    public func validate() throws(ChallengeInvalid) {
        var errors: [String: String] = [:]
        ChallengeRowRules.checkId(id, ChallengeIds.nutrition(challengeId: challengeId, date: date), &errors)
        ChallengeRowRules.checkDate(date, member: "date", &errors)
        let numbers: [(String, Double?)] = [("kcal", kcal), ("protein", protein), ("carbs", carbs), ("fat", fat)]
        if status == .logged && source == .typed {
            if let kcal {
                if !Self.kcalRange.contains(kcal) || !kcal.isFinite {
                    errors["kcal"] = Strings.current("challenge.kcalRange", ["max": Strings.current.number(20_000)])
                }
            } else {
                errors["kcal"] = Strings.current("challenge.kcalRequired")
            }
            for (member, value) in numbers.dropFirst() {
                if let value, !Self.gramsRange.contains(value) || !value.isFinite {
                    errors[member] = Strings.current("challenge.gramsRange", ["max": Strings.current.number(2_000)])
                }
            }
        } else {
            for (member, value) in numbers where value != nil { errors[member] = Strings.current("challenge.noNumbers") }
        }
        ChallengeRowRules.checkNotes(notes, &errors)
        ChallengeRowRules.checkEdit(createdAt, updatedAt, &errors)
        guard errors.isEmpty else { throw ChallengeInvalid(errors: errors) }
    }
}

/// 003's workout types (segmented control: Push / Pull / Legs / Plyo-Abs / Rest). A planned Rest day counts as a
/// workout day in the score.
public enum ChallengeWorkoutType: String, Codable, CaseIterable, Hashable, Sendable {
    case push, pull, legs, plyoAbs, rest

    public var label: String {
        switch self {
        case .push: Strings.current("challenge.workoutPush")
        case .pull: Strings.current("challenge.workoutPull")
        case .legs: Strings.current("challenge.workoutLegs")
        case .plyoAbs: Strings.current("challenge.workoutPlyoAbs")
        case .rest: Strings.current("challenge.workoutRest")
        }
    }
}

/// A day's workout (collection `challenge_workout`, one per day: `ChallengeIds.workout(challengeId:date:)`).
public struct ChallengeWorkoutLog: Hashable, Codable, Sendable, Identifiable {
    public static let collection = "challenge_workout"
    public static let minutesRange = 1...600

    public var id: UUID
    public var challengeId: UUID
    public var date: LocalDate
    public var type: ChallengeWorkoutType
    public var minutes: Int?
    public var notes: String?
    public var createdAt: Date
    public var updatedAt: Date?

    public init(challengeId: UUID, date: LocalDate, type: ChallengeWorkoutType, minutes: Int? = nil, notes: String? = nil,
                createdAt: Date, updatedAt: Date? = nil) {
        self.id = ChallengeIds.workout(challengeId: challengeId, date: date)
        self.challengeId = challengeId
        self.date = date
        self.type = type
        self.minutes = minutes
        self.notes = notes
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public func validate() throws(ChallengeInvalid) {
        var errors: [String: String] = [:]
        ChallengeRowRules.checkId(id, ChallengeIds.workout(challengeId: challengeId, date: date), &errors)
        ChallengeRowRules.checkDate(date, member: "date", &errors)
        if let minutes, !Self.minutesRange.contains(minutes) {
            errors["minutes"] = Strings.current("challenge.minutesRange", ["max": String(Self.minutesRange.upperBound)])
        }
        ChallengeRowRules.checkNotes(notes, &errors)
        ChallengeRowRules.checkEdit(createdAt, updatedAt, &errors)
        guard errors.isEmpty else { throw ChallengeInvalid(errors: errors) }
    }
}

/// A day's habits (collection `challenge_habits`, one per day): water, steps and sleep ticked or not.
public struct ChallengeHabitsLog: Hashable, Codable, Sendable, Identifiable {
    public static let collection = "challenge_habits"

    public var id: UUID
    public var challengeId: UUID
    public var date: LocalDate
    public var water: Bool
    public var steps: Bool
    public var sleep: Bool
    public var createdAt: Date
    public var updatedAt: Date?

    public init(challengeId: UUID, date: LocalDate, water: Bool = false, steps: Bool = false, sleep: Bool = false,
                createdAt: Date, updatedAt: Date? = nil) {
        self.id = ChallengeIds.habits(challengeId: challengeId, date: date)
        self.challengeId = challengeId
        self.date = date
        self.water = water
        self.steps = steps
        self.sleep = sleep
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// How many of the three habits are ticked.
    public var ticked: Int { [water, steps, sleep].filter { $0 }.count }

    public func validate() throws(ChallengeInvalid) {
        var errors: [String: String] = [:]
        ChallengeRowRules.checkId(id, ChallengeIds.habits(challengeId: challengeId, date: date), &errors)
        ChallengeRowRules.checkDate(date, member: "date", &errors)
        ChallengeRowRules.checkEdit(createdAt, updatedAt, &errors)
        guard errors.isEmpty else { throw ChallengeInvalid(errors: errors) }
    }
}

/// A week's progress photo (collection `challenge_photo`, one per week: `ChallengeIds.photo(challengeId:week:)`).
/// The picture is in the media store (`mediaId`); `takenOn` is the local day it was added: after the week's Monday
/// it is late (003 "Late Upload", orange), and it still counts.
public struct ChallengePhoto: Hashable, Codable, Sendable, Identifiable {
    public static let collection = "challenge_photo"

    public var id: UUID
    public var challengeId: UUID
    public var week: Int
    public var mediaId: UUID
    public var takenOn: LocalDate
    public var createdAt: Date
    public var updatedAt: Date?

    public init(challengeId: UUID, week: Int, mediaId: UUID, takenOn: LocalDate, createdAt: Date, updatedAt: Date? = nil) {
        self.id = ChallengeIds.photo(challengeId: challengeId, week: week)
        self.challengeId = challengeId
        self.week = week
        self.mediaId = mediaId
        self.takenOn = takenOn
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Late when added after the week's Monday.
    public func isLate(in challenge: Challenge) -> Bool { takenOn > challenge.monday(ofWeek: week) }

    public func validate() throws(ChallengeInvalid) {
        var errors: [String: String] = [:]
        ChallengeRowRules.checkId(id, ChallengeIds.photo(challengeId: challengeId, week: week), &errors)
        ChallengeRowRules.checkWeek(week, &errors)
        ChallengeRowRules.checkDate(takenOn, member: "takenOn", &errors)
        ChallengeRowRules.checkEdit(createdAt, updatedAt, &errors)
        guard errors.isEmpty else { throw ChallengeInvalid(errors: errors) }
    }
}

/// A week's weigh-in (collection `challenge_weighin`, one per week): the weight, optional waist, hips and chest
/// (cm, stored metric), notes, and the day it was logged (after the week's Monday: late, orange; it counts).
public struct ChallengeWeighIn: Hashable, Codable, Sendable, Identifiable {
    public static let collection = "challenge_weighin"
    public static let measurementRange = 20.0...300.0

    public var id: UUID
    public var challengeId: UUID
    public var week: Int
    public var kg: Double
    public var loggedOn: LocalDate
    public var waistCm: Double?
    public var hipsCm: Double?
    public var chestCm: Double?
    public var notes: String?
    public var createdAt: Date
    public var updatedAt: Date?

    public init(challengeId: UUID, week: Int, kg: Double, loggedOn: LocalDate, waistCm: Double? = nil, hipsCm: Double? = nil,
                chestCm: Double? = nil, notes: String? = nil, createdAt: Date, updatedAt: Date? = nil) {
        self.id = ChallengeIds.weighIn(challengeId: challengeId, week: week)
        self.challengeId = challengeId
        self.week = week
        self.kg = kg
        self.loggedOn = loggedOn
        self.waistCm = waistCm
        self.hipsCm = hipsCm
        self.chestCm = chestCm
        self.notes = notes
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public func isLate(in challenge: Challenge) -> Bool { loggedOn > challenge.monday(ofWeek: week) }

    public func validate() throws(ChallengeInvalid) {
        var errors: [String: String] = [:]
        ChallengeRowRules.checkId(id, ChallengeIds.weighIn(challengeId: challengeId, week: week), &errors)
        ChallengeRowRules.checkWeek(week, &errors)
        ChallengeRowRules.checkDate(loggedOn, member: "loggedOn", &errors)
        if !Challenge.weightRange.contains(kg) || !kg.isFinite { errors["kg"] = ChallengeInvalid.weightMessage }
        for (member, value) in [("waistCm", waistCm), ("hipsCm", hipsCm), ("chestCm", chestCm)] {
            if let value, !Self.measurementRange.contains(value) || !value.isFinite {
                errors[member] = Strings.current("challenge.measurementRange", ["min": "20", "max": "300"])
            }
        }
        ChallengeRowRules.checkNotes(notes, &errors)
        ChallengeRowRules.checkEdit(createdAt, updatedAt, &errors)
        guard errors.isEmpty else { throw ChallengeInvalid(errors: errors) }
    }
}

/// The rules every challenge row shares.
enum ChallengeRowRules {
    static let maxNotesLength = 500

    static func checkId(_ id: UUID, _ derived: UUID, _ errors: inout [String: String]) {
        if id != derived { errors["id"] = Strings.current("challenge.idNotDerived") }
    }

    static func checkDate(_ date: LocalDate, member: String, _ errors: inout [String: String]) {
        if date < ChallengeInvalid.earliestDate || date > ChallengeInvalid.latestDate {
            errors[member] = Strings.current("challenge.dateRange")
        }
    }

    static func checkWeek(_ week: Int, _ errors: inout [String: String]) {
        if !Challenge.weeksRange.contains(week) {
            errors["week"] = Strings.current("challenge.weekRange", ["max": String(Challenge.weeksRange.upperBound)])
        }
    }

    static func checkNotes(_ notes: String?, _ errors: inout [String: String]) {
        if let notes, notes.count > maxNotesLength {
            errors["notes"] = Strings.current("challenge.notesLength", ["max": String(maxNotesLength)])
        }
    }

    static func checkEdit(_ createdAt: Date, _ updatedAt: Date?, _ errors: inout [String: String]) {
        if let updatedAt, updatedAt < createdAt { errors["updatedAt"] = Strings.current("challenge.editedBeforeCreated") }
    }
}
