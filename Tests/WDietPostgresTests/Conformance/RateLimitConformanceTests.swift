import Foundation
import Testing
import WDietStore
import WDietTestSupport

/// `RateLimitStore` (001 §12.7's profile limit is 10 an hour) on SQLite and PostgreSQL.
@Suite("Rate limit conformance: a sliding window per user and action")
struct RateLimitConformanceTests {
    static let start = Fixtures.utc("2026-03-01T09:00:00Z")

    static func acquire(
        _ store: any RateLimitStore, _ user: UUID, at seconds: TimeInterval, limit: Int = 3
    ) async throws -> RateLimitDecision {
        try await store.acquire(.profileUpdate, userId: user, limit: limit, window: 3_600, now: start + seconds)
    }

    static func isAllowed(_ decision: RateLimitDecision) -> Bool {
        if case .allowed = decision { true } else { false }
    }

    @Test("three in the window, the fourth waits for the oldest; a use exactly an hour old has left the window",
          arguments: AccountBackendKind.allCases)
    func window(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            let user = try await b.makeUser()
            for seconds in [0.0, 10, 20] { #expect(Self.isAllowed(try await Self.acquire(b.rateLimits, user, at: seconds))) }
            #expect(try await Self.acquire(b.rateLimits, user, at: 30) == .limited(retryAt: Self.start + 3_600))
            #expect(try await Self.acquire(b.rateLimits, user, at: 3_599.999) == .limited(retryAt: Self.start + 3_600))
            #expect(Self.isAllowed(try await Self.acquire(b.rateLimits, user, at: 3_600)))
            #expect(try await Self.acquire(b.rateLimits, user, at: 3_600) == .limited(retryAt: Self.start + 3_610))
            // The refused attempts counted nothing: the uses at 10, 20 and 3600 remain.
            #expect(try await b.count(.rateLimitEvents) == 3)
        }
    }

    @Test("a released use frees its slot; users are counted apart", arguments: AccountBackendKind.allCases)
    func releaseAndUsers(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            let user = try await b.makeUser()
            let other = try await b.makeUser()
            var last: RateLimitDecision?
            for seconds in [0.0, 1, 2] { last = try await Self.acquire(b.rateLimits, user, at: seconds) }
            #expect(!Self.isAllowed(try await Self.acquire(b.rateLimits, user, at: 3)))
            #expect(Self.isAllowed(try await Self.acquire(b.rateLimits, other, at: 3)))
            guard case .allowed(let id) = last else { Issue.record("the third use was refused"); return }
            try await b.rateLimits.release(id)
            try await b.rateLimits.release(id)  // Unknown by now: no error.
            #expect(Self.isAllowed(try await Self.acquire(b.rateLimits, user, at: 4)))
        }
    }

    @Test("an unknown user cannot take a slot", arguments: AccountBackendKind.allCases)
    func unknownUser(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            await #expect(throws: StoreError.notFound("User not found")) {
                try await Self.acquire(b.rateLimits, UUID(), at: 0)
            }
        }
    }

    @Test("a deleted user's counts go with the user", arguments: AccountBackendKind.allCases)
    func cascade(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            let user = try await b.makeUser()
            _ = try await Self.acquire(b.rateLimits, user, at: 0)
            #expect(try await b.count(.rateLimitEvents) == 1)
            try await b.deleteUser(user)
            #expect(try await b.count(.rateLimitEvents) == 0)
        }
    }

    @Test("two processes racing for the last slots never take more than the limit", arguments: AccountBackendKind.allCases)
    func concurrentAcquiresKeepTheLimit(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            let user = try await b.makeUser()
            let other = try await b.otherProcess().rateLimits
            let stores = [b.rateLimits, other]
            let allowed = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<16 {
                    let store = stores[index % 2]
                    group.addTask { Self.isAllowed(try await Self.acquire(store, user, at: 1, limit: 5)) }
                }
                var allowed = 0
                for try await wasAllowed in group where wasAllowed { allowed += 1 }
                return allowed
            }
            #expect(allowed == 5)
            #expect(try await b.count(.rateLimitEvents) == 5)
        }
    }
}
