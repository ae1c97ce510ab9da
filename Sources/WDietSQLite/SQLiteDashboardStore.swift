import Foundation
import GRDB
import WDietCore
import WDietStore

/// `DashboardStore` on the SQLite gatekeeper: the stores' reads, in one read transaction.
///
/// The dashboard is the page that loads most often, and between two of a user's writes it reads the same rows
/// again and again. So the inputs of each user's day are kept, tagged with the user's data generation
/// (`UserDataChanges`): any committed write to the user's profile, meals, weights or logged days makes the entry
/// stale, and a new local day makes it stale too. Only the inputs are kept; the dashboard itself is computed
/// anew each time, because parts of it move with the clock (the eating window's "now", the MATADOR day).
public struct SQLiteDashboardStore: DashboardStore {
    let database: AppDatabase
    private let cache: DashboardInputsCache?

    /// `cachesInputs: false` reads the database every time (the benchmark's cold figures).
    public init(database: AppDatabase, cachesInputs: Bool = true) {
        self.database = database
        cache = cachesInputs ? DashboardInputsCache() : nil
    }

    /// `dataVersion` is not needed: the process sees every write to its file (`UserDataChanges`).
    public func dashboardInputs(userId: UUID, now: Date, dataVersion: Int64?) async throws -> DashboardInputs? {
        let key = AppDatabase.idText(userId)
        // Taken before the read starts: a write committing during the read leaves the entry behind, never ahead.
        let generation = database.userDataChanges.generation(ofUser: key)
        if let cache, let inputs = cache.value(forUser: key, generation: generation),
           inputs.today == LocalDate(now, in: inputs.profile.profile.timeZone) {
            return inputs
        }
        let inputs = try await database.storeRead { db in
            guard let profile = try SQLiteProfileStore.profile(userId: userId, in: db) else { return DashboardInputs?.none }
            let today = LocalDate(now, in: profile.profile.timeZone)
            return DashboardInputs(
                profile: profile, today: today,
                todaysMeals: try SQLiteMealStore.meals(userId: userId, on: today, in: db).map(\.meal),
                recentWeights: try SQLiteWeightStore.recentDailyWeights(userId: userId, through: today, days: DashboardInputs.weightDays, in: db)
                    .map { (date: $0.localDate, kg: $0.entry.kg) },
                latestRun: try SQLiteLoggedDayStore.latestRun(userId: userId, through: today, in: db)
            )
        }
        if let cache, let inputs { cache.store(inputs, forUser: key, generation: generation) }
        return inputs
    }
}
