import Foundation
import GRDB
import WDietStore

/// A row of `sessions`, column for column.
struct SessionRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "sessions"

    var tokenHash: String
    var userId: String
    var kind: String
    var createdAt: String
    var expiresAt: String
    var lastUsedAt: String

    enum Columns {
        static let tokenHash = Column(CodingKeys.tokenHash)
        static let userId = Column(CodingKeys.userId)
        static let expiresAt = Column(CodingKeys.expiresAt)
        static let lastUsedAt = Column(CodingKeys.lastUsedAt)
    }

    init(_ session: AccountSession) {
        tokenHash = session.tokenHash
        userId = AppDatabase.idText(session.userId)
        kind = session.kind.rawValue
        createdAt = AppDatabase.instantText(session.createdAt)
        expiresAt = AppDatabase.instantText(session.expiresAt)
        lastUsedAt = AppDatabase.instantText(session.lastUsedAt)
    }

    /// Nil for a kind this version does not know: such a session signs nobody in.
    func session() throws -> AccountSession? {
        guard let kind = AccountSession.Kind(rawValue: kind) else { return nil }
        return AccountSession(
            tokenHash: tokenHash, userId: try AppDatabase.id(fromText: userId), kind: kind,
            createdAt: try AppDatabase.instant(fromStoredText: createdAt),
            expiresAt: try AppDatabase.instant(fromStoredText: expiresAt),
            lastUsedAt: try AppDatabase.instant(fromStoredText: lastUsedAt)
        )
    }
}
