import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// The web app's Progress tab: weight with its rolling average and trend, and the last 14 days of calories against
/// their targets.
struct ProgressPages: Sendable {
    let services: AppServices

    func register(on group: RouterGroup<WebUserContext>) {
        group.get("/progress") { _, context in
            let userId = context.userId
            let stored = try await WebPage.requireProfile(services, userId: userId)
            let profile = stored.profile
            let today = LocalDate(services.now(), in: profile.timeZone)
            let daily = try await services.weights.dailyWeights(userId: userId)
            let weightDays = WeightHistory.days(daily.map { ($0.localDate, $0.entry.kg) })
            var days: [CalorieChart.Day] = []
            for offset in stride(from: CalorieChart.days - 1, through: 0, by: -1) {
                let date = today.adding(days: -offset)
                let totals = try await services.meals.dailyTotals(userId: userId, on: date)
                days.append(CalorieChart.Day(date: date, kcal: totals.kcal, targetKcal: Self.target(on: date, stored: stored, weights: weightDays)))
            }
            days = Self.sinceStart(days, started: LocalDate(stored.createdAt, in: profile.timeZone))
            let view = ProgressView(
                chrome: PageChrome(context: context, tab: .progress), unit: profile.weightUnit.rawValue,
                weight: WeightChart(days: weightDays, unit: profile.weightUnit, today: today), calories: CalorieChart(days: days)
            )
            return try WebTemplates.page("progress", view)
        }
    }

    /// The days from the one the person started on: an empty day before the profile existed was not a day of the
    /// plan ("Nothing logged" for 13 days a new account never had). A day with meals (an import) always counts.
    static func sinceStart(_ days: [CalorieChart.Day], started: LocalDate) -> [CalorieChart.Day] {
        Array(days.drop { $0.date < started && $0.kcal == 0 })
    }

    /// The day's calorie target as the dashboard showed it that day (`Targets.of`): the target inputs in force when
    /// the day began, and the latest weight logged before it.
    static func target(on date: LocalDate, stored: StoredProfile, weights: [WeightDay]) -> Int {
        stored.targets(on: date, weightBeforeDayKg: Targets.latestWeight(before: date, in: weights)).calories
    }
}
