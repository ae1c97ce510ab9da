import Foundation
import GRDB
import WDietCore
import WDietStore

/// `DashboardStore` on the SQLite gatekeeper: the stores' reads, in one read transaction.
public struct SQLiteDashboardStore: DashboardStore {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func dashboardInputs(userId: UUID, now: Date) async throws -> DashboardInputs? {
        try await database.storeRead { db in
            guard let profile = try SQLiteProfileStore.profile(userId: userId, in: db) else { return nil }
            let today = LocalDate(now, in: profile.profile.timeZone)
            return DashboardInputs(
                profile: profile, today: today,
                todaysMeals: try SQLiteMealStore.meals(userId: userId, on: today, in: db).map(\.meal),
                recentWeights: try SQLiteWeightStore.recentDailyWeights(userId: userId, through: today, days: DashboardInputs.weightDays, in: db)
                    .map { (date: $0.localDate, kg: $0.entry.kg) },
                latestRun: try SQLiteLoggedDayStore.latestRun(userId: userId, through: today, in: db)
            )
        }
    }
}
