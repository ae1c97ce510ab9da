import Foundation
import PostgresNIO
import WDietStore

/// `TipStore` on PostgreSQL.
public struct PostgresTipStore: TipStore {
    let access: PostgresStoreAccess
    let now: @Sendable () -> Date

    /// `now` stamps `dismissed_at`; tests pass a fixed clock.
    public init(client: PostgresClient, now: @escaping @Sendable () -> Date = Date.init) {
        access = PostgresStoreAccess(client: client, label: "wdiet.postgres.tips")
        self.now = now
    }

    public func dismissTip(_ tip: CoachTip, userId: UUID) async throws {
        let now = PostgresInstant(now())
        try await access.transaction { connection in
            // A second dismissal is no change: no new version, the first instant kept.
            let known = try await connection.query(
                "SELECT 1 FROM dismissed_tips WHERE user_id = \(userId) AND tip_id = \(tip.rawValue)", logger: access.logger)
            for try await _ in known.decode(Int.self) { return }
            let version = try await access.nextVersion(connection, userId: userId)
            // Two dismissals at once: the user's row lock orders them, and the later one changes nothing.
            try await connection.query("""
                INSERT INTO dismissed_tips (user_id, tip_id, dismissed_at, version)
                VALUES (\(userId), \(tip.rawValue), \(now), \(version))
                ON CONFLICT (user_id, tip_id) DO NOTHING
                """, logger: access.logger)
        }
    }

    public func dismissedTips(userId: UUID) async throws -> [CoachTip] {
        let ids = try await access.run { client in
            let rows = try await client.query(
                "SELECT tip_id FROM dismissed_tips WHERE user_id = \(userId)", logger: access.logger)
            var ids = Set<String>()
            for try await id in rows.decode(String.self) { ids.insert(id) }
            return ids
        }
        // Ids a newer version added are left to that version to read.
        return CoachTip.allCases.filter { ids.contains($0.rawValue) }
    }
}
