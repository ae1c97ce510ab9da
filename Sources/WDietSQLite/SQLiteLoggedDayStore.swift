import Foundation
import GRDB
import WDietCore
import WDietStore

/// `LoggedDayStore` on the SQLite gatekeeper: a union of two index range scans on (userId, localDate).
public struct SQLiteLoggedDayStore: LoggedDayStore {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func loggedDays(userId: UUID, in range: ClosedRange<LocalDate>) async throws -> Set<LocalDate> {
        let (user, first, last) = (AppDatabase.idText(userId), range.lowerBound.iso, range.upperBound.iso)
        let texts = try await database.storeRead { db in
            try String.fetchAll(db, sql: """
                SELECT localDate FROM meals
                WHERE userId = ?1 AND localDate BETWEEN ?2 AND ?3 AND deletedAt IS NULL
                UNION
                SELECT localDate FROM weights
                WHERE userId = ?1 AND localDate BETWEEN ?2 AND ?3 AND deletedAt IS NULL
                """, arguments: [user, first, last])
        }
        return Set(try texts.map(AppDatabase.localDate(fromText:)))
    }
}
