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

    public func dashboardInputs(userId: UUID, now: Date) async throws -> DashboardInputs? {
        let key = AppDatabase.idText(userId)
        // Taken before the read starts: a write committing during the read leaves the entry behind, never ahead.
        let generation = database.userDataChanges.generation(ofUser: key)
        if let cache, let inputs = cache.inputs(forUser: key, generation: generation),
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

/// The kept dashboard inputs, at most `capacity` users; the least recently stored go first.
final class DashboardInputsCache: @unchecked Sendable {
    private struct Entry {
        var inputs: DashboardInputs
        var generation: UInt64
        var stamp: UInt64
    }

    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    private var clock: UInt64 = 0
    let capacity: Int

    init(capacity: Int = 8_192) {
        self.capacity = capacity
    }

    func inputs(forUser userId: String, generation: UInt64) -> DashboardInputs? {
        lock.withLock {
            guard let entry = entries[userId], entry.generation == generation else { return nil }
            return entry.inputs
        }
    }

    func store(_ inputs: DashboardInputs, forUser userId: String, generation: UInt64) {
        lock.withLock {
            clock &+= 1
            entries[userId] = Entry(inputs: inputs, generation: generation, stamp: clock)
            if entries.count > capacity {
                // Rare: drop the oldest quarter in one go rather than tracking an order on every store.
                let cutoff = entries.values.map(\.stamp).sorted()[capacity / 4]
                entries = entries.filter { $0.value.stamp > cutoff }
            }
        }
    }

    var count: Int { lock.withLock { entries.count } }
}
