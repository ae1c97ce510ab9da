import Foundation
import GRDB
import WDietStore

/// A row of `users`, column for column.
struct UserRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "users"

    var id: String
    var email: String?
    var displayName: String
    var createdAt: String
    var updatedAt: String
    var version: Int64
    var deletedAt: String?

    enum Columns {
        static let email = Column(CodingKeys.email)
        static let deletedAt = Column(CodingKeys.deletedAt)
    }

    func user() throws -> User {
        User(
            id: try AppDatabase.id(fromText: id), email: email, displayName: displayName,
            createdAt: try AppDatabase.instant(fromStoredText: createdAt),
            updatedAt: try AppDatabase.instant(fromStoredText: updatedAt), version: version
        )
    }
}
