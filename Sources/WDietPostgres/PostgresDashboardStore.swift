import Foundation
import Logging
import PostgresNIO
import WDietCore
import WDietStore

/// `DashboardStore` on PostgreSQL in two round trips: the profile (its time zone says which day is today), then the
/// day's meals, the recent daily weights and the latest run of logged days in one statement. One statement reads
/// one snapshot, so the page never sees a meal without the streak day it made, whatever commits meanwhile; a
/// transaction around separate reads cost five more round trips (BEGIN, SET TRANSACTION, two reads, COMMIT).
///
/// The inputs are kept per process as on SQLite, but a process cannot see another's writes, so an entry is tagged
/// with the user's `last_version` and used only when the request's session lookup (which reads `last_version` in
/// the same statement, at no extra cost) still finds that version: every write of a user's profile, meals, weights
/// or logged days takes a new version in its transaction (`PostgresUserVersions`), whichever process makes it.
/// The tag is the version read *before* the inputs, so a write committing in between leaves the entry behind (read
/// again next time), never ahead. Without a version (a caller that has none) the database is read every time.
public struct PostgresDashboardStore: DashboardStore {
    let client: PostgresClient
    let logger: Logger
    private let cache: DashboardInputsCache?

    /// `cachesInputs: false` reads the database every time.
    public init(client: PostgresClient, cachesInputs: Bool = true, logger: Logger = Logger(label: "wdiet.postgres.dashboard")) {
        self.client = client
        self.logger = logger
        cache = cachesInputs ? DashboardInputsCache() : nil
    }

    public func dashboardInputs(userId: UUID, now: Date, dataVersion: Int64?) async throws -> DashboardInputs? {
        let key = userId.uuidString
        if let cache, let dataVersion, let inputs = cache.value(forUser: key, generation: UInt64(bitPattern: dataVersion)),
           inputs.today == LocalDate(now, in: inputs.profile.profile.timeZone) {
            return inputs
        }
        let inputs = try await read(userId: userId, now: now)
        if let cache, let dataVersion, let inputs { cache.store(inputs, forUser: key, generation: UInt64(bitPattern: dataVersion)) }
        return inputs
    }

    private func read(userId: UUID, now: Date) async throws -> DashboardInputs? {
        try await PostgresStoreErrors.guarded(logger) {
            guard let profile = try await PostgresProfileStore.liveProfile(userId: userId, client: client, logger: logger) else {
                return DashboardInputs?.none
            }
            let today = LocalDate(now, in: profile.profile.timeZone)
            var meals: [StoredMeal] = []
            var weights: [StoredWeight] = []
            var run: [LocalDate] = []
            for try await row in try await client.execute(DayRead(userId: userId, today: today), logger: logger) {
                switch try row.value("kind", as: String.self) {
                case "m": meals.append(try StoredMeal.decode(row))
                case "w": weights.append(try StoredWeight.decode(row))
                default:
                    run = PostgresLoggedDayStore.run(
                        from: try row.optionalLocalDate("run_start"), through: try row.optionalLocalDate("local_date"))
                }
            }
            // The orders the stores' own reads give: meals newest first, weights by day.
            meals.sort { ($0.meal.loggedAt, $0.createdAt) > ($1.meal.loggedAt, $1.createdAt) }
            weights.sort { $0.localDate < $1.localDate }
            return DashboardInputs(
                profile: profile, today: today, todaysMeals: meals.map(\.meal),
                recentWeights: weights.map { (date: $0.localDate, kg: $0.entry.kg) }, latestRun: run
            )
        }
    }

    /// The stores' three reads (`PostgresMealStore.mealsQuery`, `PostgresWeightStore.recentDailyWeightsQuery`,
    /// `PostgresLoggedDayStore.latestRunBounds`, whose SQL is repeated here: a query's binds cannot be nested) as one
    /// `UNION ALL`, each row tagged with its `kind` and carrying the columns its store's decoder reads. A prepared
    /// statement: planning it anew took as long as running it (0.4 ms each), so each connection plans it once.
    struct DayRead: PostgresPreparedStatement {
        static let name = "wdiet_dashboard_day_v2"
        static let sql = """
            (SELECT 'm' AS kind, id, user_id, name, food_id, grams, kcal, protein, carbs, fat, fiber, source, logged_at,
                local_date, created_at, updated_at, version, deleted_at, slot, NULL::double precision AS kg, NULL::date AS run_start
            FROM meals WHERE user_id = $1 AND local_date = $2 AND deleted_at IS NULL)
            UNION ALL
            (SELECT DISTINCT ON (local_date) 'w', id, user_id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, logged_at,
                local_date, created_at, updated_at, version, deleted_at, NULL, kg, NULL
            FROM weights WHERE user_id = $1 AND local_date <= $2 AND deleted_at IS NULL
            ORDER BY local_date DESC, logged_at DESC, version DESC
            LIMIT $3)
            UNION ALL
            (SELECT 'r', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                local_date, NULL, NULL, NULL, NULL, NULL, NULL, run_start
            FROM (
                SELECT min(local_date) AS run_start, max(local_date) AS local_date FROM (
                    SELECT local_date, local_date + (row_number() OVER (ORDER BY local_date DESC))::integer AS run_key
                    FROM logged_days WHERE user_id = $1 AND local_date <= $2
                ) days
                WHERE run_key = (SELECT max(local_date) + 1 FROM logged_days WHERE user_id = $1 AND local_date <= $2)
            ) run)
            """

        let userId: UUID
        let today: LocalDate

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 3)
            bindings.append(userId)
            bindings.append(PostgresLocalDate(today))
            bindings.append(Int64(DashboardInputs.weightDays))
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> PostgresRandomAccessRow { row.makeRandomAccess() }
    }
}
