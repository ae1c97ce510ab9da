import Foundation
import GRDB

/// Which users' coach data changed, seen from the one connection that writes: TEMP triggers on the tables a
/// dashboard reads call `wdiet_user_data_changed(userId)`, and the user's generation moves on when that
/// transaction commits (a rollback changes nothing). Whatever code wrote — a store, an import, a batch of SQL —
/// a cache entry taken at an older generation is stale.
///
/// A reader takes the generation *before* it starts its read transaction: a write that commits while the read
/// is under way then leaves the entry one generation behind, never ahead.
///
/// Profiles have a generation of their own (`profileGeneration(ofUser:)`): a profile is read by every meal save,
/// and the user's data generation moves on with each of those saves.
///
/// In-process only: this holds for the SQLite store, which one `wdiet serve` process owns.
public final class UserDataChanges: TransactionObserver, @unchecked Sendable {
    /// The tables whose rows carry a `userId` and feed the dashboard, and the synced generic rows (the Challenge's
    /// rows, which its screens' cache reads beside the meals and weights: `ChallengeService.snapshot`).
    static let watchedTables = ["profiles", "meals", "weights", "loggedDays", "syncRows"]

    private let lock = NSLock()
    /// Keyed by the stored id text; a user never written since start is at generation 0.
    private var generations: [String: UInt64] = [:]
    private var profileGenerations: [String: UInt64] = [:]
    /// The user's watched rows changed by committed transactions (each row an insert, update or delete changed).
    private var changedRows: [String: UInt64] = [:]
    /// Users touched by the transaction in progress, with how many of their rows it changed; only the writer
    /// connection's queue uses these.
    private var pending: [String: UInt64] = [:]
    private var pendingProfiles: Set<String> = []

    public init() {}

    public func generation(ofUser userIdText: String) -> UInt64 {
        lock.withLock { generations[userIdText, default: 0] }
    }

    public func generation(ofUser userId: UUID) -> UInt64 {
        generation(ofUser: AppDatabase.idText(userId))
    }

    /// How many of the user's watched rows committed transactions changed since start: it moves on with the
    /// generation (every transaction that moves that changed at least one row) and by the number of rows. A
    /// transaction can hold several writes (`GroupCommit` batches them), so a generation one past a kept one does
    /// not tell that only one's own write came in between; this count does: it moves on by exactly one only when a
    /// single row changed (a rolled-back savepoint's rows still count, which only ever says "more"). The Challenge's
    /// snapshot is kept by it (`AppServices.userDataGeneration`).
    public func changedRows(ofUser userIdText: String) -> UInt64 {
        lock.withLock { changedRows[userIdText, default: 0] }
    }

    public func changedRows(ofUser userId: UUID) -> UInt64 {
        changedRows(ofUser: AppDatabase.idText(userId))
    }

    /// Moves on only when the user's profile row is written (its data generation moves on too).
    public func profileGeneration(ofUser userIdText: String) -> UInt64 {
        lock.withLock { profileGenerations[userIdText, default: 0] }
    }

    /// Installs the triggers and the observer on the writer connection, after the migrations.
    func install(in db: Database) throws {
        db.add(function: DatabaseFunction("wdiet_user_data_changed", argumentCount: 1, pure: false) { [unowned self] values in
            if let userId = String.fromDatabaseValue(values[0]) { pending[userId, default: 0] &+= 1 }
            return nil
        })
        db.add(function: DatabaseFunction("wdiet_profile_changed", argumentCount: 1, pure: false) { [unowned self] values in
            if let userId = String.fromDatabaseValue(values[0]) { pendingProfiles.insert(userId) }
            return nil
        })
        for (event, rows) in [("INSERT", ["NEW"]), ("UPDATE", ["OLD", "NEW"]), ("DELETE", ["OLD"])] {
            let calls = rows.map { "wdiet_profile_changed(\($0).userId)" }.joined(separator: ", ")
            try db.execute(sql: """
                CREATE TEMP TRIGGER IF NOT EXISTS wdiet_profile_changed_\(event.lowercased())
                AFTER \(event) ON main.profiles BEGIN SELECT \(calls); END
                """)
        }
        for table in Self.watchedTables {
            for (event, row) in [("INSERT", "NEW"), ("UPDATE", "NEW"), ("DELETE", "OLD")] {
                try db.execute(sql: """
                    CREATE TEMP TRIGGER IF NOT EXISTS wdiet_changed_\(table)_\(event.lowercased())
                    AFTER \(event) ON main.\(table) BEGIN SELECT wdiet_user_data_changed(\(row).userId); END
                    """)
            }
        }
        db.add(transactionObserver: self, extent: .databaseLifetime)
    }

    public func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
    public func databaseDidChange(with event: DatabaseEvent) {}

    public func databaseDidCommit(_ db: Database) {
        guard !pending.isEmpty || !pendingProfiles.isEmpty else { return }
        let changed = pending
        let changedProfiles = pendingProfiles
        pending.removeAll(keepingCapacity: true)
        pendingProfiles.removeAll(keepingCapacity: true)
        lock.withLock {
            for (userId, rows) in changed {
                generations[userId, default: 0] &+= 1
                changedRows[userId, default: 0] &+= rows
            }
            for userId in changedProfiles { profileGenerations[userId, default: 0] &+= 1 }
        }
    }

    public func databaseDidRollback(_ db: Database) {
        pending.removeAll(keepingCapacity: true)
        pendingProfiles.removeAll(keepingCapacity: true)
    }
}
