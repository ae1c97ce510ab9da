import Foundation
import Logging
import WDietCore
import WDietStore

/// Adding, changing, duplicating, deleting and restoring a journal entry: the one path the JSON API (`JournalAPI`)
/// and the web forms (`JournalPages`) take. It reads the body (`JournalBody`), fills a new entry's defaults (today,
/// now, a text entry, the category `JournalCategoryDetector` finds), applies the entry's rules
/// (`JournalEntry.validate`), saves through the `JournalStore` and records `journal_entry_added`. It throws
/// `InvalidInput` (member → message) and store errors, never HTTP: each caller says no in its own way.
struct JournalLogging: Sendable {
    let services: AppServices

    static var notFound: StoreError { StoreError.notFound(Strings.current("journalday.notFound")) }

    /// The user's local day and time now.
    func now(in timeZone: TimeZone) -> (instant: Date, today: LocalDate, time: JournalTime) {
        let now = services.now()
        return (now, LocalDate(now, in: timeZone), JournalTime(now, in: timeZone))
    }

    /// A new entry from `body`. A client-made `id` the user already has returns that entry unchanged, so a retried
    /// upload adds nothing twice. Defaults: today; now (on a past day, noon); text; the detected category.
    func add(_ body: JournalBody, userId: UUID, profile: Profile, logger: Logger) async throws -> StoredJournalEntry {
        var errors: [String: String] = [:]
        let requestedId = try APIInput.uuid(body.id)
        if let requestedId, let existing = try await services.journal.entry(userId: userId, id: requestedId) {
            guard existing.deletedAt == nil else { throw StoreError.conflict(Strings.current("journalday.notFound")) }
            return existing
        }
        let parsed = body.parsed(errors: &errors)
        let clock = now(in: profile.timeZone)
        let date = parsed.date ?? clock.today
        let time = parsed.time ?? (date == clock.today ? clock.time : JournalTime(hour: 12, minute: 0)!)
        let description = body.processedDescription.value ?? ""
        let inputType = parsed.inputType ?? .text
        // A typed entry's original input is what was typed; a photo has none of its own; a voice entry's is the
        // transcript the client sends.
        let typed = body.rawInput.value ?? ""
        let rawInput = typed.isEmpty && inputType == .text ? description : typed
        let category: JournalCategory?
        switch parsed.category ?? .detect {
        case .detect: category = JournalCategoryDetector.detect(hour: time.hour, description: description)
        case .noCategory: category = nil
        case .category(let chosen): category = chosen
        }
        let entry = JournalEntry(
            id: requestedId ?? TimeOrderedUUID.make(), date: date, time: time, inputType: inputType, rawInput: rawInput,
            processedDescription: description, category: category, mediaIds: parsed.mediaIds ?? [], createdAt: clock.instant)
        return try await save(entry, baseVersion: nil, errors: errors, today: clock.today, userId: userId, logger: logger, added: "new", knownMedia: [])
    }

    /// The user's live entry with this id; anyone else's, a deleted one or an unknown id is "not found".
    func entry(userId: UUID, id: UUID) async throws -> StoredJournalEntry {
        guard let stored = try await services.journal.entry(userId: userId, id: id), stored.deletedAt == nil else { throw Self.notFound }
        return stored
    }

    /// `existing` with the body's changes (members left out stay); saved, marked edited, only when something
    /// changed. `category: "auto"` detects it again from the (new) words and hour.
    func change(_ existing: StoredJournalEntry, with body: JournalBody, userId: UUID, profile: Profile, logger: Logger) async throws -> StoredJournalEntry {
        var errors: [String: String] = [:]
        if let id = body.id.value, WireFormat.uuid(id) != existing.id { errors["id"] = Strings.current("journalday.idInPath") }
        let parsed = body.parsed(errors: &errors)
        var entry = existing.entry
        if let date = parsed.date { entry.date = date }
        if let time = parsed.time { entry.time = time }
        if let type = parsed.inputType { entry.inputType = type }
        if let raw = body.rawInput.value { entry.rawInput = raw }
        if let description = body.processedDescription.value { entry.processedDescription = description }
        if let ids = parsed.mediaIds { entry.mediaIds = ids }
        switch parsed.category {
        case nil: break
        case .detect?: entry.category = JournalCategoryDetector.detect(hour: entry.time.hour, description: entry.processedDescription)
        case .noCategory?: entry.category = nil
        case .category(let chosen)?: entry.category = chosen
        }
        guard entry != existing.entry || !errors.isEmpty else { return existing }
        let clock = now(in: profile.timeZone)
        entry.updatedAt = max(clock.instant, entry.createdAt)
        return try await save(
            entry, baseVersion: body.baseVersion.value, errors: errors, today: clock.today, userId: userId, logger: logger, added: nil,
            knownMedia: existing.entry.mediaIds)
    }

    /// "I ate it today" (a past day's entry) and "I ate again" (today's): a copy on today at the time now, a new
    /// entry with its own id (a client-made one makes a retry add nothing twice).
    func duplicate(_ existing: StoredJournalEntry, id requestedId: UUID?, userId: UUID, profile: Profile, logger: Logger) async throws -> StoredJournalEntry {
        if let requestedId, let earlier = try await services.journal.entry(userId: userId, id: requestedId), earlier.deletedAt == nil {
            return earlier
        }
        let clock = now(in: profile.timeZone)
        let copy = existing.entry.duplicated(id: requestedId ?? TimeOrderedUUID.make(), date: clock.today, time: clock.time, now: clock.instant)
        return try await save(
            copy, baseVersion: nil, errors: [:], today: clock.today, userId: userId, logger: logger, added: "duplicate",
            knownMedia: existing.entry.mediaIds)
    }

    /// The entry becomes a tombstone that sync still hands out; `restore` brings it back.
    @discardableResult
    func delete(userId: UUID, id: UUID) async throws -> StoredJournalEntry {
        let tombstone: StoredJournalEntry?
        do {
            tombstone = try await services.journal.delete(userId: userId, id: id, baseVersion: nil)
        } catch StoreError.notFound {
            throw Self.notFound
        }
        guard let tombstone else { throw Self.notFound }
        return tombstone
    }

    /// "Undo" after a delete: the entry is back as it was, with a new version.
    func restore(userId: UUID, id: UUID) async throws -> StoredJournalEntry {
        do {
            return try await services.journal.restore(userId: userId, id: id)
        } catch StoreError.notFound {
            throw Self.notFound
        }
    }

    /// The entries of `from` through `through`, in the day's order.
    func entries(userId: UUID, from: LocalDate, through: LocalDate) async throws -> [StoredJournalEntry] {
        try await services.journal.entries(userId: userId, from: from, through: through)
    }

    /// Validates and saves; `added` ("new", "duplicate") records `journal_entry_added` for a new entry. Media ids
    /// not in `knownMedia` (the ids the entry had, or the duplicated entry's) must be the user's uploads
    /// (`MediaReferences`).
    private func save(
        _ entry: JournalEntry, baseVersion: Int64?, errors: [String: String], today: LocalDate, userId: UUID, logger: Logger, added: String?,
        knownMedia: [UUID]
    ) async throws -> StoredJournalEntry {
        var errors = errors
        do {
            try entry.validate(today: today)
        } catch {
            errors.merge(error.errors) { first, _ in first }
        }
        guard errors.isEmpty else { throw InvalidInput(errors) }
        let newMedia = entry.mediaIds.filter { !knownMedia.contains($0) }
        if !newMedia.isEmpty {
            let missing = try await MediaReferences(media: services.media).missing(newMedia, userId: userId)
            guard missing.isEmpty else { throw InvalidInput(["mediaIds": MediaReferences.message(missing)]) }
        }
        let saved: StoredJournalEntry
        do {
            saved = try await services.journal.save(entry, baseVersion: baseVersion, userId: userId, today: today)
        } catch let conflict as JournalConflict {
            throw StoreError.conflict(conflict.message)
        }
        if let added {
            services.events.record(.journalEntryAdded, [
                "input_type": entry.inputType.rawValue, "category": entry.category?.rawValue ?? "none", "origin": added,
            ], userId: userId, logger: logger)
        }
        return saved
    }
}
