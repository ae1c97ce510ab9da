import Foundation
import WDietCore

/// Logged meals. Every read and write is scoped to one user: another user's meal ids are neither read nor changed.
public protocol MealStore: Sendable {
    /// Inserts the meal, or updates the user's meal with the same id, and assigns a new version.
    /// The local date is computed from `loggedAt` in `timeZone` (the user's, at logging time).
    /// Saving a meal identical to the stored one changes nothing, so a retried upload does not bump the version.
    /// Refused: invalid values (`.invalid`, with the logging screen's message), an id that belongs to another user
    /// (`.conflict`), a deleted meal (`.notFound`), an unknown user (`.notFound`).
    func saveMeal(_ meal: Meal, userId: UUID, timeZone: TimeZone) async throws -> StoredMeal
    /// `saveMeal`, with the analytics event of that moment (`meal_logged`) recorded in the same transaction: one
    /// commit instead of two on the busiest write (as a write of its own, the event was a quarter of a meal
    /// save's CPU on SQLite). The event never fails or undoes the save: when it cannot be stored (its id is
    /// already in use, …), the meal is saved without it and the reason comes back in `eventError`.
    func saveMeal(_ meal: Meal, userId: UUID, timeZone: TimeZone, recording event: AnalyticsEvent) async throws -> SavedWithEvent<StoredMeal>
    /// Saves several meals in one transaction, all or none, with the rules of `saveMeal` (an import, a batch
    /// of offline edits). Returned in the order given.
    func saveMeals(_ meals: [Meal], userId: UUID, timeZone: TimeZone) async throws -> [StoredMeal]

    /// Marks the meal deleted (a tombstone that sync can still hand out) and returns it. Deleting a deleted meal
    /// returns the tombstone unchanged; a meal the user does not have is `.notFound`.
    @discardableResult
    func deleteMeal(userId: UUID, id: UUID) async throws -> StoredMeal

    /// Brings back a meal the user deleted ("Undo" after a delete), under a new version so sync hands the change
    /// out; restoring a live meal returns it unchanged; a meal the user does not have is `.notFound`.
    func restoreMeal(userId: UUID, id: UUID) async throws -> StoredMeal
    /// The user's meal with this id, or nil when it does not exist, is deleted, or is someone else's.
    func meal(userId: UUID, id: UUID) async throws -> StoredMeal?

    /// The meals logged on a local day, newest first, without tombstones.
    func meals(userId: UUID, on date: LocalDate) async throws -> [StoredMeal]

    /// The live meals logged from `start` through `end` (local days, both included), newest first, at most `limit`
    /// (recents, copying a day). Served by the (user, local day) index on both backends.
    func meals(userId: UUID, from start: LocalDate, through end: LocalDate, limit: Int) async throws -> [StoredMeal]

    /// Each day's totals of the live meals from `start` through `end` (days without meals absent), as
    /// `DailyTotals(meals:)` of `meals(userId:from:through:limit: 20_000)` grouped by day — the same meals added in
    /// the same order, so every backend and the default agree to the bit — reading only the numbers (the Challenge's
    /// read after a meal: no meal decoded).
    func dayTotals(userId: UUID, from start: LocalDate, through end: LocalDate) async throws -> [LocalDate: DailyTotals]
}

/// A row saved together with the analytics event of its moment (`MealStore.saveMeal(_:userId:timeZone:recording:)`,
/// `WeightStore.saveWeight(_:userId:timeZone:recording:)`).
public struct SavedWithEvent<Row: Sendable>: Sendable {
    public let row: Row
    /// Why the event was left out, or nil when it was recorded (or was already there, from a retried upload).
    public let eventError: (any Error)?

    public init(row: Row, eventError: (any Error)?) {
        self.row = row
        self.eventError = eventError
    }
}

extension MealStore {
    public static var dayTotalsMealLimit: Int { 20_000 }

    public func dayTotals(userId: UUID, from start: LocalDate, through end: LocalDate) async throws -> [LocalDate: DailyTotals] {
        let meals = try await meals(userId: userId, from: start, through: end, limit: Self.dayTotalsMealLimit)
        return Dictionary(grouping: meals, by: \.localDate).mapValues { DailyTotals(meals: $0.map(\.meal)) }
    }

    /// What the day's meals add up to; computed by WDietCore's rule so that every backend agrees.
    public func dailyTotals(userId: UUID, on date: LocalDate) async throws -> DailyTotals {
        DailyTotals(meals: try await meals(userId: userId, on: date).map(\.meal))
    }
}
