import Foundation
import Testing
import WDietStore
import WDietTestSupport

/// `TipStore` on SQLite and PostgreSQL: dismissed once per user.
@Suite("Tip store conformance")
struct TipStoreConformanceTests {
    @Test("a new user has dismissed nothing; dismissals come back in the tips' order", arguments: AccountBackendKind.allCases)
    func dismissAndList(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            let user = try await b.makeUser()
            #expect(try await b.tips.dismissedTips(userId: user) == [])
            try await b.tips.dismissTip(.firstWeeklyAverage, userId: user)
            try await b.tips.dismissTip(.eatingWindow, userId: user)
            #expect(try await b.tips.dismissedTips(userId: user) == [.eatingWindow, .firstWeeklyAverage])
        }
    }

    @Test("dismissing again keeps the first dismissal and draws no new version", arguments: AccountBackendKind.allCases)
    func idempotent(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            let user = try await b.makeUser()
            try await b.tips.dismissTip(.eatingWindow, userId: user)
            let counter = try await b.versionCounter(userId: user)
            b.clock.advance(seconds: 3_600)
            try await b.tips.dismissTip(.eatingWindow, userId: user)

            let rows = try await b.dismissedTipRows()
            #expect(rows == [.init(tipId: "eating-window", dismissedAt: Fixtures.utc("2026-03-01T09:00:00Z"), version: counter)])
            #expect(try await b.versionCounter(userId: user) == counter)
            // A new dismissal draws the next version.
            try await b.tips.dismissTip(.learnWelcome, userId: user)
            #expect(try await b.dismissedTipRows().map(\.version) == [counter, counter + 1])
        }
    }

    @Test("one user's dismissals never show up for another", arguments: AccountBackendKind.allCases)
    func scopedToTheUser(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            let ana = try await b.makeUser()
            let ben = try await b.makeUser()
            try await b.tips.dismissTip(.learnWelcome, userId: ana)
            #expect(try await b.tips.dismissedTips(userId: ana) == [.learnWelcome])
            #expect(try await b.tips.dismissedTips(userId: ben) == [])
        }
    }

    @Test("an id written by a newer version is left alone, not an error", arguments: AccountBackendKind.allCases)
    func unknownStoredIds(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            let user = try await b.makeUser()
            try await b.tips.dismissTip(.firstPhaseSwitch, userId: user)
            try await b.insertFutureTip(userId: user)
            #expect(try await b.tips.dismissedTips(userId: user) == [.firstPhaseSwitch])
        }
    }

    @Test("a user that does not exist cannot dismiss anything", arguments: AccountBackendKind.allCases)
    func unknownUser(_ kind: AccountBackendKind) async throws {
        try await AccountStoresBackend.with(kind) { b in
            await #expect(throws: StoreError.notFound("User not found")) {
                try await b.tips.dismissTip(.eatingWindow, userId: UUID())
            }
            let stored = try await b.count(.dismissedTips)
            #expect(stored == 0)
        }
    }
}
