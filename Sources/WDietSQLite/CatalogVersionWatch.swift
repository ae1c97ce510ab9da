import GRDB
import Synchronization

/// Which catalog a file database holds, for the price of `PRAGMA data_version` instead of a read transaction and a
/// query per search. SQLite changes a connection's data version whenever another connection commits to the file,
/// in this process (the pool's writer: an import, a meal save) or in another (`wdiet import-foods` on a live file);
/// the content hash is read again only then. So a re-imported catalog is still searched at once, as it was when
/// every search read the hash, and a search under no writes costs one statement on a connection of its own.
///
/// One connection of its own, opened on first use: the pool's readers are many and their data versions differ,
/// and a pool read wraps every read in a transaction (BEGIN, the query, COMMIT: ~7 % of an uncached search's
/// server CPU over HTTP, perf, issue 17).
final class CatalogVersionWatch: Sendable {
    private struct State {
        var connection: DatabaseQueue?
        /// The data version at which `contentHash` was read.
        var seen: (dataVersion: Int64, contentHash: String)?
    }

    private let path: String
    private let state = Mutex(State())

    init(path: String) {
        self.path = path
    }

    /// The content hash of the catalog in the file now; throws `StoreError.catalogMissing` without one.
    func contentHash() throws -> String {
        try state.withLock { state in
            let connection: DatabaseQueue
            if let open = state.connection {
                connection = open
            } else {
                var config = Configuration()
                config.busyMode = .timeout(5)
                connection = try DatabaseQueue(path: path, configuration: config)
                state.connection = connection
            }
            let seen = state.seen
            let (version, hash) = try connection.inDatabase { db -> (Int64, String) in
                let version = try Int64.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) ?? -1
                if let seen, seen.dataVersion == version { return (version, seen.contentHash) }
                // Read after the version: a commit in between makes the next search read the hash again.
                return (version, try FoodSearch.contentHash(db))
            }
            state.seen = (version, hash)
            return hash
        }
    }
}
