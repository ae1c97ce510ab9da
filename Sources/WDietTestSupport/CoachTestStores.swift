import Foundation
import WDietCore
import WDietSQLite
import WDietStore

/// Every coach store on one fresh in-memory database, sharing one test clock. Tests use the protocol types,
/// so the same checks can later run against another backend.
public struct CoachTestStores: Sendable {
    public let database: AppDatabase
    public let clock: TestClock
    public let users: any UserStore
    public let profiles: any ProfileStore
    public let meals: any MealStore
    public let weights: any WeightStore
    public let loggedDays: any LoggedDayStore
    public let analytics: any AnalyticsStore

    /// The clock starts at 2026-03-01T09:00:00Z unless told otherwise.
    public init(clockStart: Date = Date(timeIntervalSince1970: 1_772_355_600)) throws {
        let database = try AppDatabase.inMemory()
        let clock = TestClock(clockStart)
        self.database = database
        self.clock = clock
        users = SQLiteUserStore(database: database, now: clock.closure)
        profiles = SQLiteProfileStore(database: database, now: clock.closure)
        meals = SQLiteMealStore(database: database, now: clock.closure)
        weights = SQLiteWeightStore(database: database, now: clock.closure)
        loggedDays = SQLiteLoggedDayStore(database: database)
        analytics = SQLiteAnalyticsStore(database: database, now: clock.closure)
    }

    /// Creates a user to own the rows a test writes.
    public func makeUser(email: String? = nil, displayName: String = "Test") async throws -> UUID {
        try await users.createUser(id: UUID(), email: email, displayName: displayName).id
    }
}
