import Foundation

/// The 17-week Challenge of seed 003 (docs/challenge.md): a programme that starts on a Monday, with a goal weight
/// and the units it is shown in. A generic sync row of the collection `challenge`; its id is random
/// (`TimeOrderedUUID`) and is the namespace of the ids of its daily logs and weekly check-ins (`ChallengeIds`).
public struct Challenge: Hashable, Codable, Sendable, Identifiable {
    public static let collection = "challenge"
    /// 003: "17-Week Weight Loss Challenge".
    public static let defaultWeeks = 17
    public static let weeksRange = 1...52
    /// The weights w-diet accepts anywhere (PRODUCT.md: valid 20–500 kg).
    public static let weightRange = 20.0...500.0

    public var id: UUID
    /// The first day, a Monday (003: weeks run Monday to Sunday; the photo and the weigh-in are due on Mondays).
    public var startDate: LocalDate
    public var weeks: Int
    /// The weight the goal pace starts from; nil until known (then the first weigh-in is the start).
    public var startWeightKg: Double?
    public var goalWeightKg: Double
    /// How weights are shown (stored metric, PRODUCT.md "units").
    public var weightUnit: WeightUnit
    public var createdAt: Date
    public var updatedAt: Date?

    public init(
        id: UUID = TimeOrderedUUID.make(), startDate: LocalDate, weeks: Int = Challenge.defaultWeeks, startWeightKg: Double? = nil,
        goalWeightKg: Double, weightUnit: WeightUnit = .kg, createdAt: Date, updatedAt: Date? = nil
    ) {
        self.id = id
        self.startDate = startDate
        self.weeks = weeks
        self.startWeightKg = startWeightKg
        self.goalWeightKg = goalWeightKg
        self.weightUnit = weightUnit
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The day after the last week (exclusive end).
    public var endDate: LocalDate { startDate.adding(days: weeks * 7) }
    public var lastDate: LocalDate { endDate.adding(days: -1) }
    public var dayCount: Int { weeks * 7 }

    public func contains(_ date: LocalDate) -> Bool { date >= startDate && date < endDate }

    /// The challenge week (1…`weeks`) a day falls in; nil outside the challenge.
    public func week(of date: LocalDate) -> Int? {
        guard contains(date) else { return nil }
        return startDate.days(until: date) / 7 + 1
    }

    /// The Monday a week begins (week 1 is `startDate`).
    public func monday(ofWeek week: Int) -> LocalDate { startDate.adding(days: (week - 1) * 7) }

    /// The seven days of a week, Monday first.
    public func days(ofWeek week: Int) -> [LocalDate] { (0..<7).map { monday(ofWeek: week).adding(days: $0) } }

    /// The week `today` is in, held to 1…`weeks` (before the start: 1; after the end: the last).
    public func currentWeek(today: LocalDate) -> Int {
        min(max(startDate.days(until: today) / 7 + 1, 1), weeks)
    }

    /// The week a check-in for `today` belongs to by default: the current week.
    public func validate() throws(ChallengeInvalid) {
        var errors: [String: String] = [:]
        if startDate.weekdayIndex != 0 { errors["startDate"] = Strings.current("challenge.startMonday") }
        if !Self.weeksRange.contains(weeks) {
            errors["weeks"] = Strings.current("challenge.weeksRange", ["min": "1", "max": String(Self.weeksRange.upperBound)])
        }
        if !Self.weightRange.contains(goalWeightKg) { errors["goalWeightKg"] = ChallengeInvalid.weightMessage }
        if let start = startWeightKg, !Self.weightRange.contains(start) { errors["startWeightKg"] = ChallengeInvalid.weightMessage }
        if startDate < ChallengeInvalid.earliestDate || startDate > ChallengeInvalid.latestDate {
            errors["startDate"] = Strings.current("challenge.dateRange")
        }
        if let updatedAt, updatedAt < createdAt { errors["updatedAt"] = Strings.current("challenge.editedBeforeCreated") }
        guard errors.isEmpty else { throw ChallengeInvalid(errors: errors) }
    }

    /// The Monday on or after `date` (a new challenge is offered from the next Monday, or today when it is one).
    public static func nextMonday(onOrAfter date: LocalDate) -> LocalDate {
        date.adding(days: (7 - date.weekdayIndex) % 7)
    }

    /// The Monday on or before `date`.
    public static func monday(onOrBefore date: LocalDate) -> LocalDate { date.adding(days: -date.weekdayIndex) }
}

extension LocalDate {
    /// 1 for Monday … 7 for Sunday (ISO 8601).
    public var isoWeekday: Int { weekdayIndex + 1 }
}

/// Field → message (JSON member names, `challenge.json`'s messages) of a challenge row that breaks its rules.
public struct ChallengeInvalid: Error, Hashable, Sendable {
    public var errors: [String: String]

    public init(errors: [String: String]) { self.errors = errors }

    static let earliestDate = LocalDate(year: 2000, month: 1, day: 1)!
    static let latestDate = LocalDate(year: 2099, month: 12, day: 31)!

    static var weightMessage: String {
        Strings.current("challenge.weightRange", ["min": "20", "max": "500"])
    }

    /// The first message, `member: message`, for places that show one line (a sync push's refusal).
    public var firstMessage: String {
        errors.sorted { $0.key < $1.key }.first.map { "\($0.key): \($0.value)" } ?? ""
    }
}

/// What every row of the Challenge's collections is: a typed value with its collection, id, challenge and rules.
/// (The challenge itself is its own challenge.)
public protocol ChallengeRowValue: Codable, Hashable, Sendable {
    static var collection: String { get }
    var id: UUID { get }
    var challengeId: UUID { get }
    func validate() throws(ChallengeInvalid)
}

extension Challenge: ChallengeRowValue {
    public var challengeId: UUID { id }
}
extension ChallengeNutritionLog: ChallengeRowValue {}
extension ChallengeWorkoutLog: ChallengeRowValue {}
extension ChallengeHabitsLog: ChallengeRowValue {}
extension ChallengePhoto: ChallengeRowValue {}
extension ChallengeWeighIn: ChallengeRowValue {}
extension ChallengeSettings: ChallengeRowValue {}

public enum ChallengeCollections {
    /// Every collection of the Challenge, the challenge first.
    public static let all: [any ChallengeRowValue.Type] = [
        Challenge.self, ChallengeNutritionLog.self, ChallengeWorkoutLog.self, ChallengeHabitsLog.self,
        ChallengePhoto.self, ChallengeWeighIn.self, ChallengeSettings.self,
    ]

    public static func type(of collection: String) -> (any ChallengeRowValue.Type)? {
        all.first { $0.collection == collection }
    }
}

extension Challenge {
    /// A daily log's day must lie within the challenge and not after `today` + 1 (a device a time zone ahead).
    public func checkDay(_ date: LocalDate, today: LocalDate) throws(ChallengeInvalid) {
        guard contains(date) else {
            throw ChallengeInvalid(errors: ["date": Strings.current(
                "challenge.outsideChallenge", ["first": Strings.current.date(startDate), "last": Strings.current.date(lastDate)])])
        }
        guard date <= today.adding(days: 1) else { throw ChallengeInvalid(errors: ["date": Strings.current("challenge.dayAhead")]) }
    }

    /// A week's check-in: a week of the challenge that has begun by `today` + 1.
    public func checkWeek(_ week: Int, today: LocalDate) throws(ChallengeInvalid) {
        guard (1...weeks).contains(week) else {
            throw ChallengeInvalid(errors: ["week": Strings.current("challenge.weekRange", ["max": String(weeks)])])
        }
        guard monday(ofWeek: week) <= today.adding(days: 1) else {
            throw ChallengeInvalid(errors: ["week": Strings.current("challenge.weekAhead")])
        }
    }
}
