import Foundation
import WDietCore

/// The targets of one of the user's local days (PRODUCT.md, Coach — rules: "a day's targets come from the profile
/// and the latest weight as they stood when the day began"): the profile's target inputs in force when the day began
/// (`StoredProfile.planHistory`) and the latest weight logged before it (the current value of the latest earlier day
/// with a weight). The one read every page that shows a day's targets uses — the dashboard of any day, the meals
/// list, the profile's "Current Targets" — so that they always agree.
public struct DayTargetsReader: Sendable {
    public let profiles: any ProfileStore
    public let weights: any WeightStore

    public init(profiles: any ProfileStore, weights: any WeightStore) {
        self.profiles = profiles
        self.weights = weights
    }

    /// The targets of `day`; nil when the user has no profile yet.
    public func targets(userId: UUID, on day: LocalDate) async throws -> Targets? {
        guard let stored = try await profiles.profile(userId: userId) else { return nil }
        return try await targets(of: stored, userId: userId, on: day)
    }

    /// The same for a profile the caller has read already.
    public func targets(of stored: StoredProfile, userId: UUID, on day: LocalDate) async throws -> Targets {
        stored.targets(on: day, weightBeforeDayKg: try await weightBefore(userId: userId, day: day))
    }

    /// The weight the targets of `day` use: the current value of the latest day before `day` with a weight.
    public func weightBefore(userId: UUID, day: LocalDate) async throws -> Double? {
        try await weights.recentDailyWeights(userId: userId, through: day.adding(days: -1), days: 1).last?.entry.kg
    }
}
