import Foundation
import WDietCore

/// The writes of every `JournalStore`, written once over the backend's `SyncStore`: an entry is a generic row of the
/// collection `journal`, so a save, delete or restore is a push of one change (a new version, a tombstone, the
/// conflict rules of docs/sync.md) and a client pulls it like any other row. The backends' journal tables follow
/// the rows by database triggers, so nothing here writes them.
public struct JournalSyncWrites: Sendable {
    public let sync: any SyncStore
    /// Idempotency keys of the pushes made here (tests may fix them; each call must give a new one).
    let makeKey: @Sendable () -> String
    /// The clock of the undo window (`DeletedRows.retention`).
    let now: @Sendable () -> Date

    public init(
        sync: any SyncStore, now: @escaping @Sendable () -> Date = Date.init,
        makeKey: @escaping @Sendable () -> String = { "journal-" + UUID().uuidString }
    ) {
        self.sync = sync
        self.now = now
        self.makeKey = makeKey
    }

    public func save(_ entry: JournalEntry, baseVersion: Int64?, userId: UUID, today: LocalDate) async throws -> StoredJournalEntry {
        try entry.validate(today: today)
        let change = SyncChange(
            idempotencyKey: makeKey(), entity: .row, op: .upsert, id: entry.id, collection: JournalEntry.collection,
            baseVersion: baseVersion, data: try SyncRules.rowData(entry))
        let result = try await push(change, userId: userId)
        switch result.status {
        case .applied:
            return StoredJournalEntry(entry: entry, version: result.version ?? 0)
        case .lost, .ignored:
            throw JournalConflict(server: try result.server.flatMap(StoredJournalEntry.init(item:)),
                                  message: result.message ?? SyncMessages.lostEdit(.row, deleted: result.server?.deletedAt != nil))
        }
    }

    /// `current` is the entry as the store holds it (nil: unknown id).
    public func delete(_ current: StoredJournalEntry?, userId: UUID, id: UUID, baseVersion: Int64?) async throws -> StoredJournalEntry? {
        guard let current, !current.isDeleted else { return nil }
        let change = SyncChange.delete(.row, id: id, collection: JournalEntry.collection, baseVersion: baseVersion, key: makeKey())
        let result = try await push(change, userId: userId)
        switch result.status {
        case .applied:
            return StoredJournalEntry(entry: current.entry, version: result.version ?? 0, deletedAt: Date())
        case .ignored:
            return nil
        case .lost:
            throw JournalConflict(server: try result.server.flatMap(StoredJournalEntry.init(item:)),
                                  message: result.message ?? SyncMessages.lostDelete(.row))
        }
    }

    /// Undo of a delete: the tombstone's values pushed from the tombstone's own version (sync's Undo rule). An entry
    /// deleted more than `DeletedRows.retention` ago answers as a missing one, whether or not the sweep has emptied
    /// it yet (a scrubbed one is nil here already).
    public func restore(_ current: StoredJournalEntry?, userId: UUID) async throws -> StoredJournalEntry {
        guard let current else { throw StoreError.notFound(Strings.current("journaldata.notFound")) }
        guard let deletedAt = current.deletedAt else { return current }
        if DeletedRows.isPastUndo(deletedAt: deletedAt, now: now()) {
            throw StoreError.notFound(Strings.current("journaldata.notFound"))
        }
        let change = SyncChange(
            idempotencyKey: makeKey(), entity: .row, op: .upsert, id: current.id, collection: JournalEntry.collection,
            baseVersion: current.version, data: try SyncRules.rowData(current.entry))
        let result = try await push(change, userId: userId)
        guard result.status == .applied else {
            throw JournalConflict(server: try result.server.flatMap(StoredJournalEntry.init(item:)),
                                  message: result.message ?? SyncMessages.lostEdit(.row, deleted: true))
        }
        return StoredJournalEntry(entry: current.entry, version: result.version ?? 0)
    }

    /// Adds the sample entries the user does not have live yet (`existing`: the user's rows with a sample id,
    /// tombstones included, scrubbed ones too: a removed sample comes back from its tombstone's version), in pushes
    /// of at most 1,000.
    public func addSampleData(existing: [SyncItem], userId: UUID, today: LocalDate, now: Date) async throws -> Int {
        var current: [UUID: SyncItem] = [:]
        for item in existing where item.entity == .row && item.collection == JournalEntry.collection {
            if let id = item.id { current[id] = item }
        }
        var changes: [SyncChange] = []
        for entry in JournalSampleData.entries(today: today, now: now) {
            let row = current[entry.id]
            if let row, row.deletedAt == nil { continue }
            changes.append(SyncChange(
                idempotencyKey: makeKey(), entity: .row, op: .upsert, id: entry.id, collection: JournalEntry.collection,
                baseVersion: row?.version, data: try SyncRules.rowData(entry)))
        }
        try await pushAll(changes, userId: userId)
        return changes.count
    }

    /// Tombstones the given live sample entries, in pushes of at most 1,000.
    public func removeSampleData(_ samples: [StoredJournalEntry], userId: UUID) async throws -> Int {
        let changes = samples.filter { $0.entry.isSample && !$0.isDeleted }.map {
            SyncChange.delete(.row, id: $0.id, collection: JournalEntry.collection, key: makeKey())
        }
        try await pushAll(changes, userId: userId)
        return changes.count
    }

    private func pushAll(_ changes: [SyncChange], userId: UUID) async throws {
        var start = 0
        while start < changes.count {
            let end = min(start + SyncLimits.maxChangesPerPush, changes.count)
            _ = try await sync.push(Array(changes[start..<end]), userId: userId)
            start = end
        }
    }

    private func push(_ change: SyncChange, userId: UUID) async throws -> SyncChangeResult {
        do {
            return try await sync.push([change], userId: userId)[0]
        } catch let rejection as SyncRejection {
            // The entry was checked above; what remains is an id that belongs to another user's row, or a
            // message from the push's own rules.
            throw StoreError.conflict(rejection.message)
        }
    }
}

extension StoredJournalEntry {
    /// A pulled row of the collection `journal` as an entry; nil for another collection, and for a tombstone whose
    /// data the sweep emptied (docs/operations.md "Deleted rows": it answers as a missing entry). Throws when the
    /// data of a live entry or of a tombstone still holding its values is not an entry.
    public init?(item: SyncItem) throws {
        guard item.entity == .row, item.collection == JournalEntry.collection, let data = item.data,
              !item.isScrubbedTombstone else { return nil }
        self.init(entry: try SyncRules.decodeRow(JournalEntry.self, data), version: item.version, deletedAt: item.deletedAt)
    }
}
