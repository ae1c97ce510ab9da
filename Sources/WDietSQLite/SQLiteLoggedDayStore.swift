import Foundation
import GRDB
import WDietCore
import WDietStore

/// `LoggedDayStore` on the SQLite gatekeeper, over the `loggedDays` table that triggers keep in step with
/// meals and weights (migration "v3-logged-days").
public struct SQLiteLoggedDayStore: LoggedDayStore {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func loggedDays(userId: UUID, in range: ClosedRange<LocalDate>) async throws -> Set<LocalDate> {
        let (user, first, last) = (AppDatabase.idText(userId), range.lowerBound.iso, range.upperBound.iso)
        let texts = try await database.storeRead { db in
            try String.fetchAll(db, sql: """
                SELECT localDate FROM loggedDays WHERE userId = ? AND localDate BETWEEN ? AND ?
                """, arguments: [user, first, last])
        }
        return Set(try texts.map(AppDatabase.localDate(fromText:)))
    }

    public func latestRun(userId: UUID, through date: LocalDate) async throws -> [LocalDate] {
        try await database.storeRead { db in try Self.latestRun(userId: userId, through: date, in: db) }
    }

    /// The read itself, for callers that combine several reads in one snapshot.
    static func latestRun(userId: UUID, through date: LocalDate, in db: Database) throws -> [LocalDate] {
        // Walks the primary key backwards and stops at the first gap: a streak of n days reads n rows.
        let statement = try db.cachedStatement(sql: """
            SELECT localDate FROM loggedDays WHERE userId = ? AND localDate <= ? ORDER BY localDate DESC
            """)
        let dates = try String.fetchCursor(statement, arguments: [AppDatabase.idText(userId), date.iso])
        var run: [LocalDate] = []
        while let text = try dates.next() {
            let day = try AppDatabase.localDate(fromText: text)
            if let previous = run.last, previous.adding(days: -1) != day { break }
            run.append(day)
        }
        return run
    }
}
