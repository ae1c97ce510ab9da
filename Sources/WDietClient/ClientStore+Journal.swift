import Foundation
import GRDB
import WDietCore
import WDietStore

/// The Journal on the device, offline first (issue 18): entries are generic rows of the collection `journal`, queued
/// in the outbox and synced like every row (docs/sync.md), checked by the server's rules (`JournalEntry.validate`)
/// before they are queued.
extension ClientStore {
    /// Saves a new or edited entry (an edit sets `updatedAt` itself: `editJournalEntry`). `today` is the device's
    /// local day (an entry may be at most one day ahead of it).
    public func saveJournalEntry(_ entry: JournalEntry, today: LocalDate) throws {
        do { try entry.validate(today: today) } catch {
            throw ClientError.invalid(error.errors.sorted { $0.key < $1.key }.first.map { "\($0.key): \($0.value)" } ?? "")
        }
        try saveRow(collection: JournalEntry.collection, id: entry.id, data: try SyncRules.rowData(entry))
    }

    /// Writes a text entry: the category detected from the words and the hour (002) unless one is given.
    @discardableResult
    public func addJournalEntry(
        _ text: String, date: LocalDate, time: JournalTime, category: JournalCategory? = nil, now: Date, today: LocalDate
    ) throws -> JournalEntry {
        let entry = JournalEntry(
            date: date, time: time, inputType: .text, rawInput: text, processedDescription: text,
            category: category ?? JournalCategoryDetector.detect(hour: time.hour, description: text), createdAt: now)
        try saveJournalEntry(entry, today: today)
        return entry
    }

    /// Edits an entry: `change` applied to the device's copy, marked edited at `now` ("· edited").
    @discardableResult
    public func editJournalEntry(id: UUID, now: Date, today: LocalDate, _ change: (inout JournalEntry) -> Void) throws -> JournalEntry {
        guard var entry = try journalEntry(id: id) else { throw ClientError.notFound("journal entry") }
        change(&entry)
        entry.id = id
        entry.updatedAt = max(now, entry.createdAt)
        try saveJournalEntry(entry, today: today)
        return entry
    }

    public func deleteJournalEntry(id: UUID) throws {
        try deleteRow(collection: JournalEntry.collection, id: id)
    }

    /// The live entry with this id on the device, nil when there is none (or it was deleted).
    public func journalEntry(id: UUID) throws -> JournalEntry? {
        try row(collection: JournalEntry.collection, id: id).map { try SyncRules.decodeRow(JournalEntry.self, $0) }
    }

    /// The live entries of one day, by time, then when written (as the server orders them).
    public func journalEntries(on date: LocalDate) throws -> [JournalEntry] {
        try journalEntries().filter { $0.date == date }
    }

    /// Every live entry on the device, by day, time, then when written.
    public func journalEntries() throws -> [JournalEntry] {
        try liveRows(JournalEntry.self, collection: JournalEntry.collection).sorted {
            ($0.date, $0.time, $0.createdAt, $0.id.uuidString) < ($1.date, $1.time, $1.createdAt, $1.id.uuidString)
        }
    }
}
