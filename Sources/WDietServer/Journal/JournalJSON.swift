import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// One journal entry as the API returns it: the entry's members (docs/journal.md, 002's names) and its version
/// (the `baseVersion` of the next edit). Ids in lowercase, like every id the API writes.
struct JournalEntryJSON: ResponseEncodable, Sendable, Equatable {
    var id: String
    var date: LocalDate
    var time: JournalTime
    var inputType: JournalInputType
    var rawInput: String
    var processedDescription: String
    var category: JournalCategory?
    var mediaIds: [String]
    var createdAt: Date
    var updatedAt: Date?
    var version: Int64

    init(_ stored: StoredJournalEntry) {
        let entry = stored.entry
        id = entry.id.apiText
        date = entry.date
        time = entry.time
        inputType = entry.inputType
        rawInput = entry.rawInput
        processedDescription = entry.processedDescription
        category = entry.category
        mediaIds = entry.mediaIds.map(\.apiText)
        createdAt = entry.createdAt
        updatedAt = entry.updatedAt
        version = stored.version
    }

    enum CodingKeys: String, CodingKey {
        case id, date, time, inputType, rawInput, processedDescription, category, mediaIds, createdAt, updatedAt, version
    }

    /// `category` and `updatedAt` are written as `null` when absent, so every entry has the same members.
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(date, forKey: .date)
        try c.encode(time, forKey: .time)
        try c.encode(inputType, forKey: .inputType)
        try c.encode(rawInput, forKey: .rawInput)
        try c.encode(processedDescription, forKey: .processedDescription)
        try c.encode(category, forKey: .category)
        try c.encode(mediaIds, forKey: .mediaIds)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
        try c.encode(version, forKey: .version)
    }
}

/// `GET /api/v1/journal/entries`: the days asked for and their live entries, by date, time and creation.
struct JournalEntriesJSON: ResponseEncodable, Sendable {
    var from: LocalDate
    var to: LocalDate
    var entries: [JournalEntryJSON]
}

/// The answer to a new entry (a create or a duplicate): the entry, and when it is on today, how many entries
/// today has now and the toast 002 shows ("First entry today! 🎉", "Meal #2 today!").
struct JournalAddedJSON: ResponseEncodable, Sendable {
    var entry: JournalEntryJSON
    var todayCount: Int?
    var toast: String?
}
