import Foundation
import WDietCore
import WDietSQLite
import WDietStore

/// The dashboard part of `wdiet-dev bench`: one user with 365 days of history (5 meals and 1 weight a day) in a
/// SQLite file, then the dashboard of the last day, read from the stores and computed, over and over.
enum DashboardBench {
    struct Result {
        var historySeconds: Double
        var fullRead: [Double]
        var computeOnly: [Double]
    }

    static func run(iterations: Int, directory: URL) async throws -> Result {
        let historyBegan = DispatchTime.now().uptimeNanoseconds
        let path = directory.appendingPathComponent("dashboard-bench.sqlite").path
        let database = try AppDatabase.open(path: path)
        let users = SQLiteUserStore(database: database)
        let profiles = SQLiteProfileStore(database: database)
        let meals = SQLiteMealStore(database: database)
        let weights = SQLiteWeightStore(database: database)
        let loggedDays = SQLiteLoggedDayStore(database: database)

        let zone = TimeZone(identifier: "Europe/Berlin") ?? .gmt
        let today = LocalDate(year: 2026, month: 11, day: 22) ?? LocalDate(daysSinceEpoch: 20_779)
        let start = today.adding(days: -364)
        let userId = UUID()
        _ = try await users.createUser(id: userId, email: nil, displayName: "Bench")
        let profile = Profile(
            dateOfBirth: LocalDate(year: 1990, month: 5, day: 1) ?? start, sex: .female, heightCm: 168, weightKg: 82,
            goal: .lose, activity: .light, timeZoneIdentifier: zone.identifier, planStartDate: start
        )
        _ = try await profiles.saveProfile(profile, userId: userId, expectedVersion: nil)
        let mealHours = [8.0, 11.5, 14.0, 16.5, 19.0]
        // One transaction a day, as a client syncing a day of offline logs would.
        for day in 0..<365 {
            let date = start.adding(days: day)
            let midnight = date.startInstant(in: zone)
            let dayMeals = mealHours.enumerated().map { index, hour in
                Meal(
                    name: "Meal \(index + 1)", kcal: 300 + Double(index * 40), protein: 20, carbs: 35, fat: 9,
                    fiber: 4, loggedAt: midnight.addingTimeInterval(hour * 3_600)
                )
            }
            _ = try await meals.saveMeals(dayMeals, userId: userId, timeZone: zone)
            let kg = 82 - Double(day) * 0.02 + (day % 3 == 0 ? 0.3 : 0)
            _ = try await weights.saveWeight(WeightEntry(kg: (kg * 10).rounded() / 10, loggedAt: midnight.addingTimeInterval(7 * 3_600)), userId: userId, timeZone: zone)
        }

        let historySeconds = Double(DispatchTime.now().uptimeNanoseconds - historyBegan) / 1e9
        let reader = DashboardReader(store: SQLiteDashboardStore(database: database))
        let now = today.startInstant(in: zone).addingTimeInterval(20 * 3_600)
        var full: [Double] = []
        for _ in 0..<iterations {
            let began = DispatchTime.now().uptimeNanoseconds
            let day = try await reader.dashboard(userId: userId, now: now)
            full.append(Double(DispatchTime.now().uptimeNanoseconds - began) / 1e6)
            precondition(day.streak.days == 365 && day.totals.mealCount == 5, "the bench user's history is not what it wrote")
        }

        // The pure computation alone, from data already in memory.
        let todaysMeals = try await meals.meals(userId: userId, on: today).map(\.meal)
        let daily = try await weights.recentDailyWeights(userId: userId, through: today, days: WeightHistory.averageWindow + 1)
            .map { (date: $0.localDate, kg: $0.entry.kg) }
        let logged = Set(try await loggedDays.latestRun(userId: userId, through: today))
        var compute: [Double] = []
        for _ in 0..<iterations {
            let began = DispatchTime.now().uptimeNanoseconds
            let day = DashboardDay.compute(
                profile: profile, day: today, meals: todaysMeals, weightDays: WeightHistory.days(daily),
                loggedDays: logged, now: now
            )
            compute.append(Double(DispatchTime.now().uptimeNanoseconds - began) / 1e6)
            precondition(day.streak.days == 365, "unexpected streak")
        }
        return Result(historySeconds: historySeconds, fullRead: full, computeOnly: compute)
    }
}
