import Foundation
import WDietPostgres
import WDietStore

extension AppServices {
    /// The PostgreSQL stores on one database: what several `wdiet serve` processes behind a load balancer share.
    /// Nothing here caches a user's data in the process, so every read on any server sees every write acknowledged
    /// by any other.
    public init(postgres database: PostgresDatabase, now: @escaping @Sendable () -> Date = Date.init) {
        let client = database.client
        self.init(
            users: PostgresUserStore(client: client, now: now),
            profiles: PostgresProfileStore(client: client, now: now),
            meals: PostgresMealStore(client: client, now: now),
            weights: PostgresWeightStore(client: client, now: now),
            loggedDays: PostgresLoggedDayStore(client: client),
            analytics: PostgresAnalyticsStore(client: client, now: now),
            dashboards: DashboardReader(store: PostgresDashboardStore(client: client)),
            foods: PostgresFoodCatalogStore(client: client),
            accounts: PostgresAccountStore(client: client, now: now),
            tips: PostgresTipStore(client: client, now: now),
            rateLimits: PostgresRateLimitStore(client: client, now: now),
            loginThrottle: PostgresLoginThrottleStore(client: client, now: now),
            identities: PostgresExternalIdentityStore(client: client, now: now),
            passwords: PostgresPasswordCredentialStore(client: client, now: now),
            userData: PostgresUserDataStore(client: client, now: now),
            sync: PostgresSyncStore(client: client, now: now),
            journal: PostgresJournalStore(client: client, now: now),
            media: PostgresMediaStore(client: client, now: now),
            postgres: database, now: now
        )
    }
}
