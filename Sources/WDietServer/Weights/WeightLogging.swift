import Foundation
import Logging
import WDietCore
import WDietStore

/// Logging, changing, deleting and restoring a weight: the one path that the JSON API (`WeightsAPI`, which the web app's weight picker
/// calls) and the sync push (`SyncAPI`) take. It applies `WeightBody`'s rules, saves through the store and records
/// `weight_logged`; it throws `InvalidInput` and store errors, never HTTP.
struct WeightLogging: Sendable {
    let services: AppServices

    static var notFound: StoreError { StoreError.notFound(Strings.current("weights.notFound")) }

    /// A new entry from `body` in the profile's unit, with `weight_logged` in its own transaction. A client-made
    /// `id` the user already has returns that entry unchanged.
    func log(_ body: WeightBody, id requestedId: UUID?, userId: UUID, profile: Profile, logger: Logger) async throws -> StoredWeight {
        if let requestedId, let existing = try await services.weights.weightHistory(userId: userId).first(where: { $0.id == requestedId }) {
            return existing
        }
        let entry = try body.entry(id: requestedId ?? TimeOrderedUUID.make(), unit: profile.weightUnit, now: services.now())
        return try await log(entry, userId: userId, profile: profile, logger: logger)
    }

    /// An entry already made (the profile's current weight, PRODUCT.md "current weight"): saved with `weight_logged`
    /// as the API's are.
    func log(_ entry: WeightEntry, userId: UUID, profile: Profile, logger: Logger) async throws -> StoredWeight {
        let event = services.events.weightLogged(unit: profile.weightUnit)
        let saved = try await services.weights.saveWeight(entry, userId: userId, timeZone: profile.timeZone, recording: event)
        EventRecorder.logNotRecorded(event, error: saved.eventError, logger: logger)
        return saved.row
    }

    /// The user's live entry with this id; anyone else's, a deleted one or an unknown id is "not found".
    func entry(userId: UUID, id: UUID) async throws -> StoredWeight {
        guard let entry = try await services.weights.weightHistory(userId: userId).first(where: { $0.id == id }) else {
            throw Self.notFound
        }
        return entry
    }

    /// `existing` with a new weight (`kg` or `lb`, the rules of a new entry) and, when `loggedAt` is sent, a new
    /// time; saved under a new version (sync hands the change out) only when something changed. No `weight_logged`:
    /// nothing new was logged.
    func change(_ existing: StoredWeight, with body: WeightBody, profile: Profile) async throws -> StoredWeight {
        if let text = body.id.value, WireFormat.uuid(text) != existing.id {
            throw InvalidInput(["id": Strings.current("meals.idInPath")])
        }
        let entry = try body.entry(id: existing.id, unit: profile.weightUnit, now: existing.entry.loggedAt)
        guard entry != existing.entry else { return existing }
        return try await services.weights.saveWeight(entry, userId: existing.userId, timeZone: profile.timeZone)
    }

    /// "Undo" after a delete: the entry is back, with a new version.
    func restore(userId: UUID, id: UUID) async throws -> StoredWeight {
        do {
            return try await services.weights.restoreWeight(userId: userId, id: id)
        } catch StoreError.notFound {
            throw Self.notFound
        }
    }

    /// The entry becomes a tombstone that sync still hands out.
    func delete(userId: UUID, id: UUID) async throws {
        do {
            _ = try await services.weights.deleteWeight(userId: userId, id: id)
        } catch StoreError.notFound {
            throw Self.notFound
        }
    }

    /// `weight_logged` for each entry a sync push created, as the API records it for its own; the event's id comes
    /// from the entry's, so a replayed push records it once. `unit` is the profile's, as for the API.
    func recordCreated(by changes: [SyncChange], results: [SyncChangeResult], userId: UUID, unit: WeightUnit, logger: Logger) {
        for (change, result) in zip(changes, results) where change.entity == .weight && change.op == .upsert
            && change.baseVersion == nil && result.status == .applied {
            guard let id = change.weight?.id else { continue }
            services.events.recordOnce(
                .weightLogged, ["unit": unit.rawValue], userId: userId,
                id: EventRecorder.stableId(userId: userId, key: "weight-logged:\(id.uuidString.lowercased())"), logger: logger)
        }
    }
}
