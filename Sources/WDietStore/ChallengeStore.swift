import Foundation
import WDietCore

/// A row of one of the Challenge's collections as the server holds it: the value, its server version (the
/// `baseVersion` of the next edit) and, for a tombstone, when it was deleted.
public struct StoredChallengeRow<Value: ChallengeRowValue>: Hashable, Sendable {
    public var value: Value
    public var version: Int64
    public var deletedAt: Date?

    public init(value: Value, version: Int64, deletedAt: Date? = nil) {
        self.value = value
        self.version = version
        self.deletedAt = deletedAt
    }

    public var id: UUID { value.id }
    public var isDeleted: Bool { deletedAt != nil }

    /// A pulled or stored generic row of `Value`'s collection; nil for another collection or undecodable data (a
    /// tombstone whose data the sweep emptied among them: it reads as a missing row).
    public init?(item: SyncItem) {
        guard item.entity == .row, item.collection == Value.collection, let data = item.data,
              let value = try? SyncRules.decodeRow(Value.self, data) else { return nil }
        self.init(value: value, version: item.version, deletedAt: item.deletedAt)
    }

    /// A stored row of `Value`'s collection decoded from its text; nil for undecodable data (as `init(item:)`).
    public init?(text: SyncRowText) {
        guard let value = try? text.decode(Value.self) else { return nil }
        self.init(value: value, version: text.version, deletedAt: text.deletedAt)
    }
}

/// A save or delete that lost to another device's change (sync's "cloud wins"): `server` is the server's row now
/// (a tombstone when it was deleted), nil when there is none.
public struct ChallengeConflict: Error, Hashable, Sendable, CustomStringConvertible {
    public var server: SyncItem?
    public var message: String

    public init(server: SyncItem?, message: String) {
        self.server = server
        self.message = message
    }

    public var description: String { message }
}

/// A challenge's `ChallengeData` with the server version of each live row in it, by row id.
public struct ChallengeRead: Sendable {
    public var data: ChallengeData
    public var versions: [UUID: Int64]

    public init(data: ChallengeData, versions: [UUID: Int64]) {
        self.data = data
        self.versions = versions
    }

    /// A live row of the data as stored (value and version); nil when the data has none, or no version for it.
    public func stored<V: ChallengeRowValue>(_ value: V?) -> StoredChallengeRow<V>? {
        guard let value, let version = versions[value.id] else { return nil }
        return StoredChallengeRow(value: value, version: version)
    }
}

/// The Challenge of seed 003 (issue 20, docs/challenge.md) for one user on any backend. Every row is a generic sync
/// row of one of the Challenge's collections (`challenge`, `challenge_nutrition`, `challenge_workout`,
/// `challenge_habits`, `challenge_photo`, `challenge_weighin`, `challenge_settings`; docs/sync.md), written through
/// the backend's `SyncStore` push: versions in commit order, tombstones, cloud-wins conflicts, replays, the export,
/// the import and the account's erasure are sync's, on SQLite and PostgreSQL alike, and a row written on the web
/// reaches a phone by the next pull. A challenge has at most 52 × 7 × 3 + 52 × 2 + 2 rows, so reads decode the
/// collection's rows (no table of columns, unlike the journal's thousands of entries).
///
/// Errors: a row that breaks its rules throws `ChallengeInvalid`; a stale `baseVersion` `ChallengeConflict`; an id of
/// another user's row `StoreError.conflict`; an unknown user `StoreError.notFound`.
public struct ChallengeStore: Sendable {
    public let sync: any SyncStore
    let makeKey: @Sendable () -> String

    public init(sync: any SyncStore, makeKey: @escaping @Sendable () -> String = { "challenge-" + UUID().uuidString }) {
        self.sync = sync
        self.makeKey = makeKey
    }

    // MARK: - Reads

    /// The user's rows of a collection, tombstones when asked; only `challengeId`'s when given.
    public func rows<V: ChallengeRowValue>(_ type: V.Type, userId: UUID, challengeId: UUID? = nil, includingDeleted: Bool = false)
        async throws -> [StoredChallengeRow<V>]
    {
        try await sync.rowTexts(userId: userId, collection: V.collection, includingDeleted: includingDeleted)
            .compactMap(StoredChallengeRow<V>.init(text:))
            .filter { challengeId == nil || $0.value.challengeId == challengeId }
    }

    /// The stamp of the user's rows of every Challenge collection (`SyncStore.rowsStamp`): unchanged, no Challenge
    /// row was written since it was taken — a meal or a weight leaves it as it is.
    public func rowsStamp(userId: UUID) async throws -> SyncRowsStamp {
        try await sync.rowsStamp(userId: userId, collections: Self.collections)
    }

    static let collections = ChallengeCollections.all.map { $0.collection }

    /// One row by id, tombstone or not; nil when the user has none.
    public func row<V: ChallengeRowValue>(_ type: V.Type, userId: UUID, id: UUID) async throws -> StoredChallengeRow<V>? {
        try await sync.row(userId: userId, collection: V.collection, id: id).flatMap(StoredChallengeRow<V>.init(item:))
    }

    /// The user's challenge now: of the live challenges, the one that started last (the latest created on a tie).
    /// nil when the user has none.
    public func current(userId: UUID) async throws -> StoredChallengeRow<Challenge>? {
        try await rows(Challenge.self, userId: userId).max {
            ($0.value.startDate, $0.value.createdAt, $0.id.uuidString) < ($1.value.startDate, $1.value.createdAt, $1.id.uuidString)
        }
    }

    /// Everything of a challenge, for the rules (`ChallengeData`), with w-diet's meal totals and weights added by the
    /// caller (the store of the Challenge does not read the coach's tables).
    public func data(userId: UUID, challenge: Challenge, mealTotals: [LocalDate: DailyTotals] = [:], weights: [LocalDate: Double] = [:])
        async throws -> ChallengeData
    {
        try await read(userId: userId, challenge: challenge, mealTotals: mealTotals, weights: weights).data
    }

    /// `data` with the server version of each live row in it (by row id), so a caller that keeps the data (the
    /// server's per-user cache) can hand out a row with its `version` without reading it again.
    ///
    /// `reusing`: an earlier read of the same challenge (the cache's entry a write left behind). A row whose id and
    /// version are the same as there is taken from it instead of decoded again — every write of a row takes a new
    /// version, so the same version is the same stored text. Only the rows written since are decoded: after a meal
    /// or a sync push of one row, Home's read decodes one row or none instead of all 16 weeks'.
    public func read(userId: UUID, challenge: Challenge, mealTotals: [LocalDate: DailyTotals] = [:], weights: [LocalDate: Double] = [:],
                     reusing previous: ChallengeRead? = nil) async throws -> ChallengeRead
    {
        let id = challenge.id
        let earlier = previous?.data.challenge.id == id ? previous : nil
        async let nutrition = rows(ChallengeNutritionLog.self, userId: userId, challengeId: id,
                                   reusing: Self.rowsById(earlier?.data.nutrition.values, versions: earlier?.versions))
        async let workouts = rows(ChallengeWorkoutLog.self, userId: userId, challengeId: id,
                                  reusing: Self.rowsById(earlier?.data.workouts.values, versions: earlier?.versions))
        async let habits = rows(ChallengeHabitsLog.self, userId: userId, challengeId: id,
                                reusing: Self.rowsById(earlier?.data.habits.values, versions: earlier?.versions))
        async let photos = rows(ChallengePhoto.self, userId: userId, challengeId: id,
                                reusing: Self.rowsById(earlier?.data.photos.values, versions: earlier?.versions))
        async let weighIns = rows(ChallengeWeighIn.self, userId: userId, challengeId: id,
                                  reusing: Self.rowsById(earlier?.data.weighIns.values, versions: earlier?.versions))
        async let settings = row(ChallengeSettings.self, userId: userId, id: ChallengeIds.settings(challengeId: id))
        let settingsRow = try await settings
        let liveSettings = settingsRow.flatMap { $0.isDeleted ? nil : $0.value }
        let (nutritionRows, workoutRows, habitsRows) = (try await nutrition, try await workouts, try await habits)
        let (photoRows, weighInRows) = (try await photos, try await weighIns)
        var versions: [UUID: Int64] = [:]
        for row in nutritionRows { versions[row.id] = row.version }
        for row in workoutRows { versions[row.id] = row.version }
        for row in habitsRows { versions[row.id] = row.version }
        for row in photoRows { versions[row.id] = row.version }
        for row in weighInRows { versions[row.id] = row.version }
        if let settingsRow, !settingsRow.isDeleted { versions[settingsRow.id] = settingsRow.version }
        let data = ChallengeData(
            challenge: challenge, nutrition: nutritionRows.map(\.value), workouts: workoutRows.map(\.value),
            habits: habitsRows.map(\.value), photos: photoRows.map(\.value), weighIns: weighInRows.map(\.value),
            settings: liveSettings, mealTotals: mealTotals, weights: weights)
        return ChallengeRead(data: data, versions: versions)
    }

    /// A challenge's live rows of a collection in the order `rows` gives them, each taken from `reusing` (by id, with
    /// its version) when the stored version is the one there, else decoded from its text.
    func rows<V: ChallengeRowValue>(_ type: V.Type, userId: UUID, challengeId: UUID, reusing kept: [UUID: StoredChallengeRow<V>])
        async throws -> [StoredChallengeRow<V>]
    {
        try await sync.rowTexts(userId: userId, collection: V.collection, includingDeleted: false).compactMap { (text: SyncRowText) -> StoredChallengeRow<V>? in
            if let row = kept[text.id], row.version == text.version { return row }
            guard let row = StoredChallengeRow<V>(text: text), row.value.challengeId == challengeId else { return nil }
            return row
        }
    }

    /// An earlier read's rows of a collection by id, each with its version there.
    static func rowsById<V: ChallengeRowValue, Values: Sequence<V>>(_ values: Values?, versions: [UUID: Int64]?) -> [UUID: StoredChallengeRow<V>] {
        guard let values, let versions else { return [:] }
        var rows: [UUID: StoredChallengeRow<V>] = [:]
        for value in values {
            if let version = versions[value.id] { rows[value.id] = StoredChallengeRow(value: value, version: version) }
        }
        return rows
    }

    // MARK: - Writes

    /// Creates or updates a row as a synced change. `baseVersion` is the version the edit started from; nil is a
    /// create, which for an existing id (a derived one: the day's or week's row) is an update — so "a second one
    /// edits the first". A stale base throws `ChallengeConflict` with the server's row. A create over a tombstone
    /// the sweep emptied (the day's row deleted more than 30 days ago: `row` cannot read it, so the caller had no
    /// base to give) is pushed again from that tombstone's version, as a create over a tombstone still holding its
    /// values is by the callers that read it.
    @discardableResult
    public func save<V: ChallengeRowValue>(_ value: V, baseVersion: Int64?, userId: UUID) async throws -> StoredChallengeRow<V> {
        try value.validate()
        func change(base: Int64?) throws -> SyncChange {
            SyncChange(
                idempotencyKey: makeKey(), entity: .row, op: .upsert, id: value.id, collection: V.collection,
                baseVersion: base, data: try SyncRules.rowData(value))
        }
        var result = try await push(try change(base: baseVersion), userId: userId)
        if baseVersion == nil, result.status == .lost, let server = result.server, server.isScrubbedTombstone {
            result = try await push(try change(base: server.version), userId: userId)
        }
        guard result.status == .applied else {
            throw ChallengeConflict(server: result.server,
                                    message: Strings.current("challenge.changedElsewhere"))
        }
        return StoredChallengeRow(value: value, version: result.version ?? 0)
    }

    /// Deletes a row (a tombstone with a new version). Returns false when the user has no live row with this id; a
    /// stale `baseVersion` throws `ChallengeConflict`.
    @discardableResult
    public func delete<V: ChallengeRowValue>(_ type: V.Type, id: UUID, baseVersion: Int64?, userId: UUID) async throws -> Bool {
        try await deleteRow(type, id: id, baseVersion: baseVersion, userId: userId) != nil
    }

    /// `delete` answering with the tombstone's version (nil: no live row), for a caller that brings a kept read
    /// forward by its own write.
    public func deleteRow<V: ChallengeRowValue>(_ type: V.Type, id: UUID, baseVersion: Int64?, userId: UUID) async throws -> Int64? {
        let change = SyncChange.delete(.row, id: id, collection: V.collection, baseVersion: baseVersion, key: makeKey())
        let result = try await push(change, userId: userId)
        switch result.status {
        case .applied: return result.version ?? 0
        case .ignored: return nil
        case .lost: throw ChallengeConflict(server: result.server, message: Strings.current("challenge.changedElsewhere"))
        }
    }

    /// Deletes a challenge and every row of it (tombstones, pushed at most 1,000 at a time, the challenge last so
    /// that a failure part-way leaves it listed). Returns how many rows were deleted, the challenge included.
    @discardableResult
    public func deleteChallenge(id: UUID, userId: UUID) async throws -> Int {
        var changes: [SyncChange] = []
        for type in ChallengeCollections.all where type.collection != Challenge.collection {
            for item in try await sync.rows(userId: userId, collection: type.collection, includingDeleted: false) {
                guard let itemId = item.id, let data = item.data, case .object(let members) = data,
                      case .string(let owner)? = members["challengeId"], UUID(uuidString: owner) == id else { continue }
                changes.append(SyncChange.delete(.row, id: itemId, collection: type.collection, key: makeKey()))
            }
        }
        var deleted = 0
        var start = 0
        while start < changes.count {
            let end = min(start + SyncLimits.maxChangesPerPush, changes.count)
            deleted += try await sync.push(Array(changes[start..<end]), userId: userId).filter { $0.status == .applied }.count
            start = end
        }
        if try await delete(Challenge.self, id: id, baseVersion: nil, userId: userId) { deleted += 1 }
        return deleted
    }

    private func push(_ change: SyncChange, userId: UUID) async throws -> SyncChangeResult {
        do {
            return try await sync.push([change], userId: userId)[0]
        } catch let rejection as SyncRejection {
            // The value was checked above; what remains is an id of another user's row, or the push's own rules.
            throw StoreError.conflict(rejection.message)
        }
    }
}
