import Foundation
import WDietCore

/// Reads what a dashboard day needs from the stores and hands it to WDietCore's `DashboardDay.compute`.
/// The server's dashboard page, its JSON twin and the benchmark all go through here.
public struct DashboardReader: Sendable {
    public let profiles: any ProfileStore
    public let meals: any MealStore
    public let weights: any WeightStore
    public let loggedDays: any LoggedDayStore

    /// The streak is read in windows that double until the streak ends inside one, so a long streak costs
    /// a few reads and a short one a single small read.
    static let firstStreakWindowDays = 64

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
        let daily = try await weights.dailyWeights(userId: userId)
            .filter { $0.localDate <= today }
            .suffix(WeightHistory.averageWindow + 1)
            .map { (date: $0.localDate, kg: $0.entry.kg) }
        let logged = try await streakDays(userId: userId, today: today)
        return DashboardDay.compute(
            profile: profile, planChange: stored.planChange, todaysMeals: todaysMeals,
            weightDays: WeightHistory.days(Array(daily)), loggedDays: logged, now: now
        )
    }

    /// Enough logged days to count the streak ending today or yesterday.
    func streakDays(userId: UUID, today: LocalDate) async throws -> Set<LocalDate> {
        var window = Self.firstStreakWindowDays
        while true {
            let from = today.adding(days: -window)
            let days = try await loggedDays.loggedDays(userId: userId, in: from...today)
            let streak = Streak(loggedDays: days, today: today)
            // The run reaches the window's first day only if the window may have cut it short.
            let runStart = (streak.isActiveToday ? today : today.adding(days: -1)).adding(days: -(streak.days - 1))
            if streak.days == 0 || runStart > from { return days }
            window *= 2
        }
    }
}
