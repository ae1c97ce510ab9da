import Foundation
import WDietSQLite
import WDietStore

/// The stores and clock the routes work with, assembled once by `buildApplication`.
public struct AppServices: Sendable {
    public let database: AppDatabase
    public let users: any UserStore
    public let profiles: any ProfileStore
    public let meals: any MealStore
    public let weights: any WeightStore
    public let loggedDays: any LoggedDayStore
    public let analytics: any AnalyticsStore
    public let dashboards: DashboardReader
    public let foods: any FoodCatalogStore
    public let accounts: any AccountStore
    public let tips: any TipStore
    public let rateLimits: any RateLimitStore
    /// Sign-in hardening: failed sign-ins per account and address, Apple/Google identities, password changes.
    public let loginThrottle: any LoginThrottleStore
    public let identities: any ExternalIdentityStore
    public let passwords: any PasswordCredentialStore
    /// The user's data as a whole: export, import, erasure.
    public let userData: any UserDataStore
    public let now: @Sendable () -> Date

    /// The SQLite stores on one database.
    public init(database: AppDatabase, now: @escaping @Sendable () -> Date = Date.init) {
        self.database = database
        users = SQLiteUserStore(database: database, now: now)
        profiles = SQLiteProfileStore(database: database, now: now)
        meals = SQLiteMealStore(database: database, now: now)
        weights = SQLiteWeightStore(database: database, now: now)
        loggedDays = SQLiteLoggedDayStore(database: database)
        analytics = SQLiteAnalyticsStore(database: database, now: now)
        dashboards = DashboardReader(store: SQLiteDashboardStore(database: database))
        foods = SQLiteFoodCatalogStore(database: database)
        accounts = SQLiteAccountStore(database: database, now: now)
        tips = SQLiteTipStore(database: database, now: now)
        rateLimits = SQLiteRateLimitStore(database: database)
        loginThrottle = SQLiteLoginThrottleStore(database: database)
        identities = SQLiteExternalIdentityStore(database: database, now: now)
        passwords = SQLitePasswordCredentialStore(database: database, now: now)
        userData = SQLiteUserDataStore(database: database, now: now)
        self.now = now
    }
}
