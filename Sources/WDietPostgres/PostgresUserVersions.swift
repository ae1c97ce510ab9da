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

    /// The rows with these ids, whoever's they are.
    static func fetch(ids: [UUID], on connection: PostgresConnection, logger: Logger) async throws -> [UUID: Self]
    /// Binds every column of the row, in `columns` order, for `insert`.
    func appendValues(to bindings: inout PostgresBindings)
    /// Writes every column of the row with this id and user.
    func update(on connection: PostgresConnection, logger: Logger) async throws
}

extension PostgresOwnedRow {
    /// Saves this row (`save`) and records the event of that moment in the same transaction, in a savepoint of its
    /// own (`PostgresAnalyticsStore.recordAlongside`): one commit for the action and its event.
    func saveWithEvent(_ event: AnalyticsEvent, now: Date, client: PostgresClient, logger: Logger) async throws -> SavedWithEvent<Self> {
        try await PostgresStoreErrors.guarded(logger) {
            try await client.withTransaction(logger: logger) { connection in
                guard let saved = try await Self.save([self], userId: userId, now: now, on: connection, logger: logger).first else {
                    throw StoreError.unavailable("The row was not saved")
                }
                let eventError = try await PostgresAnalyticsStore.recordAlongside(event, userId: userId, now: now, on: connection, logger: logger)
                return SavedWithEvent(row: saved, eventError: eventError)
            }
        }
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

    /// Inserts the rows with multi-row `INSERT … VALUES` statements: one round trip and one plan for up to
    /// `rowsPerStatement` rows rather than one each (PostgreSQL takes at most 65,535 parameters a statement).
    static func insert(_ rows: [Self], on connection: PostgresConnection, logger: Logger) async throws {
        let rowsPerStatement = Int(UInt16.max) / columnCount
        for start in stride(from: 0, to: rows.count, by: rowsPerStatement) {
            let chunk = rows[start..<min(start + rowsPerStatement, rows.count)]
            var sql = "INSERT INTO \(table) (\(columns)) VALUES "
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
        row.deletedAt = deleted ? now : nil
        row.updatedAt = now
        row.version = try await PostgresUserVersions.next(1, for: userId, on: connection, logger: logger)
        try await row.update(on: connection, logger: logger)
        return row
    }
}
