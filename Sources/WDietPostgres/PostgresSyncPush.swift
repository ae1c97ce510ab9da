import Foundation
import Logging
import PostgresNIO
import WDietCore
import WDietStore

/// One push inside its transaction (`PostgresSyncStore.push`). Two phases, so that a batch of 1,000 changes costs
/// a handful of reads and one version draw rather than a round trip or two per change: first every change is
/// decided against the rows as the push found them (`SyncRules`; a push changes each row at most once, so the
/// decisions do not depend on each other), then the versions are drawn in one `UPDATE` and the writes run in the
/// push's order, each under the next version.
struct PostgresSyncPush {
    let connection: PostgresConnection
    let logger: Logger
    let userId: UUID
    /// Whole milliseconds, as stored.
    let now: Date
    /// The time zone meals and weights are dated in: the profile's, as it stands at this point of the push.
    var timeZone: TimeZone?

    init(connection: PostgresConnection, logger: Logger, userId: UUID, now: Date) {
        self.connection = connection
        self.logger = logger
        self.userId = userId
        self.now = now
    }

    /// A write decided in the first phase, run in the second under its version.
    struct Write {
        enum Action {
            case run((Int64) async throws -> Void)
            /// Meals and weights, the bulk of a push, are written together (`PostgresSyncBatchWrites`).
            case meal(StoredMeal, isNew: Bool)
            case weight(StoredWeight, isNew: Bool)
            /// A generic row's new data (nil: its tombstone), under (collection, id).
            case row(collection: String, id: UUID, data: String?)
        }

        let index: Int
        /// Events are never pulled: their results carry no version.
        let reportsVersion: Bool
        let action: Action

        init(index: Int, reportsVersion: Bool, action: Action) {
            self.index = index
            self.reportsVersion = reportsVersion
            self.action = action
        }

        init(index: Int, reportsVersion: Bool, run: @escaping (Int64) async throws -> Void) {
            self.init(index: index, reportsVersion: reportsVersion, action: .run(run))
        }
    }

    struct RowState {
        var version: Int64
        var deletedAt: Date?
        var data: String
        var item: SyncItem
    }

    mutating func apply(_ changes: [SyncChange]) async throws -> [SyncChangeResult] {
        guard try await PostgresUserVersions.lock(userId, on: connection, logger: logger) else {
            throw StoreError.notFound("User not found")
        }
        let cutoff = PostgresInstant(now.addingTimeInterval(-SyncLimits.resultRetention))
        try await connection.query(
            "DELETE FROM sync_results WHERE user_id = \(userId) AND created_at < \(cutoff)", logger: logger)

        var results = [SyncChangeResult?](repeating: nil, count: changes.count)
        let stored = try await connection.query("""
            SELECT idempotency_key, result FROM sync_results
            WHERE user_id = \(userId) AND idempotency_key = ANY(\(changes.map(\.idempotencyKey)))
            """, logger: logger)
        var replayed: [String: SyncChangeResult] = [:]
        for try await (key, text) in stored.decode((String, String).self) {
            replayed[key] = try SyncCoding.decoder.decode(SyncChangeResult.self, from: Data(text.utf8))
        }
        var pending: [(index: Int, change: SyncChange)] = []
        for (index, change) in changes.enumerated() {
            if let result = replayed[change.idempotencyKey] { results[index] = result } else { pending.append((index, change)) }
        }

        // What the pending changes name, read at once.
        func ids(_ entity: SyncEntity) -> [UUID] { pending.filter { $0.change.entity == entity }.compactMap(\.change.id) }
        let meals = try await StoredMeal.fetch(ids: ids(.meal), on: connection, logger: logger)
        let weights = try await StoredWeight.fetch(ids: ids(.weight), on: connection, logger: logger)
        var eventOwners: [UUID: UUID] = [:]
        let owners = try await connection.query(
            "SELECT id, user_id FROM analytics_events WHERE id = ANY(\(ids(.event)))", logger: logger)
        for try await (id, owner) in owners.decode((UUID, UUID).self) { eventOwners[id] = owner }
        var rows: [String: RowState] = [:]
        let rowRows = try await connection.query("""
            SELECT \(unescaped: PostgresSyncStore.rowColumns) FROM sync_rows WHERE user_id = \(userId) AND id = ANY(\(ids(.row)))
            """, logger: logger)
        for try await row in rowRows {
            let row = row.makeRandomAccess()
            let item = try PostgresSyncStore.rowItem(row)
            rows[Self.rowKey(item.collection ?? "", item.id!)] = RowState(
                version: item.version, deletedAt: item.deletedAt, data: try row.value("data"), item: item)
        }
        let profile = try await PostgresProfileStore.profiles(connection.query(
            "SELECT \(unescaped: PostgresProfileStore.columns) FROM profiles WHERE user_id = \(userId)", logger: logger)).first
        timeZone = profile.flatMap { $0.deleted ? nil : $0.profile.profile.timeZone }

        var writes: [Write] = []
        for (index, change) in pending {
            let decided: (SyncChangeResult, Write?)
            switch change.entity {
            case .meal:
                decided = try decideOwned(change, index: index, existing: change.id.flatMap { meals[$0] }, build: change.meal.map { meal in
                    { [userId, now] zone in
                        var meal = meal
                        // Stored to the millisecond; the identical-change check compares what a read would return.
                        meal.loggedAt = PostgresInstant(meal.loggedAt).date
                        return StoredMeal(
                            meal: meal, userId: userId, localDate: LocalDate(meal.loggedAt, in: zone), version: 0,
                            createdAt: now, updatedAt: now)
                    }
                }, item: SyncItem.init, action: { .meal($0, isNew: $1) })
            case .weight:
                decided = try decideOwned(change, index: index, existing: change.id.flatMap { weights[$0] }, build: change.weight.map { entry in
                    { [userId, now] zone in
                        var entry = entry
                        entry.loggedAt = PostgresInstant(entry.loggedAt).date
                        return StoredWeight(
                            entry: entry, userId: userId, localDate: LocalDate(entry.loggedAt, in: zone), version: 0,
                            createdAt: now, updatedAt: now)
                    }
                }, item: SyncItem.init, action: { .weight($0, isNew: $1) })
            case .profile:
                decided = try decideProfile(change, index: index, existing: profile)
            case .event:
                decided = try decideEvent(change, index: index, owner: change.id.flatMap { eventOwners[$0] })
            case .row:
                decided = try decideRow(change, index: index, existing: rows[Self.rowKey(change.collection ?? "", change.id!)])
            case .tip:
                throw SyncRejection.invalidChange(index: index, key: change.idempotencyKey, message: "Tips are pulled only")
            }
            results[index] = decided.0
            if let write = decided.1 { writes.append(write) }
        }

        if !writes.isEmpty {
            var version = try await PostgresUserVersions.next(writes.count, for: userId, on: connection, logger: logger)
                - Int64(writes.count)
            var meals: (inserts: [StoredMeal], updates: [StoredMeal]) = ([], [])
            var weights: (inserts: [StoredWeight], updates: [StoredWeight]) = ([], [])
            var rows = PostgresSyncBatchWrites.RowWrites()
            for write in writes {
                version += 1
                switch write.action {
                case .run(let run):
                    try await run(version)
                case .meal(var row, let isNew):
                    row.version = version
                    if isNew { meals.inserts.append(row) } else { meals.updates.append(row) }
                case .weight(var row, let isNew):
                    row.version = version
                    if isNew { weights.inserts.append(row) } else { weights.updates.append(row) }
                case .row(let collection, let id, let data):
                    rows.append(collection: collection, id: id, data: data, version: version)
                }
                if write.reportsVersion { results[write.index]?.version = version }
            }
            try await PostgresSyncBatchWrites.writeMeals(inserts: meals.inserts, updates: meals.updates, on: connection, logger: logger)
            try await PostgresSyncBatchWrites.writeWeights(
                inserts: weights.inserts, updates: weights.updates, on: connection, logger: logger)
            try await PostgresSyncBatchWrites.writeRows(rows, userId: userId, now: PostgresInstant(now), on: connection, logger: logger)
        }

        let answered = pending.map { results[$0.index]! }
        if !answered.isEmpty {
            let texts = try answered.map { String(decoding: try SyncCoding.encoder.encode($0), as: UTF8.self) }
            try await connection.query("""
                INSERT INTO sync_results (user_id, idempotency_key, result, created_at)
                SELECT \(userId), key, result, \(PostgresInstant(now))
                FROM unnest(\(answered.map(\.idempotencyKey))::text[], \(texts)::text[]) AS t(key, result)
                """, logger: logger)
        }
        return results.map { $0! }
    }

    static func rowKey(_ collection: String, _ id: UUID) -> String { "\(collection)/\(id)" }

    func decideOwned<Row: PostgresOwnedRow>(
        _ change: SyncChange, index: Int, existing: Row?, build: ((TimeZone) -> Row)?, item: @escaping (Row) -> SyncItem,
        action: (Row, _ isNew: Bool) -> Write.Action
    ) throws -> (SyncChangeResult, Write?) {
        var existing = existing
        if let row = existing, row.userId != userId {
            // Another user's id: an upsert is refused; a delete is of an id this user does not have (ignored), and
            // neither touches nor shows that row.
            guard change.op == .delete else { throw SyncRejection.idInUse(index: index, key: change.idempotencyKey) }
            existing = nil
        }
        let current = existing.map { SyncRules.Current(version: $0.version, isDeleted: $0.deletedAt != nil) }
        func result(_ status: SyncChangeResult.Status, _ row: Row?, message: String? = nil) -> SyncChangeResult {
            SyncChangeResult(
                idempotencyKey: change.idempotencyKey, entity: change.entity, id: change.id, status: status, version: row?.version,
                server: status == .applied ? nil : row.map(item), message: message)
        }
        switch change.op {
        case .upsert:
            guard let build else { throw SyncRejection.invalidChange(index: index, key: change.idempotencyKey, message: "No values") }
            guard let timeZone else { throw SyncRejection.profileRequired(index: index, key: change.idempotencyKey) }
            var row = build(timeZone)
            var identical = false
            if let existing, existing.deletedAt == nil {
                var same = row
                same.createdAt = existing.createdAt
                same.updatedAt = existing.updatedAt
                same.version = existing.version
                identical = same == existing
            }
            switch SyncRules.upsert(baseVersion: change.baseVersion, current: current, identical: identical) {
            case .apply:
                if identical { return (result(.applied, existing), nil) }
                if let existing { row.createdAt = existing.createdAt }
                row.deletedAt = nil
                return (result(.applied, nil), Write(index: index, reportsVersion: true, action: action(row, existing == nil)))
            case .lost, .ignored:
                return (result(.lost, existing, message: SyncMessages.lostEdit(change.entity, deleted: existing?.deletedAt != nil)), nil)
            }
        case .delete:
            switch SyncRules.delete(baseVersion: change.baseVersion, current: current) {
            case .apply:
                guard var row = existing else { return (result(.ignored, nil), nil) }
                row.deletedAt = now
                row.updatedAt = now
                return (result(.applied, nil), Write(index: index, reportsVersion: true, action: action(row, false)))
            case .lost:
                return (result(.lost, existing, message: SyncMessages.lostDelete(change.entity)), nil)
            case .ignored:
                return (result(.ignored, existing, message: SyncMessages.ignoredDelete(deleted: existing != nil)), nil)
            }
        }
    }

    mutating func decideProfile(
        _ change: SyncChange, index: Int, existing: (profile: StoredProfile, id: UUID, deleted: Bool)?
    ) throws -> (SyncChangeResult, Write?) {
        let profile = change.profile!
        let live = existing.flatMap { $0.deleted ? nil : $0 }
        let identical = live?.profile.profile == profile
        if !identical, change.baseVersion != live?.profile.version {
            throw SyncRejection.profileConflict(SyncProfileConflict(
                index: index, idempotencyKey: change.idempotencyKey, baseVersion: change.baseVersion, base: change.baseProfile,
                local: profile, server: live.map { Self.profileItem($0.profile, id: $0.id) }))
        }
        timeZone = profile.timeZone
        let result = SyncChangeResult(
            idempotencyKey: change.idempotencyKey, entity: .profile, id: nil, status: .applied, version: live?.profile.version)
        if identical { return (result, nil) }
        // A restored profile is a first profile again: there is no plan in force to keep until midnight.
        let history = PlanHistory.afterSaving(
            profile, over: live?.profile.profile, history: live?.profile.planHistory ?? PlanHistory(), at: now)
        let saved = StoredProfile(
            profile: profile, planChange: history.latest, earlierPlanChanges: history.earlier, userId: userId, version: 0,
            createdAt: existing?.profile.createdAt ?? now, updatedAt: now)
        let connection = connection, logger = logger, id = existing?.id
        return (result, Write(index: index, reportsVersion: true) { version in
            var saved = saved
            saved.version = version
            try await PostgresProfileStore.write(saved, id: id, on: connection, logger: logger)
        })
    }

    static func profileItem(_ stored: StoredProfile, id: UUID) -> SyncItem {
        SyncItem(
            entity: .profile, id: id, version: stored.version, updatedAt: stored.updatedAt, profile: stored.profile,
            planChange: stored.planChange, earlierPlanChanges: stored.earlierPlanChanges)
    }

    func decideEvent(_ change: SyncChange, index: Int, owner: UUID?) throws -> (SyncChangeResult, Write?) {
        let event = change.event!
        let result = SyncChangeResult(idempotencyKey: change.idempotencyKey, entity: .event, id: event.id, status: .applied)
        if let owner {
            guard owner == userId else { throw SyncRejection.idInUse(index: index, key: change.idempotencyKey) }
            return (result, nil)
        }
        let properties = try PostgresAnalyticsStore.propertiesJSON(event)
        let connection = connection, logger = logger, userId = userId, now = PostgresInstant(now)
        return (result, Write(index: index, reportsVersion: false) { version in
            try await connection.query("""
                INSERT INTO analytics_events (id, user_id, name, properties, occurred_at, created_at, updated_at, version)
                VALUES (\(event.id), \(userId), \(event.name.rawValue), \(properties)::jsonb,
                    \(PostgresInstant(event.occurredAt)), \(now), \(now), \(version))
                """, logger: logger)
        })
    }

    func decideRow(_ change: SyncChange, index: Int, existing: RowState?) throws -> (SyncChangeResult, Write?) {
        let id = change.id!, collection = change.collection!
        let current = existing.map { SyncRules.Current(version: $0.version, isDeleted: $0.deletedAt != nil) }
        func result(_ status: SyncChangeResult.Status, message: String? = nil) -> SyncChangeResult {
            SyncChangeResult(
                idempotencyKey: change.idempotencyKey, entity: .row, id: id, collection: collection, status: status,
                version: status == .applied ? nil : existing?.version, server: status == .applied ? nil : existing?.item,
                message: message)
        }
        switch change.op {
        case .upsert:
            let data = try change.data!.canonicalText()
            let identical = existing.map { $0.deletedAt == nil && $0.data == data } ?? false
            switch SyncRules.upsert(baseVersion: change.baseVersion, current: current, identical: identical) {
            case .apply:
                if identical {
                    var applied = result(.applied)
                    applied.version = existing?.version
                    return (applied, nil)
                }
                return (result(.applied), Write(
                    index: index, reportsVersion: true, action: .row(collection: collection, id: id, data: data)))
            case .lost, .ignored:
                return (result(.lost, message: SyncMessages.lostEdit(.row, deleted: existing?.deletedAt != nil)), nil)
            }
        case .delete:
            switch SyncRules.delete(baseVersion: change.baseVersion, current: current) {
            case .apply:
                return (result(.applied), Write(index: index, reportsVersion: true, action: .row(collection: collection, id: id, data: nil)))
            case .lost:
                return (result(.lost, message: SyncMessages.lostDelete(.row)), nil)
            case .ignored:
                return (result(.ignored, message: SyncMessages.ignoredDelete(deleted: existing != nil)), nil)
            }
        }
    }
}
