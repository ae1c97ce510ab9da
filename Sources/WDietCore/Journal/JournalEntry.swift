import Foundation

/// How an entry was made (002 `InputType`). 002 wrote a photo entry as `image`; that value still decodes (an
/// import of 002's export), and w-diet writes `photo`.
public enum JournalInputType: String, Codable, CaseIterable, Hashable, Sendable {
    case text, photo, voice

    public init(from decoder: Decoder) throws {
        let raw = try decoder.singleValueContainer().decode(String.self)
        if raw == "image" {
            self = .photo
        } else if let value = JournalInputType(rawValue: raw) {
            self = value
        } else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "Expected text, photo or voice"))
        }
    }

    public var label: String { Strings.current("journal.input\(rawValue.capitalized)") }
}

/// 002's six meal categories, in 002's order (`MealCategory`). Not `MealSlot`: a journal entry may be a dessert or
/// a drink, which a logged meal's slot is not.
public enum JournalCategory: String, Codable, CaseIterable, Hashable, Sendable {
    case breakfast, lunch, snack, dinner, dessert, beverage

    public var label: String { Strings.current("journal.category\(rawValue.capitalized)") }
}

/// A local time of day, minute precision: when the person ate, on the entry's local day. JSON `"HH:mm"`.
public struct JournalTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Minutes after local midnight, 0–1439.
    public let minuteOfDay: Int

    public init?(hour: Int, minute: Int) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        minuteOfDay = hour * 60 + minute
    }

    /// Parses `HH:mm` (two digits each).
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }),
              let hour = Int(parts[0]), let minute = Int(parts[1]) else { return nil }
        self.init(hour: hour, minute: minute)
    }

    /// The local time of an instant in a time zone.
    public init(_ instant: Date, in timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: instant)
        minuteOfDay = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
    }

    public var hour: Int { minuteOfDay / 60 }
    public var minute: Int { minuteOfDay % 60 }

    public var description: String {
        let h = hour, m = minute
        return (h < 10 ? "0" : "") + String(h) + ":" + (m < 10 ? "0" : "") + String(m)
    }

    public static func < (lhs: JournalTime, rhs: JournalTime) -> Bool { lhs.minuteOfDay < rhs.minuteOfDay }

    /// The instant of `time` on `date` in a time zone (a time in a DST gap moves forward with the clock).
    public static func instant(_ date: LocalDate, _ time: JournalTime, in timeZone: TimeZone) -> Date {
        date.startInstant(in: timeZone).addingTimeInterval(TimeInterval(time.minuteOfDay * 60))
    }
}

extension JournalTime: Codable {
    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let time = JournalTime(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "Expected a time as HH:mm"))
        }
        self = time
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// One entry of the Journal (seed 002's `FoodEntry`): what the person ate, in words, a photo or a recording — no
/// calories. Kept as a generic sync row of the collection `journal` (docs/sync.md); its JSON object is the row's
/// `data`, with the member names of 002's data model where 002 had one (docs/journal.md):
///
/// ```json
/// { "id": "…", "date": "2026-03-01", "time": "08:15", "inputType": "voice",
///   "rawInput": "um two idlis and sambar", "processedDescription": "Two idlis and sambar",
///   "category": "breakfast", "mediaIds": ["…"], "createdAt": "2026-03-01T07:16:02.000Z",
///   "updatedAt": null }
/// ```
public struct JournalEntry: Hashable, Codable, Sendable, Identifiable {
    public static let collection = "journal"
    /// 002's marker of sample data: every sample entry's `rawInput` starts with it.
    public static let sampleMarker = "[SAMPLE]"
    public static let maxDescriptionLength = 2_000
    public static let maxRawInputLength = 10_000
    public static let maxMediaCount = 4
    /// The earliest day an entry may be on; later than the current day plus one is refused too (a device a time
    /// zone ahead may already be on tomorrow).
    public static let earliestDate = LocalDate(year: 1900, month: 1, day: 1)!

    public var id: UUID
    /// The local day the food was eaten on (002 `date`, which 002 kept as that day's midnight).
    public var date: LocalDate
    /// The local time it was eaten at (002 kept it in `createdAt`; w-diet keeps the moment of writing apart).
    public var time: JournalTime
    public var inputType: JournalInputType
    /// What was typed, dictated (the transcript) or, for a photo, what 002 stored there (the file name): as it came.
    public var rawInput: String
    /// The description the person saved (edited from the raw input); what cards, search and insights read.
    public var processedDescription: String
    /// Auto-detected when created (`JournalCategoryDetector`), changeable; nil when the person removed it.
    public var category: JournalCategory?
    /// Ids of the entry's photo or recording in the media store, in order.
    public var mediaIds: [UUID]
    /// When the entry was written.
    public var createdAt: Date
    /// When it was last edited; nil until then ("· edited" on the card).
    public var updatedAt: Date?

    public init(
        id: UUID = TimeOrderedUUID.make(), date: LocalDate, time: JournalTime, inputType: JournalInputType,
        rawInput: String, processedDescription: String, category: JournalCategory? = nil, mediaIds: [UUID] = [],
        createdAt: Date, updatedAt: Date? = nil
    ) {
        self.id = id
        self.date = date
        self.time = time
        self.inputType = inputType
        self.rawInput = rawInput
        self.processedDescription = processedDescription
        self.category = category
        self.mediaIds = mediaIds
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey {
        case id, date, time, inputType, rawInput, processedDescription, category, mediaIds, createdAt, updatedAt
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(UUID.self, forKey: .id)
        date = try c.decode(LocalDate.self, forKey: .date)
        time = try c.decode(JournalTime.self, forKey: .time)
        inputType = try c.decode(JournalInputType.self, forKey: .inputType)
        rawInput = try c.decodeIfPresent(String.self, forKey: .rawInput) ?? ""
        processedDescription = try c.decode(String.self, forKey: .processedDescription)
        category = try c.decodeIfPresent(JournalCategory.self, forKey: .category)
        mediaIds = try c.decodeIfPresent([UUID].self, forKey: .mediaIds) ?? []
        createdAt = try c.decode(Date.self, forKey: .createdAt)
        updatedAt = try c.decodeIfPresent(Date.self, forKey: .updatedAt)
    }

    /// Writes every member, `null` for an absent category or edit (as 002's export did), so a row always has the
    /// same shape.
    public func encode(to encoder: Encoder) throws {
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
    }

    /// Edited since it was written ("· edited").
    public var isEdited: Bool { updatedAt != nil }

    /// Sample data (002: `rawInput.hasPrefix("[SAMPLE]")`), which "Remove sample data" deletes.
    public var isSample: Bool { rawInput.hasPrefix(Self.sampleMarker) }

    /// The instant the food was eaten, from the local day and time in the user's time zone.
    public func eatenAt(in timeZone: TimeZone) -> Date { JournalTime.instant(date, time, in: timeZone) }

    /// A copy for "I ate it today" / "I ate again": a new id on `date` at `time`, written at `now`, not edited.
    public func duplicated(id: UUID = TimeOrderedUUID.make(), date: LocalDate, time: JournalTime, now: Date) -> JournalEntry {
        JournalEntry(
            id: id, date: date, time: time, inputType: inputType, rawInput: rawInput,
            processedDescription: processedDescription, category: category, mediaIds: mediaIds, createdAt: now)
    }

    public enum Message {
        public static var description: String {
            Strings.current("journal.descriptionLength", ["max": Strings.current.number(JournalEntry.maxDescriptionLength)])
        }
        public static var rawInput: String {
            Strings.current("journal.rawInputLength", ["max": Strings.current.number(JournalEntry.maxRawInputLength)])
        }
        public static var media: String { Strings.current("journal.mediaCount", ["max": String(JournalEntry.maxMediaCount)]) }
        public static var mediaDuplicate: String { Strings.current("journal.mediaDuplicate") }
        public static var mediaOnText: String { Strings.current("journal.mediaOnText") }
        public static var date: String { Strings.current("journal.dateRange") }
        public static var edited: String { Strings.current("journal.editedBeforeCreated") }
    }

    /// Field → message, keyed by the JSON member names.
    public struct Invalid: Error, Hashable, Sendable {
        public var errors: [String: String]

        public init(errors: [String: String]) { self.errors = errors }
    }

    /// The rules of an entry, messages from `journal.json` keyed by member: a description of 1–2,000 characters
    /// (not only spaces); a raw input of at most 10,000; at most 4 media ids, none twice, and none on a text entry;
    /// a day from 1900 to `today` + 1 (when `today` is given); an edit not before the creation.
    public func validate(today: LocalDate? = nil) throws(Invalid) {
        var errors: [String: String] = [:]
        let trimmed = processedDescription.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty || processedDescription.count > Self.maxDescriptionLength {
            errors["processedDescription"] = Message.description
        }
        if rawInput.count > Self.maxRawInputLength { errors["rawInput"] = Message.rawInput }
        if mediaIds.count > Self.maxMediaCount {
            errors["mediaIds"] = Message.media
        } else if Set(mediaIds).count != mediaIds.count {
            errors["mediaIds"] = Message.mediaDuplicate
        } else if inputType == .text && !mediaIds.isEmpty {
            errors["mediaIds"] = Message.mediaOnText
        }
        if date < Self.earliestDate || (today.map { date > $0.adding(days: 1) } ?? false) {
            errors["date"] = Message.date
        }
        if let updatedAt, updatedAt < createdAt { errors["updatedAt"] = Message.edited }
        guard errors.isEmpty else { throw Invalid(errors: errors) }
    }
}
