import Foundation
import GRDB
import WDietCore
import WDietStore

/// The device's copy of one user's data, written first and synced later (docs/sync.md). Every local edit is
/// checked by the server's rules (`StoreValidation`), dated in the profile's time zone, bumps the row's local
/// revision and queues one pending change for that row in the outbox (repeated edits coalesce). The sync engine
/// takes changes from the outbox (`ClientStore+Outbox`) and stores what the server answers and hands out
/// (`ClientStore+Pull`).
///
/// Open the same file again after a crash or restart: the outbox, its idempotency keys, the cursor and the notices
/// are all in it.
public final class ClientStore: Sendable {
    let database: ClientDatabase
    let now: @Sendable () -> Date
    let makeKey: @Sendable () -> String

    /// - Parameters:
    ///   - path: the database file (created when missing); nil keeps everything in memory.
    ///   - now: the device's clock, which stamps local edits and the last sync only: no rule of the protocol
    ///     depends on it, so a device whose clock is off still syncs correctly.
    ///   - makeKey: idempotency keys; tests may pass a deterministic source.
    public init(
        path: String? = nil, now: @escaping @Sendable () -> Date = Date.init,
        makeKey: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() }
    ) throws {
        database = try ClientDatabase(path: path)
        self.now = now
        self.makeKey = makeKey
    }

    // MARK: Account and settings

    /// The server this device syncs with and the signed-in session (stored in the database file).
    public struct Account: Hashable, Sendable {
        public var server: URL
        public var token: String
        public var userId: UUID
        public var email: String?

        public init(server: URL, token: String, userId: UUID, email: String?) {
            self.server = server
            self.token = token
            self.userId = userId
            self.email = email
        }
    }

    public func account() throws -> Account? {
        try database.queue.read { db in
            let settings = try Self.settings(db)
            guard let server = settings["server"].flatMap(URL.init(string:)), let token = settings["token"],
                  let user = settings["userId"].flatMap(UUID.init(uuidString:))
            else { return nil }
            return Account(server: server, token: token, userId: user, email: settings["email"])
        }
    }

    /// Stores the session. Signing in as another user on a device that holds someone's data is refused: their
    /// pending changes would go to the wrong account.
    public func signIn(_ account: Account) throws {
        try database.queue.write { db in
            let settings = try Self.settings(db)
            if let current = settings["userId"].flatMap(UUID.init(uuidString:)), current != account.userId {
                let records = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM records") ?? 0
                let pending = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox") ?? 0
                if records + pending > 0 {
                    throw ClientError.invalid("This device holds another account's data; use another --store file for this account")
                }
            }
            try Self.set(db, "server", account.server.absoluteString)
            try Self.set(db, "token", account.token)
            try Self.set(db, "userId", account.userId.uuidString.lowercased())
            try Self.set(db, "email", account.email)
        }
    }

    /// Forgets the token (a 401: the session ended); data and outbox stay for the next sign-in.
    public func forgetToken() throws {
        try database.queue.write { db in try Self.set(db, "token", nil) }
    }

    public func cursor() throws -> Int64 {
        try database.queue.read { db in try Self.settings(db)["cursor"].flatMap { Int64($0) } ?? 0 }
    }

    public func lastSyncAt() throws -> Date? {
        try database.queue.read { db in try Self.settings(db)["lastSyncAt"].flatMap(SyncCoding.instant(from:)) }
    }

    func recordSync(at date: Date) throws {
        try database.queue.write { db in try Self.set(db, "lastSyncAt", SyncCoding.instantText(date)) }
    }

    static func settings(_ db: Database) throws -> [String: String] {
        var values: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT key, value FROM settings") {
            values[row["key"]] = row["value"]
        }
        return values
    }

    static func set(_ db: Database, _ key: String, _ value: String?) throws {
        if let value {
            try db.execute(sql: "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                           arguments: [key, value])
        } else {
            try db.execute(sql: "DELETE FROM settings WHERE key = ?", arguments: [key])
        }
    }

    // MARK: Local edits

    /// Saves the profile (creating or replacing it), by the profile form's rules.
    public func saveProfile(_ profile: Profile) throws {
        do { try StoreValidation.validate(profile) } catch { throw ClientError(error) }
        let payload = try Self.text(profile)
        try database.queue.write { db in
            try self.edit(db, key: .profile, op: .upsert, payload: payload, localDate: nil)
        }
    }

    /// Logs a new meal or replaces the meal with this id (an edit).
    public func saveMeal(_ meal: Meal) throws {
        do { try StoreValidation.validate(meal) } catch { throw ClientError(error) }
        let payload = try Self.text(meal)
        try database.queue.write { db in
            let date = try self.localDate(db, of: meal.loggedAt)
            try self.edit(db, key: RecordKey(entity: .meal, uuid: meal.id), op: .upsert, payload: payload, localDate: date)
        }
    }

    public func deleteMeal(id: UUID) throws {
        try database.queue.write { db in
            try self.edit(db, key: RecordKey(entity: .meal, uuid: id), op: .delete, payload: nil, localDate: nil)
        }
    }

    /// Logs a new weight entry or replaces the entry with this id.
    public func saveWeight(_ entry: WeightEntry) throws {
        do { try StoreValidation.validate(entry) } catch { throw ClientError(error) }
        let payload = try Self.text(entry)
        try database.queue.write { db in
            let date = try self.localDate(db, of: entry.loggedAt)
            try self.edit(db, key: RecordKey(entity: .weight, uuid: entry.id), op: .upsert, payload: payload, localDate: date)
        }
    }

    public func deleteWeight(id: UUID) throws {
        try database.queue.write { db in
            try self.edit(db, key: RecordKey(entity: .weight, uuid: id), op: .delete, payload: nil, localDate: nil)
        }
    }

    /// Saves a generic row (a journal entry, later): a JSON object of at most 64 KB in a named collection.
    public func saveRow(collection: String, id: UUID, data: SyncJSON) throws {
        guard SyncLimits.isValidCollection(collection) else {
            throw ClientError.invalid("A row's collection is a lowercase name such as \"journal\"")
        }
        guard case .object = data else { throw ClientError.invalid("A row's data is a JSON object") }
        let payload = try data.canonicalText()
        guard payload.utf8.count <= SyncLimits.maxRowDataBytes else {
            throw ClientError.invalid("A row's data is at most \(SyncLimits.maxRowDataBytes / 1_024) KB")
        }
        try database.queue.write { db in
            try self.edit(db, key: RecordKey(entity: .row, collection: collection, uuid: id), op: .upsert, payload: payload, localDate: nil)
        }
    }

    public func deleteRow(collection: String, id: UUID) throws {
        try database.queue.write { db in
            try self.edit(db, key: RecordKey(entity: .row, collection: collection, uuid: id), op: .delete, payload: nil, localDate: nil)
        }
    }

    /// Queues an analytics event (004 Epic 5): insert-only, kept on the device until the server has it, never
    /// pulled back. Recording an event never fails a user's action, so callers may ignore its errors.
    public func logEvent(_ event: AnalyticsEvent) throws {
        // The server's own check of a pushed event (names, properties, instant), so a bad event never gets queued.
        do {
            try SyncRules.validate([SyncChange(idempotencyKey: "local", entity: .event, op: .upsert, id: event.id, event: event)])
        } catch .invalidChange(_, _, let message) {
            throw ClientError.invalid(message)
        } catch {
            throw ClientError.invalid(error.message)
        }
        let payload = try Self.text(event)
        try database.queue.write { db in
            try self.edit(db, key: RecordKey(entity: .event, uuid: event.id), op: .upsert, payload: payload, localDate: nil)
        }
    }

    /// One local edit in the caller's transaction: the record changes, its revision goes up, and the row's
    /// pending change is queued or updated.
    func edit(_ db: Database, key: RecordKey, op: SyncChange.Operation, payload: String?, localDate: String?) throws {
        let existing = try Row.fetchOne(
            db, sql: "SELECT revision, serverVersion, deleted FROM records WHERE entity = ? AND collection = ? AND id = ?",
            arguments: [key.entity.rawValue, key.collection, key.id])
        let revision: Int64 = (existing?["revision"] ?? 0) + 1
        let updatedAt = SyncCoding.instantText(now())
        switch op {
        case .upsert:
            try db.execute(
                sql: """
                    INSERT INTO records (entity, collection, id, payload, localDate, deleted, revision, updatedAt)
                    VALUES (?, ?, ?, ?, ?, 0, ?, ?)
                    ON CONFLICT (entity, collection, id) DO UPDATE SET
                        payload = excluded.payload, localDate = excluded.localDate, deleted = 0,
                        revision = excluded.revision, updatedAt = excluded.updatedAt
                    """,
                arguments: [key.entity.rawValue, key.collection, key.id, payload, localDate, revision, updatedAt])
        case .delete:
            guard let existing, existing["deleted"] as Int64 == 0 else { throw ClientError.notFound(key.noun) }
            let serverVersion: Int64? = existing["serverVersion"]
            let sent = try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM outbox WHERE entity = ? AND collection = ? AND id = ? AND sentChange IS NOT NULL",
                arguments: [key.entity.rawValue, key.collection, key.id]) ?? 0
            if serverVersion == nil && sent == 0 {
                // Created here and never sent: the server never heard of it, so it simply goes away.
                try db.execute(sql: "DELETE FROM records WHERE entity = ? AND collection = ? AND id = ?",
                               arguments: [key.entity.rawValue, key.collection, key.id])
                try db.execute(sql: "DELETE FROM outbox WHERE entity = ? AND collection = ? AND id = ?",
                               arguments: [key.entity.rawValue, key.collection, key.id])
                return
            }
            try db.execute(
                sql: "UPDATE records SET deleted = 1, revision = ?, updatedAt = ? WHERE entity = ? AND collection = ? AND id = ?",
                arguments: [revision, updatedAt, key.entity.rawValue, key.collection, key.id])
        }
        try queue(db, key: key, op: op, revision: revision)
    }

    /// Coalesces: a row has at most one change not yet sent, which takes the newest op and revision (an edit then
    /// a delete is a delete) and keeps its idempotency key. A change already sent is never touched — the server may
    /// have applied it under its key — so an edit after it queues a new change, pushed after the sent one's answer.
    func queue(_ db: Database, key: RecordKey, op: SyncChange.Operation, revision: Int64) throws {
        let arguments: StatementArguments = [key.entity.rawValue, key.collection, key.id]
        if let seq = try Int64.fetchOne(
            db, sql: "SELECT seq FROM outbox WHERE entity = ? AND collection = ? AND id = ? AND sentChange IS NULL", arguments: arguments)
        {
            // A parked change the user edits again is tried again: the edit may have fixed it.
            try db.execute(sql: "UPDATE outbox SET op = ?, revision = ?, parkedMessage = NULL WHERE seq = ?",
                           arguments: [op.rawValue, revision, seq])
        } else {
            try db.execute(
                sql: "INSERT INTO outbox (entity, collection, id, idempotencyKey, op, revision, queuedAt) VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [key.entity.rawValue, key.collection, key.id, makeKey(), op.rawValue, revision, SyncCoding.instantText(now())])
        }
    }

    /// The local day of an instant in the profile's time zone (the server's rule); no profile, no meals.
    func localDate(_ db: Database, of instant: Date) throws -> String {
        guard let profile = try Self.profile(db) else { throw ClientError.profileRequired }
        return LocalDate(instant, in: profile.timeZone).iso
    }

    // MARK: Reads

    public func profile() throws -> Profile? {
        try database.queue.read { db in try Self.profile(db) }
    }

    static func profile(_ db: Database) throws -> Profile? {
        guard let text = try String.fetchOne(
            db, sql: "SELECT payload FROM records WHERE entity = 'profile' AND id = 'profile' AND deleted = 0")
        else { return nil }
        return try decode(Profile.self, text)
    }

    /// The live meals of a local day, in the order they were eaten.
    public func meals(on date: LocalDate) throws -> [Meal] {
        try database.queue.read { db in
            try String.fetchAll(db, sql: "SELECT payload FROM records WHERE entity = 'meal' AND deleted = 0 AND localDate = ?",
                                arguments: [date.iso])
                .map { try Self.decode(Meal.self, $0) }
                .sorted { ($0.loggedAt, $0.id.uuidString) < ($1.loggedAt, $1.id.uuidString) }
        }
    }

    public func meal(id: UUID) throws -> Meal? {
        try live(RecordKey(entity: .meal, uuid: id)).map { try Self.decode(Meal.self, $0) }
    }

    /// Every live weight entry, oldest first.
    public func weights() throws -> [WeightEntry] {
        try database.queue.read { db in
            try String.fetchAll(db, sql: "SELECT payload FROM records WHERE entity = 'weight' AND deleted = 0")
                .map { try Self.decode(WeightEntry.self, $0) }
                .sorted { ($0.loggedAt, $0.id.uuidString) < ($1.loggedAt, $1.id.uuidString) }
        }
    }

    public func row(collection: String, id: UUID) throws -> SyncJSON? {
        try live(RecordKey(entity: .row, collection: collection, uuid: id)).map(SyncJSON.parse)
    }

    private func live(_ key: RecordKey) throws -> String? {
        try database.queue.read { db in
            try String.fetchOne(
                db, sql: "SELECT payload FROM records WHERE entity = ? AND collection = ? AND id = ? AND deleted = 0",
                arguments: [key.entity.rawValue, key.collection, key.id])
        }
    }

    /// One record as this device holds it (tombstones too): for status screens and tests that compare devices.
    public struct Record: Hashable, Sendable {
        public var key: RecordKey
        /// The values as canonical JSON (`SyncCoding`, keys sorted).
        public var payload: String
        public var localDate: String?
        public var deleted: Bool
        /// The server version this record was last in step with (nil: never on the server).
        public var serverVersion: Int64?
        public var revision: Int64
    }

    public func records() throws -> [Record] {
        try database.queue.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM records WHERE entity <> 'event' ORDER BY entity, collection, id").map { row in
                let entity: String = row["entity"]
                return Record(
                    key: RecordKey(entity: SyncEntity(rawValue: entity) ?? .row, collection: row["collection"], id: row["id"]),
                    payload: row["payload"], localDate: row["localDate"], deleted: row["deleted"] as Int64 != 0,
                    serverVersion: row["serverVersion"], revision: row["revision"])
            }
        }
    }

    // MARK: Coding

    static func text(_ value: some Encodable) throws -> String {
        String(decoding: try SyncCoding.encoder.encode(value), as: UTF8.self)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try SyncCoding.decoder.decode(type, from: Data(text.utf8))
    }
}
