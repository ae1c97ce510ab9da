import Foundation
import WDietCore

/// Reads what a dashboard day needs from the stores and hands it to WDietCore's `DashboardDay.compute`.
/// The server's dashboard page, its JSON twin and the benchmark all go through here.
public struct DashboardReader: Sendable {
    public let profiles: any ProfileStore
    public let meals: any MealStore
    public let weights: any WeightStore
    public let loggedDays: any LoggedDayStore

    public init(profiles: any ProfileStore, meals: any MealStore, weights: any WeightStore, loggedDays: any LoggedDayStore) {
        self.profiles = profiles
        self.meals = meals
        self.weights = weights
        self.loggedDays = loggedDays
    }

    /// The dashboard of the user's local day at `now`; `.notFound` when the user has no profile yet.
    public func dashboard(userId: UUID, now: Date) async throws -> DashboardDay {
        guard let stored = try await profiles.profile(userId: userId) else {
            throw StoreError.notFound("No profile yet: finish onboarding first.")
        }
        let profile = stored.profile
        let today = LocalDate(now, in: profile.timeZone)
        let todaysMeals = try await meals.meals(userId: userId, on: today).map(\.meal)
        // Today's average needs 7 daily values and its trend the day before's average: 8 days.
        let daily = try await weights.recentDailyWeights(userId: userId, through: today, days: WeightHistory.averageWindow + 1)
            .map { (date: $0.localDate, kg: $0.entry.kg) }
        let run = try await loggedDays.latestRun(userId: userId, through: today)
        return DashboardDay.compute(
            profile: profile, planChange: stored.planChange, todaysMeals: todaysMeals,
            weightDays: WeightHistory.days(daily), loggedDays: Set(run), now: now
        )
    }
}
