import Foundation
import Logging
import PostgresNIO
import WDietStore

/// Each user's change counter, `users.last_version` (see `PostgresCoachSchema`). A write transaction locks the
/// owning user's row before anything else, decides what changes, then takes the next n versions in one
/// `UPDATE … RETURNING`: the row lock serialises one user's writers, so one user's versions grow in commit order.
enum PostgresUserVersions {
    /// Locks the user's row until the transaction ends; false when there is no such user.
    static func lock(_ userId: UUID, on connection: PostgresConnection, logger: Logger) async throws -> Bool {
        // NO KEY UPDATE, as the UPDATE below takes it: inserts referencing the user only need KEY SHARE.
        let rows = try await connection.query(
            "SELECT last_version FROM users WHERE id = \(userId) FOR NO KEY UPDATE", logger: logger)
        for try await _ in rows { return true }
        return false
    }

    /// Takes `count` versions for the user's rows and returns the last; the caller stamps its rows with
    /// `last - count + 1 ... last`, in order.
    static func next(_ count: Int, for userId: UUID, on connection: PostgresConnection, logger: Logger) async throws -> Int64 {
        let rows = try await connection.query(
            "UPDATE users SET last_version = last_version + \(Int64(count)) WHERE id = \(userId) RETURNING last_version",
            logger: logger)
        for try await last in rows.decode(Int64.self) { return last }
        throw StoreError.notFound("User not found")
    }
}

/// A user-owned row that syncs (meals, weights): the write rules `UserOwnedRecord` gives the SQLite store.
protocol PostgresOwnedRow: Equatable, Sendable {
    /// How messages name the row: "Meal not found".
    static var displayName: String { get }

    var rowId: UUID { get }
    var userId: UUID { get }
    var createdAt: Date { get set }
    var updatedAt: Date { get set }
    var version: Int64 { get set }
    var deletedAt: Date? { get set }

    /// The table, and its columns in the order `appendValues` binds them.
    static var table: String { get }
    static var columns: String { get }
    static var columnCount: Int { get }
    /// `makeInsertNewWithEventSQL()`, made once per type (`static let`): built per save, it was 6 % of a meal save's
    /// server CPU.
    static var insertNewWithEventSQL: String { get }
    /// The prepared statement's name for it (`wdiet_insert_<table>_with_event_v1`), also made once.
    static var insertNewWithEventName: String { get }
    /// The same statement checking a `DeferredSessionCheck` too (`makeInsertNewWithEventSQL(checkingSession: true)`),
    /// and its name, both made once per type.
    static var insertNewWithEventCheckingSessionSQL: String { get }
    static var insertNewWithEventCheckingSessionName: String { get }

    /// The rows with these ids, whoever's they are.
    static func fetch(ids: [UUID], on connection: PostgresConnection, logger: Logger) async throws -> [UUID: Self]
    /// Binds every column of the row, in `columns` order, for `insert`.
    func appendValues(to bindings: inout PostgresBindings)
    /// Writes every column of the row with this id and user.
    func update(on connection: PostgresConnection, logger: Logger) async throws
}

extension PostgresOwnedRow {
    /// Saves this row (`save`) and records the event of that moment with it, in one commit.
    ///
    /// A new row (the everyday case: a meal or weight just logged) takes one statement (`insertNewWithEvent`).
    /// Anything else (an edit, a retried upload, an id that is someone else's, a user that is gone) finds that
    /// statement inserting nothing and takes the general path: a transaction that saves by `save`'s rules and records
    /// the event in a savepoint of its own (`PostgresAnalyticsStore.recordAlongside`).
    ///
    /// When the request's session is still to be checked (`DeferredSessionCheck.pending`), that statement checks it
    /// too and writes nothing unless it holds (then `DeferredSessionCheck.Refused`); the general path runs only after
    /// it held.
    func saveWithEvent(_ event: AnalyticsEvent, now: Date, client: PostgresClient, logger: Logger) async throws -> SavedWithEvent<Self> {
        let check = DeferredSessionCheck.pending(for: userId)
        let (sessionHeld, inserted) = try await PostgresStoreErrors.guarded(logger) {
            try await insertNewWithEvent(event, now: now, checking: check, client: client, logger: logger)
        }
        if let check {
            check.settle(confirmed: sessionHeld)
            guard sessionHeld else { throw DeferredSessionCheck.Refused() }
        }
        if let inserted { return inserted }
        return try await PostgresStoreErrors.guarded(logger) {
            try await client.withTransaction(logger: logger) { connection in
                guard let saved = try await Self.save([self], userId: userId, now: now, on: connection, logger: logger).first else {
                    throw StoreError.unavailable("The row was not saved")
                }
                let eventError = try await PostgresAnalyticsStore.recordAlongside(event, userId: userId, now: now, on: connection, logger: logger)
                return SavedWithEvent(row: saved, eventError: eventError)
            }
        }
    }

    /// One round trip for a new row and its event: the user's versions drawn (one for the row, one for the event
    /// unless its id is already stored), the row inserted and the event inserted, in one statement that commits on
    /// its own. The `UPDATE` of the user's row takes the same row lock `save` takes, so one user's versions still grow
    /// in commit order. Nil when it inserted no row (the id exists, or no such user): nothing was written then, and
    /// the caller takes the general path.
    ///
    /// Measured on the meal save (docs/benchmarks.md): the transaction of `save` plus `recordAlongside` was nine round
    /// trips (BEGIN, lock, read, version, insert, savepoint, event, release, COMMIT).
    ///
    /// With a `check`, the same statement also checks the request's session (`makeInsertNewWithEventSQL`) and
    /// writes nothing when it does not hold; the first value says whether it held (always true without one).
    func insertNewWithEvent(
        _ event: AnalyticsEvent, now: Date, checking check: DeferredSessionCheck? = nil, client: PostgresClient, logger: Logger
    ) async throws -> (sessionHeld: Bool, saved: SavedWithEvent<Self>?) {
        var row = self
        row.createdAt = now
        row.updatedAt = now
        row.deletedAt = nil
        row.version = 0
        let properties = try PostgresAnalyticsStore.propertiesJSON(event)
        let answer: (version: Int64?, owner: UUID?, recorded: Int64, sessionHeld: Bool)?
        if let check {
            answer = try await Self.firstRow(client.execute(
                InsertNewWithEventCheckingSession(
                    insert: InsertNewWithEvent(row: row, userId: userId, event: event, properties: properties, now: now),
                    check: check),
                logger: logger))
        } else {
            answer = try await Self.firstRow(client.execute(
                InsertNewWithEvent(row: row, userId: userId, event: event, properties: properties, now: now), logger: logger))
                .map { ($0.0, $0.1, $0.2, true) }
        }
        guard let answer else { return (true, nil) }
        guard answer.sessionHeld else { return (false, nil) }
        guard let version = answer.version else { return (true, nil) }
        row.version = version
        let eventError: (any Error)? =
            if answer.recorded == 1 || answer.owner == userId { nil }
            // Someone else's id, or one inserted by another request after this statement began: left out, as
            // `recordAlongside` leaves it.
            else { PostgresAnalyticsStore.idInUse }
        return (true, SavedWithEvent(row: row, eventError: eventError))
    }

    private static func firstRow<Rows: AsyncSequence>(_ rows: Rows) async throws -> Rows.Element? {
        for try await row in rows { return row }
        return nil
    }

    /// The statement of `insertNewWithEvent`, made once per row type: `$1…$n` are the row's columns as
    /// `appendValues` binds them (its `version` is replaced by the drawn one), then the user and the event.
    ///
    /// `checkingSession`: `$n+7…$n+12` are a `DeferredSessionCheck` (`InsertNewWithEventCheckingSession`), checked
    /// as `SessionLookup` reads a session (the token's row of this kind, unexpired, of this live user, with this
    /// language and theme and this live profile version); the user's versions are drawn only when it holds, so
    /// nothing is written otherwise, and a fourth column says whether it held.
    static func makeInsertNewWithEventSQL(checkingSession: Bool = false) -> String {
        let names = columns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        precondition(names.count == columnCount && names.first == "id", "\(Self.self).columns starts with id")
        let n = columnCount
        let values = names.enumerated().map { index, name in
            name == "version" ? "CASE WHEN version.owner IS NULL THEN version.last_version - 1 ELSE version.last_version END" : "$\(index + 1)"
        }.joined(separator: ", ")
        let session = checkingSession ? """
            session_held AS (
                SELECT EXISTS (
                    SELECT 1 FROM sessions s JOIN users u ON u.id = s.user_id
                        LEFT JOIN profiles p ON p.user_id = s.user_id AND p.deleted_at IS NULL
                    WHERE s.token_hash = $\(n + 7) AND s.kind = $\(n + 8) AND s.user_id = $\(n + 1) AND s.expires_at > $\(n + 12)
                        AND u.deleted_at IS NULL AND u.language IS NOT DISTINCT FROM $\(n + 9)::text
                        AND u.appearance IS NOT DISTINCT FROM $\(n + 10)::text AND p.version IS NOT DISTINCT FROM $\(n + 11)::bigint
                ) AS held
            ),

            """ : ""
        return """
            WITH \(session)event_known AS (SELECT (SELECT user_id FROM analytics_events WHERE id = $\(n + 2)) AS owner),
            version AS (
                UPDATE users SET last_version = users.last_version + CASE WHEN event_known.owner IS NULL THEN 2 ELSE 1 END
                FROM event_known\(checkingSession ? ", session_held" : "")
                WHERE users.id = $\(n + 1)\(checkingSession ? " AND session_held.held" : "") AND NOT EXISTS (SELECT 1 FROM \(table) WHERE id = $1)
                RETURNING users.last_version, event_known.owner
            ),
            inserted AS (
                INSERT INTO \(table) (\(names.joined(separator: ", "))) SELECT \(values) FROM version
                ON CONFLICT (id) DO NOTHING RETURNING version, user_id, local_date, deleted_at
            ),
            \(countLoggedDaysSQL(of: "inserted", oneRow: true)),
            event AS (
                INSERT INTO analytics_events (id, user_id, name, properties, occurred_at, created_at, updated_at, version)
                SELECT $\(n + 2), $\(n + 1), $\(n + 3), $\(n + 4)::jsonb, $\(n + 5), $\(n + 6), $\(n + 6), version.last_version
                FROM version WHERE version.owner IS NULL
                ON CONFLICT (id) DO NOTHING RETURNING 1
            )
            SELECT (SELECT version FROM inserted), (SELECT owner FROM event_known), (SELECT count(*) FROM event)\(
                checkingSession ? ", (SELECT held FROM session_held)" : "")
            """
    }

    /// Inserts the rows, or updates the same user's rows with their ids, in the order given, each changed row under
    /// a new version; an identical row keeps the stored one and its version (a retried upload is not a change).
    /// Runs inside the caller's transaction, so a batch is all or none.
    static func save(_ rows: [Self], userId: UUID, now: Date, on connection: PostgresConnection, logger: Logger) async throws -> [Self] {
        guard try await PostgresUserVersions.lock(userId, on: connection, logger: logger) else {
            throw StoreError.notFound("User not found")
        }
        var known = try await fetch(ids: Array(Set(rows.map(\.rowId))), on: connection, logger: logger)
        var results: [Self] = []
        var changes: [(index: Int, isNew: Bool)] = []
        for var row in rows {
            row.deletedAt = nil
            if let existing = known[row.rowId] {
                // Another user's id is refused without touching or revealing that row.
                guard existing.userId == userId else { throw StoreError.conflict("This id is already in use") }
                // A deleted row stays deleted: an edit made offline does not bring back what another device removed.
                guard existing.deletedAt == nil else { throw StoreError.notFound("\(displayName) not found") }
                row.createdAt = existing.createdAt
                row.updatedAt = existing.updatedAt
                row.version = existing.version
                if row == existing {
                    results.append(existing)
                    continue
                }
                row.updatedAt = now
                // A row new in this batch and saved again in it is still inserted once, then updated.
                changes.append((results.count, false))
            } else {
                row.createdAt = now
                row.updatedAt = now
                changes.append((results.count, true))
            }
            results.append(row)
            known[row.rowId] = row
        }
        guard !changes.isEmpty else { return results }
        var version = try await PostgresUserVersions.next(changes.count, for: userId, on: connection, logger: logger)
            - Int64(changes.count)
        for change in changes {
            version += 1
            results[change.index].version = version
        }
        // The new rows in one statement (a day of meals synced in one go, a seeded year), then the edits in order:
        // a row inserted and edited in the same batch ends as the last edit left it, as one by one.
        try await insert(changes.filter(\.isNew).map { results[$0.index] }, on: connection, logger: logger)
        for change in changes where !change.isNew {
            try await results[change.index].update(on: connection, logger: logger)
        }
        return results
    }

    /// The part of a statement that counts the live rows it inserted (`source`: a `WITH` query returning their
    /// `user_id`, `local_date` and `deleted_at`) in `logged_days`, `entries` per (user, day). Every insert into
    /// `meals` and `weights` carries it since migration 50 (`logged-days-in-save`), which dropped the statement
    /// trigger that did it afterwards: the trigger's transition table, PL/pgSQL call and second plan cost about a
    /// tenth of a meal save's database CPU. Edits and deletes keep their row triggers (`logged_days_count`).
    /// `oneRow`: the source holds at most one row, so it needs no grouping.
    static func countLoggedDaysSQL(of source: String, oneRow: Bool) -> String {
        let select = oneRow
            ? "SELECT user_id, local_date, 1 FROM \(source) WHERE deleted_at IS NULL"
            : "SELECT user_id, local_date, count(*) FROM \(source) WHERE deleted_at IS NULL GROUP BY user_id, local_date"
        return """
            counted AS (
                INSERT INTO logged_days (user_id, local_date, entries) \(select)
                ON CONFLICT (user_id, local_date) DO UPDATE SET entries = logged_days.entries + EXCLUDED.entries
            )
            """
    }

    /// Inserts the rows with multi-row `INSERT … VALUES` statements: one round trip and one plan for up to
    /// `rowsPerStatement` rows rather than one each (PostgreSQL takes at most 65,535 parameters a statement), their
    /// live rows counted in `logged_days` by the same statement (`countLoggedDaysSQL`).
    static func insert(_ rows: [Self], on connection: PostgresConnection, logger: Logger) async throws {
        let rowsPerStatement = Int(UInt16.max) / columnCount
        for start in stride(from: 0, to: rows.count, by: rowsPerStatement) {
            let chunk = rows[start..<min(start + rowsPerStatement, rows.count)]
            var sql = "WITH inserted AS (INSERT INTO \(table) (\(columns)) VALUES "
            sql.reserveCapacity(sql.utf8.count + chunk.count * columnCount * 8)
            var bindings = PostgresBindings(capacity: chunk.count * columnCount)
            for (offset, row) in chunk.enumerated() {
                sql += offset == 0 ? "(" : ", ("
                for column in 0..<columnCount {
                    sql += column == 0 ? "$" : ", $"
                    sql += String(offset * columnCount + column + 1)
                }
                sql += ")"
                row.appendValues(to: &bindings)
            }
            sql += " RETURNING user_id, local_date, deleted_at), \(countLoggedDaysSQL(of: "inserted", oneRow: false)) SELECT 1"
            assert(bindings.count == chunk.count * columnCount, "\(Self.self).appendValues binds every column once")
            try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger)
        }
    }

    /// Marks the user's row deleted (`deleted: true`) or brings it back, under a new version; a row already in
    /// that state is returned as it is. Another user's row, or none, is "not found".
    static func setDeleted(_ deleted: Bool, userId: UUID, id: UUID, now: Date, on connection: PostgresConnection, logger: Logger) async throws -> Self {
        let notFound = StoreError.notFound("\(displayName) not found")
        guard try await PostgresUserVersions.lock(userId, on: connection, logger: logger),
              var row = try await fetch(ids: [id], on: connection, logger: logger)[id], row.userId == userId
        else { throw notFound }
        guard (row.deletedAt != nil) != deleted else { return row }
        // A restore past the undo window: the content is scrubbed (or about to be), answered as a missing row.
        if !deleted, let deletedAt = row.deletedAt, DeletedRows.isPastUndo(deletedAt: deletedAt, now: now) { throw notFound }
        row.deletedAt = deleted ? now : nil
        row.updatedAt = now
        row.version = try await PostgresUserVersions.next(1, for: userId, on: connection, logger: logger)
        try await row.update(on: connection, logger: logger)
        return row
    }
}

/// `insertNewWithEvent`'s statement, prepared: planning its four parts anew for every save cost about as much as
/// running them. One per row type (meals, weights), each planned once per connection.
struct InsertNewWithEvent<Row: PostgresOwnedRow>: PostgresPreparedStatement {
    static var name: String { Row.insertNewWithEventName }
    static var sql: String { Row.insertNewWithEventSQL }

    let row: Row
    let userId: UUID
    let event: AnalyticsEvent
    let properties: String
    let now: Date

    /// `$1…$n`: the row's columns as `appendValues` binds them; then the user and the event.
    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: Row.columnCount + 6)
        row.appendValues(to: &bindings)
        bindings.append(userId)
        bindings.append(event.id)
        bindings.append(event.name.rawValue)
        bindings.append(properties)
        bindings.append(PostgresInstant(event.occurredAt))
        bindings.append(PostgresInstant(now))
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> (Int64?, UUID?, Int64) { try row.decode((Int64?, UUID?, Int64).self) }
}

/// `InsertNewWithEvent` with the request's session checked in the same statement (`DeferredSessionCheck`): a meal
/// save in one round trip instead of the session lookup and then the insert.
struct InsertNewWithEventCheckingSession<Row: PostgresOwnedRow>: PostgresPreparedStatement {
    static var name: String { Row.insertNewWithEventCheckingSessionName }
    static var sql: String { Row.insertNewWithEventCheckingSessionSQL }

    let insert: InsertNewWithEvent<Row>
    let check: DeferredSessionCheck

    /// `InsertNewWithEvent`'s, then the session: token hash, kind, language, theme, profile version, now.
    func makeBindings() throws -> PostgresBindings {
        var bindings = try insert.makeBindings()
        bindings.append(check.tokenHash)
        bindings.append(check.kind.rawValue)
        bindings.append(check.language?.tag)
        bindings.append(check.appearance?.rawValue)
        bindings.append(check.profileVersion)
        bindings.append(PostgresInstant(check.now))
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> (Int64?, UUID?, Int64, Bool) { try row.decode((Int64?, UUID?, Int64, Bool).self) }
}
