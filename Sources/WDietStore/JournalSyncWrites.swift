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

    public init(sync: any SyncStore, makeKey: @escaping @Sendable () -> String = { "journal-" + UUID().uuidString }) {
        self.sync = sync
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

    /// Undo of a delete: the tombstone's values pushed from the tombstone's own version (sync's Undo rule).
    public func restore(_ current: StoredJournalEntry?, userId: UUID) async throws -> StoredJournalEntry {
        guard let current else { throw StoreError.notFound(Strings.current("journaldata.notFound")) }
        guard current.isDeleted else { return current }
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

    /// Adds the sample entries the user does not have live yet (`existing`: the user's entries with a sample id,
    /// tombstones included: a removed sample comes back from its tombstone's version), in pushes of at most 1,000.
    public func addSampleData(existing: [UUID: StoredJournalEntry], userId: UUID, today: LocalDate, now: Date) async throws -> Int {
        var changes: [SyncChange] = []
        for entry in JournalSampleData.entries(today: today, now: now) {
            let current = existing[entry.id]
            if let current, !current.isDeleted { continue }
            changes.append(SyncChange(
                idempotencyKey: makeKey(), entity: .row, op: .upsert, id: entry.id, collection: JournalEntry.collection,
                baseVersion: current?.version, data: try SyncRules.rowData(entry)))
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
    /// A pulled row of the collection `journal` as an entry; nil for another collection. Throws when its data is
    /// not an entry.
    public init?(item: SyncItem) throws {
        guard item.entity == .row, item.collection == JournalEntry.collection, let data = item.data else { return nil }
        self.init(entry: try SyncRules.decodeRow(JournalEntry.self, data), version: item.version, deletedAt: item.deletedAt)
    }
}
