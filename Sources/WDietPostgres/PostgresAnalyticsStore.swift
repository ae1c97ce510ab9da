import Foundation
import Logging
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

    /// One statement, committed on its own: an event rides along with most user actions (a meal save, a weight),
    /// and as a transaction of its own (BEGIN, owner check, version, insert, COMMIT) it was five round trips after
    /// the action's. The statement sees who holds the id, takes the user's next version only when nobody does (the
    /// UPDATE's row lock orders the user's writers as `nextVersion` does), and inserts.
    public func recordEvent(_ event: AnalyticsEvent, userId: UUID) async throws {
        let query = try Self.insertQuery(event, userId: userId, now: PostgresInstant(now()))
        let outcome = try await access.run { client in
            try await Self.outcome(of: client.query(query, logger: access.logger))
        }
        guard try Self.needsRecheck(outcome, userId: userId) else { return }
        // Recorded meanwhile by another request (after this statement's snapshot): the same as finding it.
        let current = try await access.run { client -> UUID? in
            let rows = try await client.query("SELECT user_id FROM analytics_events WHERE id = \(event.id)", logger: access.logger)
            for try await owner in rows.decode(UUID.self) { return owner }
            return nil
        }
        guard current == userId else { throw Self.idInUse }
    }

    /// Records an action's event inside the action's transaction (a meal's, a weight's), in a savepoint of its own:
    /// nil when it is stored (or was already there), else why not; the action's rows are never undone by it.
    /// Throws only when the transaction itself is broken (the savepoint cannot be set or rolled back to).
    static func recordAlongside(_ event: AnalyticsEvent, userId: UUID, now: Date, on connection: PostgresConnection, logger: Logger) async throws -> (any Error)? {
        try await connection.query("SAVEPOINT action_event", logger: logger)
        do {
            let outcome = try await outcome(of: connection.query(insertQuery(event, userId: userId, now: PostgresInstant(now)), logger: logger))
            // Inserted by another transaction after this one's snapshot (a concurrent retry of a client's id):
            // reported rather than looked at again, since the action must not wait for it.
            if try needsRecheck(outcome, userId: userId) { throw idInUse }
            return nil
        } catch {
            try await connection.query("ROLLBACK TO SAVEPOINT action_event", logger: logger)
            return error
        }
    }

    /// The statement of `recordEvent` and `recordAlongside`.
    static func insertQuery(_ event: AnalyticsEvent, userId: UUID, now: PostgresInstant) throws -> PostgresQuery {
        let properties = try propertiesJSON(event)
        return """
            WITH existing AS (SELECT user_id FROM analytics_events WHERE id = \(event.id)),
            version AS (
                UPDATE users SET last_version = last_version + 1
                WHERE id = \(userId) AND NOT EXISTS (SELECT 1 FROM existing)
                RETURNING last_version
            ),
            inserted AS (
                INSERT INTO analytics_events (id, user_id, name, properties, occurred_at, created_at, updated_at, version)
                SELECT \(event.id), \(userId), \(event.name.rawValue), \(properties)::jsonb,
                    \(PostgresInstant(event.occurredAt)), \(now), \(now), last_version
                FROM version
                ON CONFLICT (id) DO NOTHING RETURNING 1
            )
            SELECT (SELECT user_id FROM existing), (SELECT count(*) FROM version), (SELECT count(*) FROM inserted)
            """
    }

    /// What `insertQuery` found: the id's owner before it, whether it drew a version, whether it inserted.
    typealias InsertOutcome = (owner: UUID?, versioned: Int64, inserted: Int64)

    static func outcome(of rows: PostgresRowSequence) async throws -> InsertOutcome {
        for try await row in rows.decode((UUID?, Int64, Int64).self) { return row }
        throw StoreError.unavailable("The event was not recorded")
    }

    /// Throws when the outcome refuses the event; true when another request inserted the same id after the
    /// statement's snapshot, so that only a second look tells whose it is.
    static func needsRecheck(_ outcome: InsertOutcome, userId: UUID) throws -> Bool {
        if outcome.inserted == 1 { return false }
        // A retried upload records the event once, without a new version.
        if let owner = outcome.owner {
            guard owner == userId else { throw idInUse }
            return false
        }
        guard outcome.versioned == 1 else { throw PostgresStoreAccess.userNotFound }
        return true
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

    /// The event's properties as the JSON text bound for the `jsonb` column (keys sorted, so equal sets are equal
    /// text). Written by hand: a flat object of strings needs no `JSONEncoder`, whose set-up and generic encoding were
    /// 3 % of a meal save's server CPU (`perf`, docs/benchmarks.md). PostgreSQL parses it into the same `jsonb` value
    /// as the encoder's text (`AnalyticsPropertiesJSONTests`).
    static func propertiesJSON(_ event: AnalyticsEvent) throws -> String {
        var json = "{"
        for (index, key) in event.properties.keys.sorted().enumerated() {
            if index > 0 { json += "," }
            appendJSONString(key, to: &json)
            json += ":"
            appendJSONString(event.properties[key]!, to: &json)
        }
        return json + "}"
    }

    /// `text` as a JSON string: quote and backslash escaped, control characters as `\u00XX`, everything else as it is.
    static func appendJSONString(_ text: String, to json: inout String) {
        json += "\""
        var plainStart = text.unicodeScalars.startIndex
        for index in text.unicodeScalars.indices {
            let scalar = text.unicodeScalars[index]
            guard scalar == "\"" || scalar == "\\" || scalar.value < 0x20 else { continue }
            json.unicodeScalars.append(contentsOf: text.unicodeScalars[plainStart..<index])
            switch scalar {
            case "\"": json += "\\\""
            case "\\": json += "\\\\"
            default:
                let hex = String(scalar.value, radix: 16)
                json += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
            plainStart = text.unicodeScalars.index(after: index)
        }
        json.unicodeScalars.append(contentsOf: text.unicodeScalars[plainStart...])
        json += "\""
    }
}
