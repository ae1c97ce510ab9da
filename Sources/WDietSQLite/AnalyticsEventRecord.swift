import Foundation
import GRDB
import WDietStore

/// A row of `analytics_events`, column for column. `properties` is a JSON object of strings.
struct AnalyticsEventRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "analytics_events"

    var id: String
    var userId: String
    var name: String
    var properties: String
    var occurredAt: String
    var createdAt: String
    var updatedAt: String
    var version: Int64
    var deletedAt: String?

    enum Columns {
        static let userId = Column(CodingKeys.userId)
        static let name = Column(CodingKeys.name)
        static let occurredAt = Column(CodingKeys.occurredAt)
        static let version = Column(CodingKeys.version)
        static let deletedAt = Column(CodingKeys.deletedAt)
    }

    init(_ event: AnalyticsEvent, userId: UUID, createdAt: String, version: Int64) throws {
        id = AppDatabase.idText(event.id)
        self.userId = AppDatabase.idText(userId)
        name = event.name.rawValue
        properties = String(decoding: try Self.propertiesEncoder.encode(event.properties), as: UTF8.self)
        occurredAt = AppDatabase.instantText(event.occurredAt)
        self.createdAt = createdAt
        updatedAt = createdAt
        self.version = version
        deletedAt = nil
    }

    /// Sorted keys: the same event is always the same text, which keeps exports and diffs stable. One encoder for
    /// the process (thread-safe once configured): every meal and weight save records an event, and building a
    /// `JSONEncoder` cost more than encoding with it.
    private static let propertiesEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    /// Every meal and weight save inserts one: a cached statement rather than `insert`, which encodes the record
    /// through `Encodable` and spells its SQL anew on every call.
    func insertRow(_ db: Database) throws {
        let statement = try db.cachedStatement(sql: """
            INSERT INTO analytics_events (id, userId, name, properties, occurredAt, createdAt, updatedAt, version, deletedAt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        try statement.execute(arguments: [id, userId, name, properties, occurredAt, createdAt, updatedAt, version, deletedAt])
    }

    func event() throws -> AnalyticsEvent {
        guard let name = AnalyticsEventName(rawValue: name),
              let properties = try? JSONDecoder().decode([String: String].self, from: Data(properties.utf8))
        else { throw AppDatabase.unreadable }
        return AnalyticsEvent(
            id: try AppDatabase.id(fromText: id), name: name, properties: properties,
            occurredAt: try AppDatabase.instant(fromStoredText: occurredAt)
        )
    }
}
