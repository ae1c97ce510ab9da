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
/// In-process only: this holds for the SQLite store, which one `wdiet serve` process owns.
public final class UserDataChanges: TransactionObserver, @unchecked Sendable {
    /// The tables whose rows carry a `userId` and feed the dashboard.
    static let watchedTables = ["profiles", "meals", "weights", "loggedDays"]

    private let lock = NSLock()
    /// Keyed by the stored id text; a user never written since start is at generation 0.
    private var generations: [String: UInt64] = [:]
    /// Users touched by the transaction in progress; only the writer connection's queue uses it.
    private var pending: Set<String> = []

    public init() {}

    public func generation(ofUser userIdText: String) -> UInt64 {
        lock.withLock { generations[userIdText, default: 0] }
    }

    /// Installs the triggers and the observer on the writer connection, after the migrations.
    func install(in db: Database) throws {
        db.add(function: DatabaseFunction("wdiet_user_data_changed", argumentCount: 1, pure: false) { [unowned self] values in
            if let userId = String.fromDatabaseValue(values[0]) { pending.insert(userId) }
            return nil
        })
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
        guard !pending.isEmpty else { return }
        let changed = pending
        pending.removeAll(keepingCapacity: true)
        lock.withLock {
            for userId in changed { generations[userId, default: 0] &+= 1 }
        }
    }

    public func databaseDidRollback(_ db: Database) {
        pending.removeAll(keepingCapacity: true)
    }
}
