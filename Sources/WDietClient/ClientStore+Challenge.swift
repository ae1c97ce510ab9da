import Foundation
import GRDB
import WDietCore
import WDietStore

/// The Challenge on the device, offline first (issue 20, docs/challenge.md): its rows are generic rows of the
/// Challenge's collections, queued in the outbox and synced like every row (docs/sync.md), checked by the server's
/// rules (`validate()`, the day within the challenge) before they are queued. A day's and a week's rows have ids
/// derived from the challenge and the day or week (`ChallengeIds`), so two devices that each log the same day offline
/// write the same row and converge to one.
extension ClientStore {
    // MARK: The challenge

    /// Starts (or edits) a challenge.
    public func saveChallenge(_ challenge: Challenge) throws {
        try saveChallengeRow(challenge)
    }

    /// Starts a challenge on the Monday on or after `today`, with 003's default settings.
    @discardableResult
    public func startChallenge(goalWeightKg: Double, startWeightKg: Double?, weightUnit: WeightUnit, today: LocalDate, now: Date,
                               weeks: Int = Challenge.defaultWeeks) throws -> Challenge {
        let challenge = Challenge(startDate: Challenge.nextMonday(onOrAfter: today), weeks: weeks, startWeightKg: startWeightKg,
                                  goalWeightKg: goalWeightKg, weightUnit: weightUnit, createdAt: now)
        try saveChallengeRow(challenge)
        return challenge
    }

    /// The challenge now: of the live ones on the device, the one that started last (as the server chooses).
    public func currentChallenge() throws -> Challenge? {
        try liveRows(Challenge.self, collection: Challenge.collection).max {
            ($0.startDate, $0.createdAt, $0.id.uuidString) < ($1.startDate, $1.createdAt, $1.id.uuidString)
        }
    }

    public func challenge(id: UUID) throws -> Challenge? { try challengeRow(Challenge.self, id: id) }

    /// Deletes a challenge and every row of it on the device (each a queued delete).
    public func deleteChallenge(id: UUID) throws {
        for type in ChallengeCollections.all where type.collection != Challenge.collection {
            for rowId in try challengeRowIds(collection: type.collection, challengeId: id) {
                try deleteRow(collection: type.collection, id: rowId)
            }
        }
        try deleteRow(collection: Challenge.collection, id: id)
    }

    // MARK: A day

    /// Logs a day's nutrition: typed totals, "the day's logged meals" or skipped. A second log of the day edits it.
    public func logChallengeNutrition(_ log: ChallengeNutritionLog, today: LocalDate) throws {
        try checkDay(log.challengeId, log.date, today: today)
        try saveChallengeRow(log)
    }

    /// Logs a day's workout (or a planned Rest). `template` fills minutes and notes from the type's template.
    public func logChallengeWorkout(_ log: ChallengeWorkoutLog, today: LocalDate) throws {
        try checkDay(log.challengeId, log.date, today: today)
        try saveChallengeRow(log)
    }

    /// Ticks a day's habits.
    public func logChallengeHabits(_ log: ChallengeHabitsLog, today: LocalDate) throws {
        try checkDay(log.challengeId, log.date, today: today)
        try saveChallengeRow(log)
    }

    public func deleteChallengeNutrition(challengeId: UUID, date: LocalDate) throws {
        try deleteRow(collection: ChallengeNutritionLog.collection, id: ChallengeIds.nutrition(challengeId: challengeId, date: date))
    }

    public func deleteChallengeWorkout(challengeId: UUID, date: LocalDate) throws {
        try deleteRow(collection: ChallengeWorkoutLog.collection, id: ChallengeIds.workout(challengeId: challengeId, date: date))
    }

    // MARK: A week

    /// The week's photo (the picture uploaded to the media store first); after the week's Monday it is late.
    public func saveChallengePhoto(_ photo: ChallengePhoto, today: LocalDate) throws {
        try checkWeek(photo.challengeId, photo.week, today: today)
        try saveChallengeRow(photo)
    }

    /// The week's weigh-in with its measurements. A second one the same week edits the first ("Already logged this
    /// week": `challengeWeighIn(challengeId:week:)` tells the screen there is one).
    public func saveChallengeWeighIn(_ weighIn: ChallengeWeighIn, today: LocalDate) throws {
        try checkWeek(weighIn.challengeId, weighIn.week, today: today)
        try saveChallengeRow(weighIn)
    }

    public func challengeWeighIn(challengeId: UUID, week: Int) throws -> ChallengeWeighIn? {
        try challengeRow(ChallengeWeighIn.self, id: ChallengeIds.weighIn(challengeId: challengeId, week: week))
    }

    public func challengePhoto(challengeId: UUID, week: Int) throws -> ChallengePhoto? {
        try challengeRow(ChallengePhoto.self, id: ChallengeIds.photo(challengeId: challengeId, week: week))
    }

    // MARK: Settings

    public func saveChallengeSettings(_ settings: ChallengeSettings) throws { try saveChallengeRow(settings) }

    /// The challenge's settings, 003's defaults when none were saved.
    public func challengeSettings(challengeId: UUID, now: Date) throws -> ChallengeSettings {
        try challengeRow(ChallengeSettings.self, id: ChallengeIds.settings(challengeId: challengeId))
            ?? ChallengeSettings(challengeId: challengeId, updatedAt: now)
    }

    // MARK: Reads for the rules

    /// Everything of a challenge on the device for the rules (score, streaks, pace, insights), with the device's own
    /// meals (day totals) and weights (by local day in the profile's time zone, UTC without one).
    public func challengeData(challengeId: UUID) throws -> ChallengeData? {
        guard let challenge = try challenge(id: challengeId) else { return nil }
        func rows<V: ChallengeRowValue>(_ type: V.Type) throws -> [V] {
            try liveRows(V.self, collection: V.collection).filter { $0.challengeId == challengeId }
        }
        var mealTotals: [LocalDate: DailyTotals] = [:]
        var weights: [LocalDate: Double] = [:]
        try database.queue.read { db in
            let from = challenge.startDate.adding(days: -7).iso, through = challenge.endDate.iso
            var meals: [LocalDate: [Meal]] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT payload, localDate FROM records WHERE entity = 'meal' AND deleted = 0 AND localDate >= ? AND localDate < ?
                """, arguments: [from, through]) {
                guard let day = LocalDate(iso: row["localDate"]) else { continue }
                meals[day, default: []].append(try Self.decode(Meal.self, row["payload"]))
            }
            mealTotals = meals.mapValues { DailyTotals(meals: $0) }
            var latest: [LocalDate: WeightEntry] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT payload, localDate FROM records WHERE entity = 'weight' AND deleted = 0 AND localDate >= ? AND localDate < ?
                """, arguments: [from, through]) {
                guard let day = LocalDate(iso: row["localDate"]) else { continue }
                let entry = try Self.decode(WeightEntry.self, row["payload"])
                if latest[day].map({ $0.loggedAt < entry.loggedAt }) ?? true { latest[day] = entry }
            }
            weights = latest.mapValues(\.kg)
        }
        return ChallengeData(
            challenge: challenge, nutrition: try rows(ChallengeNutritionLog.self), workouts: try rows(ChallengeWorkoutLog.self),
            habits: try rows(ChallengeHabitsLog.self), photos: try rows(ChallengePhoto.self), weighIns: try rows(ChallengeWeighIn.self),
            settings: try challengeRow(ChallengeSettings.self, id: ChallengeIds.settings(challengeId: challengeId)),
            mealTotals: mealTotals, weights: weights)
    }

    /// Every live row of one of the Challenge's collections on the device (all challenges).
    public func challengeRows<V: ChallengeRowValue>(_ type: V.Type) throws -> [V] {
        try liveRows(V.self, collection: V.collection)
    }

    // MARK: Helpers

    func challengeRow<V: ChallengeRowValue>(_ type: V.Type, id: UUID) throws -> V? {
        try row(collection: V.collection, id: id).map { try SyncRules.decodeRow(V.self, $0) }
    }

    private func saveChallengeRow<V: ChallengeRowValue>(_ value: V) throws {
        do { try value.validate() } catch { throw ClientError.invalid(error.firstMessage) }
        try saveRow(collection: V.collection, id: value.id, data: try SyncRules.rowData(value))
    }

    private func checkDay(_ challengeId: UUID, _ date: LocalDate, today: LocalDate) throws {
        guard let challenge = try challenge(id: challengeId) else { throw ClientError.notFound("challenge") }
        do { try challenge.checkDay(date, today: today) } catch { throw ClientError.invalid(error.firstMessage) }
    }

    private func checkWeek(_ challengeId: UUID, _ week: Int, today: LocalDate) throws {
        guard let challenge = try challenge(id: challengeId) else { throw ClientError.notFound("challenge") }
        do { try challenge.checkWeek(week, today: today) } catch { throw ClientError.invalid(error.firstMessage) }
    }

    private func challengeRowIds(collection: String, challengeId: UUID) throws -> [UUID] {
        try database.queue.read { db in
            try Row.fetchAll(db, sql: "SELECT id, payload FROM records WHERE entity = 'row' AND collection = ? AND deleted = 0",
                             arguments: [collection])
        }.compactMap { row -> UUID? in
            guard case .object(let members)? = try? SyncJSON.parse(row["payload"] as String),
                  case .string(let owner)? = members["challengeId"], UUID(uuidString: owner) == challengeId else { return nil }
            return UUID(uuidString: row["id"] as String)
        }
    }
}
