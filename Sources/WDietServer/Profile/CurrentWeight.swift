import Foundation
import WDietCore
import WDietStore

/// PRODUCT.md "current weight": the weight log is the one source of truth. The profile's current weight is the latest
/// logged weight (the profile's own `weightKg`, the onboarding weight, stands in until one is logged); changing it in
/// the profile logs a weight for today through `WeightLogging`; and like any change that moves targets, a weight
/// logged today reaches them at the next local midnight (`Targets.of`). The profile's JSON, page, preview and save
/// read it here so that they always agree.
struct CurrentWeight: Sendable {
    /// The latest weight logged; nil before the first.
    var latestKg: Double?
    /// The weight today's targets use: the latest logged before today began.
    var beforeTodayKg: Double?

    /// A typed weight closer than this to the current one is no change (the form shows 0.1 kg).
    static let sameWithinKg = 0.05

    static func read(_ services: AppServices, userId: UUID, today: LocalDate) async throws -> CurrentWeight {
        async let latest = services.weights.latestWeight(userId: userId)
        async let before = DayTargetsReader(profiles: services.profiles, weights: services.weights).weightBefore(userId: userId, day: today)
        return CurrentWeight(latestKg: try await latest?.entry.kg, beforeTodayKg: try await before)
    }

    /// What the profile shows as the current weight.
    func shown(_ stored: StoredProfile) -> Double { latestKg ?? stored.profile.weightKg }

    /// True when `kg` (as typed in the profile) is a new current weight, to be logged.
    func isChange(_ kg: Double, of stored: StoredProfile) -> Bool { abs(kg - shown(stored)) >= Self.sameWithinKg }

    /// The weight today's targets use.
    func inUseToday(_ stored: StoredProfile, today: LocalDate) -> Double {
        beforeTodayKg ?? stored.profile(forTargetsOn: today).weightKg
    }

    /// True while a weight logged today waits for midnight: it differs from the one today's targets use.
    func waits(_ stored: StoredProfile, today: LocalDate) -> Bool {
        guard let latestKg else { return false }
        return latestKg != inUseToday(stored, today: today)
    }

    /// The first day of new targets while something waits for midnight: a saved profile change, or a weight logged today.
    func planUpdatesOn(_ stored: StoredProfile, today: LocalDate) -> LocalDate? {
        stored.pendingChange(on: today)?.effectiveDate ?? (waits(stored, today: today) ? today.adding(days: 1) : nil)
    }

    /// "Your plan will be updated tomorrow at midnight (Mon 2 Mar)" while something waits.
    func notice(_ stored: StoredProfile, today: LocalDate) -> String? {
        planUpdatesOn(stored, today: today).map { PlanChange.notice(effectiveDate: $0, today: today) }
    }
}
