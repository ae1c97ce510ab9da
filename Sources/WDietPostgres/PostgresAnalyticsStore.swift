import Foundation
import PostgresNIO
import WDietStore

/// `AnalyticsStore` on PostgreSQL. `properties` is a jsonb object of strings.
public struct PostgresAnalyticsStore: AnalyticsStore {
    let access: PostgresStoreAccess
    let now: @Sendable () -> Date

    /// `now` stamps `created_at`; tests pass a fixed clock.
    public init(client: PostgresClient, now: @escaping @Sendable () -> Date = Date.init) {
        access = PostgresStoreAccess(client: client, label: "wdiet.postgres.analytics")
        self.now = now
    }

    static let idInUse = StoreError.conflict("This id is already in use")

    public func recordEvent(_ event: AnalyticsEvent, userId: UUID) async throws {
        let now = PostgresInstant(now())
        let properties = try Self.propertiesJSON(event)
        try await access.transaction { connection in
            // A retried upload records the event once, without a new version.
            if let owner = try await owner(connection, eventId: event.id) {
                guard owner == userId else { throw Self.idInUse }
                return
            }
            let version = try await access.nextVersion(connection, userId: userId)
            let inserted = try await connection.query("""
                INSERT INTO analytics_events (id, user_id, name, properties, occurred_at, created_at, updated_at, version)
                VALUES (\(event.id), \(userId), \(event.name.rawValue), \(properties)::jsonb,
                    \(PostgresInstant(event.occurredAt)), \(now), \(now), \(version))
                ON CONFLICT (id) DO NOTHING RETURNING 1
                """, logger: access.logger)
            for try await _ in inserted.decode(Int.self) { return }
            // Recorded meanwhile by another request: the same as finding it above.
            guard try await owner(connection, eventId: event.id) == userId else { throw Self.idInUse }
        }
    }

    public func events(userId: UUID) async throws -> [AnalyticsEvent] {
        try await access.run { client in
            try await Self.events(client.query(Self.eventsQuery(userId: userId), logger: access.logger))
        }
    }

    /// The user's live events of the names this version knows, oldest first; the user-data export runs the same
    /// query in its snapshot. (Names a newer version added are left to that version to read.)
    static func eventsQuery(userId: UUID) -> PostgresQuery {
        """
        SELECT id, name, properties::text, occurred_at FROM analytics_events
        WHERE user_id = \(userId) AND name = ANY(\(AnalyticsEventName.allCases.map(\.rawValue))) AND deleted_at IS NULL
        ORDER BY occurred_at, version
        """
    }

    /// Decodes the rows of `eventsQuery`.
    static func events(_ rows: PostgresRowSequence) async throws -> [AnalyticsEvent] {
        var events: [AnalyticsEvent] = []
        for try await (id, name, properties, occurred) in rows.decode((UUID, String, String, PostgresInstant).self) {
            guard let name = AnalyticsEventName(rawValue: name),
                let properties = try? JSONDecoder().decode([String: String].self, from: Data(properties.utf8))
            else { throw PostgresStoreErrors.unreadable }
            events.append(AnalyticsEvent(id: id, name: name, properties: properties, occurredAt: occurred.date))
        }
        return events
    }

    /// The event's properties as the jsonb text the table stores (keys sorted, so equal sets are equal text).
    static func propertiesJSON(_ event: AnalyticsEvent) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(event.properties), as: UTF8.self)
    }

    func owner(_ connection: PostgresConnection, eventId: UUID) async throws -> UUID? {
        let rows = try await connection.query(
            "SELECT user_id FROM analytics_events WHERE id = \(eventId)", logger: access.logger)
        for try await owner in rows.decode(UUID.self) { return owner }
        return nil
    }
}
