import Foundation
import GRDB
import Testing
import WDietSQLite
import WDietStore
import WDietTestSupport

@Suite("Tip store: dismissed once per user")
struct TipStoreTests {
    let stores: CoachTestStores
    let tips: any TipStore

    init() throws {
        stores = try CoachTestStores()
        tips = SQLiteTipStore(database: stores.database, now: stores.clock.closure)
    }

    @Test("the raw ids are the ones the pages name in data-tip")
    func tipIds() {
        #expect(CoachTip.allCases.map(\.rawValue) == ["eating-window", "first-phase-switch", "first-weekly-average", "learn-welcome"])
    }

    @Test("a new user has dismissed nothing; dismissals come back in the tips' order")
    func dismissAndList() async throws {
        let user = try await stores.makeUser()
        #expect(try await tips.dismissedTips(userId: user) == [])

        try await tips.dismissTip(.firstWeeklyAverage, userId: user)
        try await tips.dismissTip(.eatingWindow, userId: user)

        #expect(try await tips.dismissedTips(userId: user) == [.eatingWindow, .firstWeeklyAverage])
    }

    @Test("dismissing again keeps the first dismissal and draws no new version")
    func idempotent() async throws {
        let user = try await stores.makeUser()
        try await tips.dismissTip(.eatingWindow, userId: user)
        stores.clock.advance(seconds: 3600)
        try await tips.dismissTip(.eatingWindow, userId: user)

        let rows = try await stores.database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT tipId, dismissedAt, version FROM dismissedTips")
        }
        #expect(rows.count == 1)
        #expect(rows.first?["dismissedAt"] == "2026-03-01T09:00:00.000Z")
        let counter = try await stores.database.writer.read { db in try Int64.fetchOne(db, sql: "SELECT value FROM syncVersion") }
        #expect(rows.first?["version"] == counter)
    }

    @Test("one user's dismissals never show up for another")
    func scopedToTheUser() async throws {
        let ana = try await stores.makeUser()
        let ben = try await stores.makeUser()
        try await tips.dismissTip(.learnWelcome, userId: ana)

        #expect(try await tips.dismissedTips(userId: ana) == [.learnWelcome])
        #expect(try await tips.dismissedTips(userId: ben) == [])
    }

    @Test("an id written by a newer version is left alone, not an error")
    func unknownStoredIds() async throws {
        let user = try await stores.makeUser()
        try await tips.dismissTip(.firstPhaseSwitch, userId: user)
        try await stores.database.writer.write { db in
            try db.execute(
                sql: "INSERT INTO dismissedTips (userId, tipId, dismissedAt, version) VALUES (?, 'future-tip', '2026-03-01T09:00:00.000Z', 99)",
                arguments: [user.uuidString.lowercased()]
            )
        }
        #expect(try await tips.dismissedTips(userId: user) == [.firstPhaseSwitch])
    }

    @Test("a user that does not exist cannot dismiss anything")
    func unknownUser() async throws {
        await #expect(throws: StoreError.self) {
            try await tips.dismissTip(.eatingWindow, userId: UUID())
        }
    }
}
