import Foundation
import Logging
import PostgresNIO
import WDietCore
import WDietStore

/// `DashboardStore` on PostgreSQL: the stores' own reads, in one read-only REPEATABLE READ transaction, so the
/// page never sees a meal without the streak day it made, whatever commits meanwhile.
///
/// No in-process cache as on SQLite: with several `wdiet serve` processes on one database, one process cannot see
/// another's writes, so a kept copy could be stale.
public struct PostgresDashboardStore: DashboardStore {
    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger = Logger(label: "wdiet.postgres.dashboard")) {
        self.client = client
        self.logger = logger
    }

    public func dashboardInputs(userId: UUID, now: Date) async throws -> DashboardInputs? {
        try await PostgresStoreErrors.guarded(logger) {
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
                let profiles = try await PostgresProfileStore.profiles(
                    connection.query(PostgresProfileStore.profileQuery(userId: userId), logger: logger))
                guard let profile = profiles.first?.profile else { return DashboardInputs?.none }
                let today = LocalDate(now, in: profile.profile.timeZone)
                let meals = try await StoredMeal.decode(
                    connection.query(PostgresMealStore.mealsQuery(userId: userId, on: today), logger: logger))
                let weights = try await StoredWeight.decode(connection.query(
                    PostgresWeightStore.recentDailyWeightsQuery(userId: userId, through: today, days: DashboardInputs.weightDays),
                    logger: logger))
                let run = try await PostgresLoggedDayStore.latestRun(
                    connection.query(PostgresLoggedDayStore.latestRunQuery(userId: userId, through: today), logger: logger))
                return DashboardInputs(
                    profile: profile, today: today, todaysMeals: meals.map(\.meal),
                    recentWeights: weights.reversed().map { (date: $0.localDate, kg: $0.entry.kg) }, latestRun: run
                )
            }
        }
    }
}
