import Foundation
import PostgresNIO
import WDietPostgres
import WDietSQLite
import WDietStore

/// The store implementations the conformance suite runs against: `@Test(arguments: StoreBackend.allCases)`.
/// SQLite runs in memory; PostgreSQL on a fresh database of the cluster in `WDIET_TEST_POSTGRES_URL`.
public enum StoreBackend: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite
    case postgres

    public var description: String { rawValue }

    /// The coach stores on a fresh, migrated database with one test clock, which starts at 2026-03-01T09:00:00Z
    /// unless told otherwise. Call `tearDown()` when done (or use `withCoachStores`).
    public func makeCoachStores(clockStart: Date = Date(timeIntervalSince1970: 1_772_355_600)) async throws -> CoachStores {
        let clock = TestClock(clockStart)
        switch self {
        case .sqlite:
            let database = try AppDatabase.inMemory()
            return CoachStores(
                backend: self, clock: clock,
                users: SQLiteUserStore(database: database, now: clock.closure),
                profiles: SQLiteProfileStore(database: database, now: clock.closure),
                meals: SQLiteMealStore(database: database, now: clock.closure),
                weights: SQLiteWeightStore(database: database, now: clock.closure),
                loggedDays: SQLiteLoggedDayStore(database: database),
                dashboard: SQLiteDashboardStore(database: database),
                account: AccountSideStores(
                    accounts: SQLiteAccountStore(database: database, now: clock.closure),
                    identities: SQLiteExternalIdentityStore(database: database, now: clock.closure),
                    throttle: SQLiteLoginThrottleStore(database: database),
                    rateLimits: SQLiteRateLimitStore(database: database),
                    tips: SQLiteTipStore(database: database, now: clock.closure),
                    analytics: SQLiteAnalyticsStore(database: database, now: clock.closure),
                    userData: SQLiteUserDataStore(database: database, now: clock.closure)
                ),
                sync: SQLiteSyncStore(database: database, now: clock.closure),
                journal: SQLiteJournalStore(database: database, now: clock.closure),
                database: .sqlite(database),
                tearDown: {}
            )
        case .postgres:
            let database = try await PostgresScratchDatabase.create()
            let client = database.client
            return CoachStores(
                backend: self, clock: clock,
                users: PostgresUserStore(client: client, now: clock.closure),
                profiles: PostgresProfileStore(client: client, now: clock.closure),
                meals: PostgresMealStore(client: client, now: clock.closure),
                weights: PostgresWeightStore(client: client, now: clock.closure),
                loggedDays: PostgresLoggedDayStore(client: client),
                dashboard: PostgresDashboardStore(client: client),
                account: AccountSideStores(
                    accounts: PostgresAccountStore(client: client, now: clock.closure),
                    identities: PostgresExternalIdentityStore(client: client, now: clock.closure),
                    throttle: PostgresLoginThrottleStore(client: client),
                    rateLimits: PostgresRateLimitStore(client: client),
                    tips: PostgresTipStore(client: client, now: clock.closure),
                    analytics: PostgresAnalyticsStore(client: client, now: clock.closure),
                    userData: PostgresUserDataStore(client: client, now: clock.closure)
                ),
                sync: PostgresSyncStore(client: client, now: clock.closure),
                journal: PostgresJournalStore(client: client, now: clock.closure),
                database: .postgres(client),
                tearDown: { await database.drop() }
            )
        }
    }

    /// Runs `body` on fresh coach stores and tears them down afterwards, whether it threw or not.
    @discardableResult
    public func withCoachStores<T: Sendable>(
        clockStart: Date = Date(timeIntervalSince1970: 1_772_355_600), _ body: (CoachStores) async throws -> T
    ) async throws -> T {
        let stores = try await makeCoachStores(clockStart: clockStart)
        do {
            let result = try await body(stores)
            await stores.tearDown()
            return result
        } catch {
            await stores.tearDown()
            throw error
        }
    }
}

/// The account-side stores of one backend, as `makeCoachStores` hands them to `CoachStores`.
struct AccountSideStores {
    let accounts: any AccountStore
    let identities: any ExternalIdentityStore
    let throttle: any LoginThrottleStore
    let rateLimits: any RateLimitStore
    let tips: any TipStore
    let analytics: any AnalyticsStore
    let userData: any UserDataStore
}

/// The coach's stores on one backend, by their protocols only, sharing one test clock.
public struct CoachStores: Sendable {
    public let backend: StoreBackend
    public let clock: TestClock
    public let users: any UserStore
    public let profiles: any ProfileStore
    public let meals: any MealStore
    public let weights: any WeightStore
    public let loggedDays: any LoggedDayStore
    public let dashboard: any DashboardStore
    public let accounts: any AccountStore
    public let identities: any ExternalIdentityStore
    public let throttle: any LoginThrottleStore
    public let rateLimits: any RateLimitStore
    public let tips: any TipStore
    public let analytics: any AnalyticsStore
    public let userData: any UserDataStore
    public let sync: any SyncStore
    public let journal: any JournalStore
    /// The database behind the stores, for the few tests that look behind the protocols (every table of a user).
    public let database: Database
    let tearDownAction: @Sendable () async -> Void

    init(
        backend: StoreBackend, clock: TestClock, users: any UserStore, profiles: any ProfileStore, meals: any MealStore,
        weights: any WeightStore, loggedDays: any LoggedDayStore, dashboard: any DashboardStore,
        account: AccountSideStores, sync: any SyncStore, journal: any JournalStore, database: Database, tearDown: @escaping @Sendable () async -> Void
    ) {
        self.backend = backend
        self.clock = clock
        self.users = users
        self.profiles = profiles
        self.meals = meals
        self.weights = weights
        self.loggedDays = loggedDays
        self.dashboard = dashboard
        accounts = account.accounts
        identities = account.identities
        throttle = account.throttle
        rateLimits = account.rateLimits
        tips = account.tips
        analytics = account.analytics
        userData = account.userData
        self.sync = sync
        self.journal = journal
        self.database = database
        tearDownAction = tearDown
    }

    /// Where the rows are: the SQLite gatekeeper or the PostgreSQL client.
    public enum Database: Sendable {
        case sqlite(AppDatabase)
        case postgres(PostgresClient)
    }

    /// Drops the PostgreSQL database; nothing to do for SQLite's in-memory one.
    public func tearDown() async { await tearDownAction() }

    /// A second profile store on the same database, with its own kept copies: another `wdiet serve` process. (On
    /// SQLite one process owns the file, so it is simply another store.)
    public func anotherProcessProfiles() async throws -> any ProfileStore {
        switch database {
        case .sqlite(let database): SQLiteProfileStore(database: database, now: clock.closure)
        case .postgres(let client): PostgresProfileStore(client: client, now: clock.closure)
        }
    }

    /// Creates a user to own the rows a test writes.
    public func makeUser(email: String? = nil, displayName: String = "Test") async throws -> UUID {
        try await users.createUser(id: UUID(), email: email, displayName: displayName).id
    }
}
