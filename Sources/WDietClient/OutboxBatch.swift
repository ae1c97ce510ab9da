import WDietStore

/// Changes taken from the outbox for one push, each with the outbox entry it came from. The entries are marked
/// sent (their exact change stored) before the push leaves, so a retry after a crash sends the same keys and values.
public struct OutboxBatch: Sendable {
    struct Entry: Sendable {
        var seq: Int64
        var key: RecordKey
        /// The record's local revision this change carries: its acknowledgement marks the record synced only if
        /// the record is still at this revision.
        var revision: Int64
        var change: SyncChange
        /// The values pushed (canonical JSON), which become the record's server copy when applied.
        var payload: String?
    }

    var entries: [Entry]

    public var request: SyncPushRequest { SyncPushRequest(changes: entries.map(\.change)) }
    public var count: Int { entries.count }
}
