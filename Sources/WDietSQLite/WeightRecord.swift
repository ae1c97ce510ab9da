import Foundation
import GRDB
import WDietCore
import WDietStore

/// A row of `weights`, column for column.
struct WeightRecord: UserOwnedRecord {
    static let databaseTableName = "weights"
    static let displayName = "Weight entry"

    var id: String
    var userId: String
    var kg: Double
    var loggedAt: String
    var localDate: String
    var createdAt: String
    var updatedAt: String
    var version: Int64
    var deletedAt: String?

    enum Columns {
        static let userId = Column(CodingKeys.userId)
        static let loggedAt = Column(CodingKeys.loggedAt)
        static let version = Column(CodingKeys.version)
        static let deletedAt = Column(CodingKeys.deletedAt)
    }

    /// A record for saving; the bookkeeping columns are filled in by `save(_:in:now:)`.
    init(_ entry: WeightEntry, userId: UUID, localDate: LocalDate) {
        id = AppDatabase.idText(entry.id)
        self.userId = AppDatabase.idText(userId)
        kg = entry.kg
        loggedAt = AppDatabase.instantText(entry.loggedAt)
        self.localDate = localDate.iso
        createdAt = ""
        updatedAt = ""
        version = 0
        deletedAt = nil
    }

    /// Column by column rather than through `Decodable`: the dashboard decodes weights on every load.
    init(row: Row) throws {
        id = row["id"]
        userId = row["userId"]
        kg = row["kg"]
        loggedAt = row["loggedAt"]
        localDate = row["localDate"]
        createdAt = row["createdAt"]
        updatedAt = row["updatedAt"]
        version = row["version"]
        deletedAt = row["deletedAt"]
    }

    func updateRow(_ db: Database) throws {
        let statement = try db.cachedStatement(sql: """
            UPDATE weights SET userId = ?, kg = ?, loggedAt = ?, localDate = ?, createdAt = ?, updatedAt = ?, version = ?,
                deletedAt = ?
            WHERE id = ?
            """)
        try statement.execute(arguments: [userId, kg, loggedAt, localDate, createdAt, updatedAt, version, deletedAt, id])
    }

    func stored() throws -> StoredWeight {
        let entry = WeightEntry(
            id: try AppDatabase.id(fromText: id), kg: kg, loggedAt: try AppDatabase.instant(fromStoredText: loggedAt)
        )
        return StoredWeight(
            entry: entry, userId: try AppDatabase.id(fromText: userId),
            localDate: try AppDatabase.localDate(fromText: localDate), version: version,
            createdAt: try AppDatabase.instant(fromStoredText: createdAt),
            updatedAt: try AppDatabase.instant(fromStoredText: updatedAt),
            deletedAt: try deletedAt.map(AppDatabase.instant(fromStoredText:))
        )
    }
}
