import GRDB

/// A row of `credentials`, column for column.
struct CredentialRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "credentials"

    var userId: String
    var passwordHash: String
    var updatedAt: String
}
