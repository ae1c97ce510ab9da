import Foundation
import GRDB
import Testing
import WDietSQLite
import WDietStore
import WDietTestSupport

/// The sliding window of `RateLimitStore` (001 §12.7's profile limit is 10 an hour), on SQLite.
@Suite("Rate limit store: a sliding window per user and action")
struct RateLimitStoreTests {
    let stores: CoachTestStores
    let limits: any RateLimitStore
    let start = Date(timeIntervalSince1970: 1_772_355_600)  // 2026-03-01T09:00:00Z

    init() throws {
        stores = try CoachTestStores()
        limits = SQLiteRateLimitStore(database: stores.database)
    }

    func acquire(_ user: UUID, at seconds: TimeInterval, limit: Int = 3) async throws -> RateLimitDecision {
        try await limits.acquire(.profileUpdate, userId: user, limit: limit, window: 3_600, now: start.addingTimeInterval(seconds))
    }

    func isAllowed(_ decision: RateLimitDecision) -> Bool {
        if case .allowed = decision { true } else { false }
    }

    @Test("three in the window, the fourth waits for the oldest; a use exactly an hour old has left the window")
    func window() async throws {
        let user = try await stores.makeUser()
        for seconds in [0.0, 10, 20] { #expect(isAllowed(try await acquire(user, at: seconds))) }
        #expect(try await acquire(user, at: 30) == .limited(retryAt: start.addingTimeInterval(3_600)))
        #expect(try await acquire(user, at: 3_599.999) == .limited(retryAt: start.addingTimeInterval(3_600)))
        #expect(isAllowed(try await acquire(user, at: 3_600)))
        #expect(try await acquire(user, at: 3_600) == .limited(retryAt: start.addingTimeInterval(3_610)))
    }

    @Test("a released use frees its slot; users are counted apart")
    func releaseAndUsers() async throws {
        let user = try await stores.makeUser()
        let other = try await stores.makeUser()
        var last: RateLimitDecision?
        for seconds in [0.0, 1, 2] { last = try await acquire(user, at: seconds) }
        #expect(!isAllowed(try await acquire(user, at: 3)))
        #expect(isAllowed(try await acquire(other, at: 3)))
        guard case .allowed(let id) = last else { Issue.record("the third use was refused"); return }
        try await limits.release(id)
        try await limits.release(id)  // Unknown by now: no error.
        #expect(isAllowed(try await acquire(user, at: 4)))
    }

    @Test("a deleted user's counts go with the user")
    func cascade() async throws {
        let user = try await stores.makeUser()
        _ = try await acquire(user, at: 0)
        try await stores.database.writer.write { db in
            try db.execute(sql: "DELETE FROM users WHERE id = ?", arguments: [WireFormat.idText(user)])
        }
        let rows = try await stores.database.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM rateLimitEvents") }
        #expect(rows == 0)
    }
}
