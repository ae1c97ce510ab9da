import Foundation
import GRDB
import Logging
import PostgresNIO
import Testing
import WDietPostgres
import WDietSQLite
import WDietStore
import WDietTestSupport

/// The backends the account-side conformance suites run against.
enum AccountBackendKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    var testDescription: String { rawValue }
}

/// The account-side stores on one fresh database of either backend, sharing one test clock, plus the few raw reads
/// and writes the tests need to look behind the protocols (the tables are named differently on each backend).
/// The SQLite database is a file, so that `otherProcess()` can open it a second time as another server would.
final class AccountStoresBackend: Sendable {
    let kind: AccountBackendKind
    let clock: TestClock
    let accounts: any AccountStore
    let passwords: any PasswordCredentialStore
    let identities: any ExternalIdentityStore
    let throttle: any LoginThrottleStore
    let rateLimits: any RateLimitStore
    let tips: any TipStore
    let analytics: any AnalyticsStore
    let metrics: any POCMetricsStore
    /// Creates the users that own a test's rows.
    let users: any UserStore

    private let sqlite: (database: AppDatabase, directory: URL)?
    private let postgres: PostgresScratchDatabase?
    private let extraClients: ExtraClients

    /// The migrations the PostgreSQL side needs: the coach's tables (with `users`) and the account tables; not the
    /// food catalog's.
    static let postgresMigrations = PostgresCoachSchema.migrations + PostgresAccountSchema.migrations

    /// Runs `body` on a fresh database and removes it afterwards, whether `body` threw or not.
    static func with(
        _ kind: AccountBackendKind, clockStart: Date = Fixtures.utc("2026-03-01T09:00:00Z"),
        _ body: (AccountStoresBackend) async throws -> Void
    ) async throws {
        let backend = try await AccountStoresBackend(kind, clock: TestClock(clockStart))
        do {
            try await body(backend)
        } catch {
            await backend.close()
            throw error
        }
        await backend.close()
    }

    private init(_ kind: AccountBackendKind, clock: TestClock) async throws {
        self.kind = kind
        self.clock = clock
        extraClients = ExtraClients()
        switch kind {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-accounts-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let database = try AppDatabase.open(path: directory.appendingPathComponent("wdiet.sqlite").path)
            sqlite = (database, directory)
            postgres = nil
            accounts = SQLiteAccountStore(database: database, now: clock.closure)
            passwords = SQLitePasswordCredentialStore(database: database, now: clock.closure)
            identities = SQLiteExternalIdentityStore(database: database, now: clock.closure)
            throttle = SQLiteLoginThrottleStore(database: database)
            rateLimits = SQLiteRateLimitStore(database: database)
            tips = SQLiteTipStore(database: database, now: clock.closure)
            analytics = SQLiteAnalyticsStore(database: database, now: clock.closure)
            metrics = SQLitePOCMetricsStore(database: database)
            users = SQLiteUserStore(database: database, now: clock.closure)
        case .postgres:
            let scratch = try await PostgresScratchDatabase.create(migrations: Self.postgresMigrations)
            let client = scratch.client
            sqlite = nil
            postgres = scratch
            accounts = PostgresAccountStore(client: client, now: clock.closure)
            passwords = PostgresPasswordCredentialStore(client: client, now: clock.closure)
            identities = PostgresExternalIdentityStore(client: client, now: clock.closure)
            throttle = PostgresLoginThrottleStore(client: client)
            rateLimits = PostgresRateLimitStore(client: client)
            tips = PostgresTipStore(client: client, now: clock.closure)
            analytics = PostgresAnalyticsStore(client: client, now: clock.closure)
            metrics = PostgresPOCMetricsStore(client: client)
            users = PostgresUserStore(client: client, now: clock.closure)
        }
    }

    private func close() async {
        await extraClients.stopAll()
        if let postgres { await postgres.drop() }
        if let sqlite { try? FileManager.default.removeItem(at: sqlite.directory) }
    }

    /// A user to own the rows a test writes.
    func makeUser(email: String? = nil, displayName: String = "Test") async throws -> UUID {
        try await users.createUser(id: UUID(), email: email, displayName: displayName).id
    }

    /// The throttle and rate-limit stores as a second server process sees them: its own connection(s) to the same
    /// database.
    func otherProcess() async throws -> (throttle: any LoginThrottleStore, rateLimits: any RateLimitStore) {
        switch kind {
        case .sqlite:
            let database = try AppDatabase.open(path: sqlite!.directory.appendingPathComponent("wdiet.sqlite").path)
            return (SQLiteLoginThrottleStore(database: database), SQLiteRateLimitStore(database: database))
        case .postgres:
            var configuration = try PostgresScratchDatabase.serverConfiguration()
            configuration.database = postgres!.name
            let client = PostgresClient(configuration: configuration)
            await extraClients.start(client)
            return (PostgresLoginThrottleStore(client: client), PostgresRateLimitStore(client: client))
        }
    }

    // MARK: Behind the protocols

    /// The account-side tables, by what they hold.
    enum Table: CaseIterable {
        case credentials, sessions, identities, loginFailures, rateLimitEvents, dismissedTips, analyticsEvents

        var sqliteName: String {
            switch self {
            case .credentials: "credentials"
            case .sessions: "sessions"
            case .identities: "identities"
            case .loginFailures: "loginFailures"
            case .rateLimitEvents: "rateLimitEvents"
            case .dismissedTips: "dismissedTips"
            case .analyticsEvents: "analytics_events"
            }
        }

        var postgresName: String {
            switch self {
            case .credentials: "credentials"
            case .sessions: "sessions"
            case .identities: "identities"
            case .loginFailures: "login_failures"
            case .rateLimitEvents: "rate_limit_events"
            case .dismissedTips: "dismissed_tips"
            case .analyticsEvents: "analytics_events"
            }
        }
    }

    func count(_ table: Table) async throws -> Int {
        switch kind {
        case .sqlite:
            return try await sqlite!.database.writer.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.sqliteName)") ?? -1
            }
        case .postgres:
            return try await postgresValue(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table.postgresName)"), as: Int.self) ?? -1
        }
    }

    /// Removes the user row (not a tombstone): what a deletion of the account does.
    func deleteUser(_ id: UUID) async throws {
        try await execute(sqlite: "DELETE FROM users WHERE id = ?", postgres: "DELETE FROM users WHERE id = \(id)", id: id)
    }

    /// Marks the user deleted (a tombstone), as sync does.
    func tombstoneUser(_ id: UUID) async throws {
        try await execute(
            sqlite: "UPDATE users SET deletedAt = '2026-03-02T00:00:00.000Z' WHERE id = ?",
            postgres: "UPDATE users SET deleted_at = '2026-03-02T00:00:00Z' WHERE id = \(id)", id: id)
    }

    /// Gives every session a kind this version does not know, as a newer version might write.
    func setEverySessionKind(_ kind: String) async throws {
        switch self.kind {
        case .sqlite:
            try await sqlite!.database.writer.write { db in try db.execute(sql: "UPDATE sessions SET kind = ?", arguments: [kind]) }
        case .postgres:
            try await postgres!.client.query("UPDATE sessions SET kind = \(kind)")
        }
    }

    /// Stores a dismissal of a tip id this version does not know.
    func insertFutureTip(userId: UUID) async throws {
        try await execute(
            sqlite: "INSERT INTO dismissedTips (userId, tipId, dismissedAt, version) VALUES (?, 'future-tip', '2026-03-01T09:00:00.000Z', 99)",
            postgres: """
                INSERT INTO dismissed_tips (user_id, tip_id, dismissed_at, version)
                VALUES (\(userId), 'future-tip', '2026-03-01T09:00:00Z', 99)
                """, id: userId)
    }

    /// Marks an analytics event deleted, as sync does.
    func tombstoneEvent(_ eventId: UUID) async throws {
        try await execute(
            sqlite: "UPDATE analytics_events SET deletedAt = '2026-04-01T00:00:00.000Z' WHERE id = ?",
            postgres: "UPDATE analytics_events SET deleted_at = '2026-04-01T00:00:00Z' WHERE id = \(eventId)", id: eventId)
    }

    /// The dismissed-tip rows: tip, instant, version.
    func dismissedTipRows() async throws -> [DismissedTipRow] {
        switch kind {
        case .sqlite:
            return try await sqlite!.database.writer.read { db in
                try Row.fetchAll(db, sql: "SELECT tipId, dismissedAt, version FROM dismissedTips ORDER BY version").map {
                    DismissedTipRow(tipId: $0["tipId"], dismissedAt: Self.sqliteInstant($0["dismissedAt"]), version: $0["version"])
                }
            }
        case .postgres:
            let rows = try await postgres!.client.query("""
                SELECT tip_id, extract(epoch FROM dismissed_at)::float8, version FROM dismissed_tips ORDER BY version
                """)
            var result: [DismissedTipRow] = []
            for try await (tip, seconds, version) in rows.decode((String, Double, Int64).self) {
                result.append(DismissedTipRow(tipId: tip, dismissedAt: Date(timeIntervalSince1970: seconds), version: version))
            }
            return result
        }
    }

    struct DismissedTipRow: Equatable {
        var tipId: String
        var dismissedAt: Date
        var version: Int64
    }

    /// The stored analytics events: name, properties as JSON, occurredAt, version; in version order.
    func analyticsRows() async throws -> [AnalyticsRow] {
        switch kind {
        case .sqlite:
            return try await sqlite!.database.writer.read { db in
                try Row.fetchAll(db, sql: "SELECT name, properties, occurredAt, version FROM analytics_events ORDER BY version").map {
                    AnalyticsRow(
                        name: $0["name"], properties: Self.object($0["properties"]),
                        occurredAt: Self.sqliteInstant($0["occurredAt"]), version: $0["version"])
                }
            }
        case .postgres:
            let rows = try await postgres!.client.query("""
                SELECT name, properties::text, extract(epoch FROM occurred_at)::float8, version
                FROM analytics_events ORDER BY version
                """)
            var result: [AnalyticsRow] = []
            for try await (name, properties, seconds, version) in rows.decode((String, String, Double, Int64).self) {
                result.append(AnalyticsRow(
                    name: name, properties: Self.object(properties), occurredAt: Date(timeIntervalSince1970: seconds),
                    version: version))
            }
            return result
        }
    }

    struct AnalyticsRow: Equatable {
        var name: String
        var properties: [String: String]?
        var occurredAt: Date
        var version: Int64
    }

    /// SQLite's instant text ("2026-03-01T09:00:00.250Z").
    static func sqliteInstant(_ text: String) -> Date {
        Fixtures.utc(String(text.prefix(19)) + "Z") + (Double(text.dropFirst(20).prefix(3)) ?? .nan) / 1_000
    }

    static func object(_ json: String) -> [String: String]? {
        try? JSONDecoder().decode([String: String].self, from: Data(json.utf8))
    }

    /// The change counter versions are drawn from: SQLite's database-wide one, PostgreSQL's per user.
    func versionCounter(userId: UUID) async throws -> Int64 {
        switch kind {
        case .sqlite:
            return try await sqlite!.database.writer.read { db in try Int64.fetchOne(db, sql: "SELECT value FROM syncVersion") ?? -1 }
        case .postgres:
            return try await postgresValue("SELECT last_version FROM users WHERE id = \(userId)", as: Int64.self) ?? -1
        }
    }

    private func execute(sqlite sql: String, postgres query: PostgresQuery, id: UUID) async throws {
        switch kind {
        case .sqlite:
            try await sqlite!.database.writer.write { db in try db.execute(sql: sql, arguments: [WireFormat.idText(id)]) }
        case .postgres:
            try await postgres!.client.query(query)
        }
    }

    private func postgresValue<Value: PostgresDecodable & Sendable>(_ query: PostgresQuery, as type: Value.Type) async throws -> Value? {
        for try await value in try await postgres!.client.query(query).decode(Value.self) { return value }
        return nil
    }
}

/// The PostgreSQL clients a test opened besides the scratch database's own, stopped when the test ends.
final class ExtraClients: @unchecked Sendable {
    // A lock rather than `Mutex`, as in `TestClock`.
    private let lock = NSLock()
    private var running: [Task<Void, Never>] = []

    func start(_ client: PostgresClient) async {
        let task = Task { await client.run() }
        lock.withLock { running.append(task) }
    }

    func stopAll() async {
        let tasks = lock.withLock {
            defer { running = [] }
            return running
        }
        for task in tasks {
            task.cancel()
            // Bounded, as `PostgresScratchDatabase.drop`: a client's run() has, rarely, never returned.
            if await !BoundedWait.finishes(within: .seconds(60), { _ = await task.value }) {
                FileHandle.standardError.write(Data("ExtraClients: a PostgreSQL client did not stop within 60 s of its cancellation\n".utf8))
            }
        }
    }
}
