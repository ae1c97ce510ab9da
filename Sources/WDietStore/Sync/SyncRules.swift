import Foundation
import WDietCore

/// The rules every backend applies to a push, written once: what makes a change valid, and who wins a conflict.
public enum SyncRules {
    /// What a store does with one change to a meal, weight or generic row.
    public enum Decision: Equatable, Sendable {
        case apply
        case lost
        case ignored
    }

    /// The state of the row a change names, as the store found it (the same user's; another user's id is refused
    /// before this).
    public struct Current: Equatable, Sendable {
        public var version: Int64
        public var isDeleted: Bool

        public init(version: Int64, isDeleted: Bool) {
            self.version = version
            self.isDeleted = isDeleted
        }
    }

    /// Upsert, "cloud wins": a row the server does not have is created; a change identical to the live server row
    /// is applied without a new version (nothing to lose); otherwise the edit applies only if it was made from the
    /// row's current version (or is a create, which for an existing id is an update). A tombstone stays deleted —
    /// an offline edit never resurrects a row another device deleted — unless the upsert was made from the
    /// tombstone's own version: the client saw the delete and brings the row back (Undo).
    public static func upsert(baseVersion: Int64?, current: Current?, identical: Bool) -> Decision {
        guard let current else { return .apply }
        if current.isDeleted { return baseVersion == current.version ? .apply : .lost }
        if identical { return .apply }
        guard let baseVersion else { return .apply }
        return baseVersion == current.version ? .apply : .lost
    }

    /// Delete: an id the server does not have, or a row already deleted, is ignored; a row edited since the
    /// delete's base keeps the edit (the delete is lost, so the user hears of it, rather than the edit vanishing).
    public static func delete(baseVersion: Int64?, current: Current?) -> Decision {
        guard let current, !current.isDeleted else { return .ignored }
        guard let baseVersion else { return .apply }
        return baseVersion == current.version ? .apply : .lost
    }

    /// Checks the whole push before anything is written: its size, and each change by the protocol's rules and the
    /// normal API's (`StoreValidation`). The first bad change throws `SyncRejection.invalidChange` naming it.
    /// `now` bounds a journal entry's day (`latestLocalDay`); nil leaves only the earliest day.
    public static func validate(_ changes: [SyncChange], now: Date? = nil) throws(SyncRejection) {
        let latestDay = now.map(latestLocalDay)
        guard changes.count <= SyncLimits.maxChangesPerPush else { throw .tooManyChanges(changes.count) }
        var keys = Set<String>()
        var profileChanges = 0
        // A row changes at most once per push: the client's outbox coalesces repeated edits of a row into one, and
        // every change is then judged against the row as the push found it.
        var rows = Set<String>()
        for (index, change) in changes.enumerated() {
            func invalid(_ message: String) -> SyncRejection {
                .invalidChange(index: index, key: change.idempotencyKey, message: message)
            }
            let key = change.idempotencyKey
            guard !key.isEmpty, key.count <= SyncLimits.maxIdempotencyKeyLength else {
                throw invalid(Strings.current("sync.keyLength", ["max": String(SyncLimits.maxIdempotencyKeyLength)]))
            }
            guard keys.insert(key).inserted else { throw invalid(Strings.current("sync.keyTwice")) }
            if let base = change.baseVersion, base < 1 { throw invalid(Strings.current("sync.baseVersion")) }
            if let id = change.id, !rows.insert("\(change.entity.rawValue)/\(change.collection ?? "")/\(id)").inserted {
                throw invalid(Strings.current("sync.changedTwice", ["noun": SyncMessages.noun(change.entity)]))
            }
            do {
                switch change.entity {
                case .meal:
                    let id = try requireId(change)
                    guard change.op == .upsert else { break }
                    guard let meal = change.meal else { throw StoreError.invalid(Strings.current("sync.mealMissing")) }
                    guard meal.id == id else { throw StoreError.invalid(Strings.current("sync.mealIdDiffers")) }
                    try StoreValidation.validate(meal)
                case .weight:
                    let id = try requireId(change)
                    guard change.op == .upsert else { break }
                    guard let weight = change.weight else { throw StoreError.invalid(Strings.current("sync.weightMissing")) }
                    guard weight.id == id else { throw StoreError.invalid(Strings.current("sync.weightIdDiffers")) }
                    try StoreValidation.validate(weight)
                case .profile:
                    guard change.op == .upsert else { throw StoreError.invalid(Strings.current("sync.profileNotDeletable")) }
                    guard let profile = change.profile else { throw StoreError.invalid(Strings.current("sync.profileMissing")) }
                    profileChanges += 1
                    guard profileChanges == 1 else { throw StoreError.invalid(Strings.current("sync.oneProfileChange")) }
                    try StoreValidation.validate(profile)
                case .event:
                    let id = try requireId(change)
                    guard change.op == .upsert else { throw StoreError.invalid(Strings.current("sync.eventsNotDeletable")) }
                    guard let event = change.event else { throw StoreError.invalid(Strings.current("sync.eventMissing")) }
                    guard event.id == id else { throw StoreError.invalid(Strings.current("sync.eventIdDiffers")) }
                    try validate(event)
                case .row:
                    _ = try requireId(change)
                    try validateRowCollection(change.collection)
                    guard change.op == .upsert else { break }
                    try validateRowData(change.data)
                    try validateKnownCollection(change.collection, change.data, id: change.id, today: latestDay)
                case .tip:
                    throw StoreError.invalid(Strings.current("sync.tipsPullOnly"))
                }
            } catch let error as StoreError {
                throw invalid(error.description)
            } catch {
                throw invalid(Strings.current("sync.unreadable"))
            }
        }
    }

    /// A generic row's collection: a lowercase name such as "journal" (a push's and an import's rule).
    public static func validateRowCollection(_ collection: String?) throws(StoreError) {
        guard let collection, SyncLimits.isValidCollection(collection) else {
            throw .invalid(Strings.current("sync.rowCollection"))
        }
    }

    /// A generic row's data: a JSON object of at most `SyncLimits.maxRowDataBytes` as canonical text.
    public static func validateRowData(_ data: SyncJSON?) throws(StoreError) {
        guard let data, case .object = data else { throw .invalid(Strings.current("sync.rowData")) }
        let size: Int
        do { size = try data.canonicalText().utf8.count } catch { throw .invalid(Strings.current("sync.rowUnreadable")) }
        guard size <= SyncLimits.maxRowDataBytes else {
            throw .invalid(Strings.current("sync.rowTooLarge", ["size": String(SyncLimits.maxRowDataBytes / 1_024)]))
        }
    }

    /// The collections whose rows this version knows the shape of (issue 17): a favourite (`Favourite`) and a saved
    /// meal (`SavedMeal`) must decode as theirs, carry the row's id, and keep their rules, so that a row pushed by a
    /// client, imported or written by the API is one the Log Meal screens can use; so must a journal entry
    /// (`JournalEntry`, issue 18, `validate(today:)` with `today` when given). Other collections are free.
    public static func validateKnownCollection(
        _ collection: String?, _ data: SyncJSON?, id: UUID?, today: LocalDate? = nil
    ) throws(StoreError) {
        guard let collection, let data else { return }
        do {
            switch collection {
            case Favourite.collection:
                let favourite = try decodeRow(Favourite.self, data)
                guard id == nil || favourite.id == id else { throw StoreError.invalid(Strings.current("logging.idDiffers")) }
                try favourite.validate()
            case SavedMeal.collection:
                let saved = try decodeRow(SavedMeal.self, data)
                guard id == nil || saved.id == id else { throw StoreError.invalid(Strings.current("logging.idDiffers")) }
                try saved.validate()
            case JournalEntry.collection:
                let entry = try decodeRow(JournalEntry.self, data)
                guard id == nil || entry.id == id else { throw StoreError.invalid(Strings.current("logging.idDiffers")) }
                try entry.validate(today: today)
            case let name where name.hasPrefix("challenge"):
                // The Challenge's collections (issue 20, docs/challenge.md): typed rows whose daily and weekly ids are
                // derived from their challenge and day or week, so one day or week is one row on every device.
                guard let type = ChallengeCollections.type(of: name) else { return }
                try validateChallengeRow(type, data, id: id)
            default:
                return
            }
        } catch let error as StoreError {
            throw error
        } catch let invalid as LoggingInput.Invalid {
            let first = invalid.errors.sorted { $0.key < $1.key }.first
            throw .invalid(first.map { "\($0.key): \($0.value)" } ?? Strings.current("sync.rowUnreadable"))
        } catch let invalid as JournalEntry.Invalid {
            let first = invalid.errors.sorted { $0.key < $1.key }.first
            throw .invalid(first.map { "\($0.key): \($0.value)" } ?? Strings.current("sync.rowUnreadable"))
        } catch let invalid as ChallengeInvalid {
            throw .invalid(invalid.errors.isEmpty ? Strings.current("sync.rowUnreadable") : invalid.firstMessage)
        } catch {
            throw .invalid(Strings.current("sync.rowUnreadable"))
        }
    }

    private static func validateChallengeRow<V: ChallengeRowValue>(_ type: V.Type, _ data: SyncJSON, id: UUID?) throws {
        let value = try decodeRow(V.self, data)
        guard id == nil || value.id == id else { throw StoreError.invalid(Strings.current("logging.idDiffers")) }
        try value.validate()
    }

    /// The latest local day anywhere at `now` (UTC+14): the "today" a store without the user's time zone bounds a
    /// journal entry's day by (the entry's own rule adds one day for a device a time zone ahead).
    public static func latestLocalDay(_ now: Date) -> LocalDate {
        LocalDate(now, in: TimeZone(secondsFromGMT: 14 * 3_600)!)
    }

    /// A row's data read as a typed value (`Favourite`, `SavedMeal`) in the sync coding.
    public static func decodeRow<T: Decodable>(_ type: T.Type, _ data: SyncJSON) throws -> T {
        try SyncCoding.decoder.decode(T.self, from: SyncCoding.encoder.encode(data))
    }

    /// A typed value as a row's data.
    public static func rowData(_ value: some Encodable) throws -> SyncJSON {
        try SyncCoding.decoder.decode(SyncJSON.self, from: SyncCoding.encoder.encode(value))
    }

    /// A generic row checked by both rules, as the canonical text the stores keep (an import's rows).
    public static func validatedRowText(collection: String, data: SyncJSON) throws(StoreError) -> String {
        try validateRowCollection(collection)
        try validateRowData(data)
        try validateKnownCollection(collection, data, id: nil)
        do { return try data.canonicalText() } catch { throw .invalid(Strings.current("sync.rowUnreadable")) }
    }

    private static func requireId(_ change: SyncChange) throws(StoreError) -> UUID {
        guard let id = change.id else { throw .invalid(Strings.current("sync.idRequired", ["entity": change.entity.rawValue])) }
        return id
    }

    private static func validate(_ event: AnalyticsEvent) throws(StoreError) {
        guard StoreValidation.instantRange.contains(event.occurredAt) else { throw .invalid(StoreValidation.Message.instant) }
        guard event.properties.count <= SyncLimits.maxEventProperties else {
            throw .invalid(Strings.current("sync.eventTooManyProperties", ["max": String(SyncLimits.maxEventProperties)]))
        }
        for (name, value) in event.properties {
            guard !name.isEmpty, name.count <= SyncLimits.maxEventPropertyNameLength,
                  name.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") })
            else { throw .invalid(Strings.current("sync.eventPropertyName", ["max": String(SyncLimits.maxEventPropertyNameLength)])) }
            guard value.count <= SyncLimits.maxEventPropertyValueLength else {
                throw .invalid(Strings.current("sync.eventValueTooLong", ["max": String(SyncLimits.maxEventPropertyValueLength)]))
            }
        }
    }
}
