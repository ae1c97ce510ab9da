import Foundation
import GRDB
import WDietStore

/// `TipStore` on the SQLite gatekeeper.
public struct SQLiteTipStore: TipStore {
    let database: AppDatabase
    let now: @Sendable () -> Date

    /// `now` stamps `dismissedAt`; tests pass a fixed clock.
    public init(database: AppDatabase, now: @escaping @Sendable () -> Date = Date.init) {
        self.database = database
        self.now = now
    }

    public func dismissTip(_ tip: CoachTip, userId: UUID) async throws {
        let now = AppDatabase.instantText(now())
        let user = AppDatabase.idText(userId)
        try await database.storeWrite { db in
            // A second dismissal is no change: no new version, the first instant kept.
            let known = try Bool.fetchOne(
                db, sql: "SELECT 1 FROM dismissedTips WHERE userId = ? AND tipId = ?", arguments: [user, tip.rawValue]
            ) ?? false
            guard !known else { return }
            try db.execute(
                sql: "INSERT INTO dismissedTips (userId, tipId, dismissedAt, version) VALUES (?, ?, ?, ?)",
                arguments: [user, tip.rawValue, now, AppDatabase.nextVersion(db)]
            )
        }
    }

    public func dismissedTips(userId: UUID) async throws -> [CoachTip] {
        let ids = try await database.storeRead { db in
            try String.fetchAll(db, sql: "SELECT tipId FROM dismissedTips WHERE userId = ?", arguments: [AppDatabase.idText(userId)])
        }
        let dismissed = Set(ids)
        // Ids a newer version added are left to that version to read.
        return CoachTip.allCases.filter { dismissed.contains($0.rawValue) }
    }
}
