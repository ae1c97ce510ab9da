import Foundation
import WDietCore

/// Logged weights. Several entries may share a local day; the one logged latest that day is the day's current
/// value, and the history keeps them all.
public protocol WeightStore: Sendable {
    /// Inserts the entry, or updates the user's entry with the same id; the same rules as `MealStore.saveMeal`.
    func saveWeight(_ entry: WeightEntry, userId: UUID, timeZone: TimeZone) async throws -> StoredWeight
    /// `saveWeight`, with the analytics event of that moment (`weight_logged`) in the same transaction; the same
    /// rules as `MealStore.saveMeal(_:userId:timeZone:recording:)`.
    func saveWeight(_ entry: WeightEntry, userId: UUID, timeZone: TimeZone, recording event: AnalyticsEvent) async throws -> SavedWithEvent<StoredWeight>
    /// Saves several entries in one transaction, all or none, with the rules of `saveWeight`.
    func saveWeights(_ entries: [WeightEntry], userId: UUID, timeZone: TimeZone) async throws -> [StoredWeight]

    /// Marks the entry deleted; the same rules as `MealStore.deleteMeal`.
    @discardableResult
    func deleteWeight(userId: UUID, id: UUID) async throws -> StoredWeight

    /// Brings back an entry the user deleted ("Undo" after a delete); the same rules as `MealStore.restoreMeal`.
    func restoreWeight(userId: UUID, id: UUID) async throws -> StoredWeight

    /// Every entry, oldest first, without tombstones.
    func weightHistory(userId: UUID) async throws -> [StoredWeight]

    /// The current entry of each local day (the latest logged that day), oldest day first.
    func dailyWeights(userId: UUID) async throws -> [StoredWeight]

    /// The current entries of the last `days` local days with an entry, on or before `date`, oldest day first:
    /// what the dashboard's average and trend need (8 days) without reading the whole history.
    func recentDailyWeights(userId: UUID, through date: LocalDate, days: Int) async throws -> [StoredWeight]
    /// The entry logged latest, which the targets are computed from.
    func latestWeight(userId: UUID) async throws -> StoredWeight?
}
