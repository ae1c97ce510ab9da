import Foundation
import WDietPostgres
import WDietSQLite
import WDietStore

/// The stores and clock the routes work with, assembled once by `buildApplication`.
public struct AppServices: Sendable {
    /// The SQLite gatekeeper when the stores are SQLite's (tests and tools reach the file through it); nil on
    /// PostgreSQL.
    public let database: AppDatabase?
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
    /// Offline-first sync: push and pull (docs/sync.md).
    public let sync: any SyncStore
    /// The Journal's entries (docs/journal.md), synced as the `journal` collection.
    public let journal: any JournalStore
    /// Photos and recordings (docs/media.md): on SQLite a database file of its own beside the main one.
    public let media: any MediaStore
    /// How photos are decoded and re-encoded (libvips' tools); tests change it.
    var mediaProcessing = MediaProcessing()
    /// Label scans (issue 19): the scanner behind its bounded queue; tests put in a reader of their own.
    var labelScan = LabelScanService()
    public let now: @Sendable () -> Date
    /// Once-only analytics events this process has stored (`EventRecorder.recordOnce`).
    let recordedMoments = RecordedMoments()
    /// Each user's Challenge as Home, Progress and the summary read it, by data generation (`ChallengeService.snapshot`);
    /// about 100 KB a user 16 weeks in.
    let challengeSnapshots = UserGenerationCache<ChallengeSnapshot>(capacity: 256)
    /// The PostgreSQL pool the stores use, held here so that it lives as long as they do; nil on SQLite.
    public let postgres: PostgresDatabase?

    /// Any store implementations (PostgreSQL's, or a mix in tests); `database` only when they are SQLite's.
    public init(
        users: any UserStore, profiles: any ProfileStore, meals: any MealStore, weights: any WeightStore,
        loggedDays: any LoggedDayStore, analytics: any AnalyticsStore, dashboards: DashboardReader,
        foods: any FoodCatalogStore, accounts: any AccountStore, tips: any TipStore, rateLimits: any RateLimitStore,
        loginThrottle: any LoginThrottleStore, identities: any ExternalIdentityStore, passwords: any PasswordCredentialStore,
        userData: any UserDataStore, sync: any SyncStore, journal: any JournalStore, media: any MediaStore, database: AppDatabase? = nil, postgres: PostgresDatabase? = nil, now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.database = database
        self.postgres = postgres
        self.users = users
        self.profiles = profiles
        self.meals = meals
        self.weights = weights
        self.loggedDays = loggedDays
        self.analytics = analytics
        self.dashboards = dashboards
        self.foods = foods
        self.accounts = accounts
        self.tips = tips
        self.rateLimits = rateLimits
        self.loginThrottle = loginThrottle
        self.identities = identities
        self.passwords = passwords
        self.userData = userData
        self.sync = sync
        self.journal = journal
        self.media = media
        self.now = now
    }

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
        sync = SQLiteSyncStore(database: database, now: now)
        journal = SQLiteJournalStore(database: database, now: now)
        media = SQLiteMediaStore(database: database, now: now)
        postgres = nil
        self.now = now
    }
}

extension AppServices {
    /// The user's data generation, for caches of what the user's rows make (`ChallengeService.snapshot`): it moves
    /// on with every committed write of the user's profile, meals, weights, logged days or synced rows. On SQLite
    /// `UserDataChanges.changedRows` (one process owns the file); on PostgreSQL `dataVersion`, the user's
    /// `last_version` as the request's session lookup read it. Nil when there is none (then nothing may be kept).
    /// Here, beside the backends, so that a feature's use cases need not know which store they run on.
    ///
    /// On both it moves on by the number of rows written (a version each on PostgreSQL), so a write of one row
    /// that finds it exactly one past a kept entry's knows that no other write came in between
    /// (`generation(afterWritingOneRowAt:)`).
    func userDataGeneration(userId: UUID, dataVersion: Int64?) -> UInt64? {
        if let database { return database.userDataChanges.changedRows(ofUser: userId) }
        return dataVersion.map { UInt64(bitPattern: $0) }
    }

    /// The user's data generation right after a write of one synced row that came back with `version` (call it
    /// once the write has committed): on SQLite the count now (a write committing since can only make it larger);
    /// on PostgreSQL the row's version, which is the `last_version` that write left when it took one version
    /// (the user's row lock orders every writer of the user's data).
    func generation(afterWritingOneRowAt version: Int64, userId: UUID) -> UInt64 {
        if let database { return database.userDataChanges.changedRows(ofUser: userId) }
        return UInt64(bitPattern: version)
    }
}
