import Foundation
import WDietCore
import WDietStore

/// What a client sends to create or change a journal entry (`POST /api/v1/journal/entries`,
/// `PUT /api/v1/journal/entries/{id}`) and what the web form posts, read into one shape. Every member may be
/// absent: a create fills the defaults (today, now, text, the detected category), a change keeps what is stored.
/// Members are read as text so that a wrong value gets its own field message instead of a decoding error.
struct JournalBody: Decodable, Sendable {
    var id: JSONField<String> = .absent
    var date: JSONField<String> = .absent
    var time: JSONField<String> = .absent
    var inputType: JSONField<String> = .absent
    var rawInput: JSONField<String> = .absent
    var processedDescription: JSONField<String> = .absent
    /// A category, `"auto"` (detect it from the words and the hour) or `null` / `"none"` (no category). Absent on a
    /// create is `"auto"`.
    var category: JSONField<String> = .absent
    var mediaIds: JSONField<[String]> = .absent
    /// The version the edit started from (optional): a stale one is 409 with the server's copy.
    var baseVersion: JSONField<Int64> = .absent

    init() {}

    /// What the category member asks for: detect it, none, or that one.
    enum CategoryChoice: Equatable, Sendable {
        case detect
        case noCategory
        case category(JournalCategory)
    }

    enum Message {
        static var time: String { Strings.current("journalday.timeInvalid") }
        static var inputType: String { Strings.current("journalday.inputTypeInvalid") }
        static var category: String { Strings.current("journalday.categoryInvalid") }
        static var date: String { Strings.current("api.date") }
        static var uuid: String { Strings.current("api.uuid") }
    }

    /// Reads the members that are present; a malformed one adds its message to `errors`.
    struct Parsed {
        var date: LocalDate?
        var time: JournalTime?
        var inputType: JournalInputType?
        var category: CategoryChoice?
        var mediaIds: [UUID]?
    }

    func parsed(errors: inout [String: String]) -> Parsed {
        var result = Parsed()
        if let text = date.value?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            if let day = LocalDate(iso: text) { result.date = day } else { errors["date"] = Message.date }
        } else if case .null = date {
            errors["date"] = Message.date
        }
        if let text = time.value?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            if let parsed = Self.time(text) { result.time = parsed } else { errors["time"] = Message.time }
        } else if case .null = time {
            errors["time"] = Message.time
        }
        if let text = inputType.value?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            let raw = text == "image" ? "photo" : text  // 002's name for a photo entry
            if let type = JournalInputType(rawValue: raw) { result.inputType = type } else { errors["inputType"] = Message.inputType }
        }
        switch category {
        case .absent: break
        case .null: result.category = JournalBody.CategoryChoice.noCategory
        case .value(let text):
            let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
            switch trimmed {
            case "", "auto": result.category = .detect
            case "none": result.category = JournalBody.CategoryChoice.noCategory
            default:
                if let category = JournalCategory(rawValue: trimmed) { result.category = .category(category) } else { errors["category"] = Message.category }
            }
        }
        switch mediaIds {
        case .absent: break
        case .null: result.mediaIds = []
        case .value(let texts):
            var ids: [UUID] = []
            for text in texts {
                guard let id = WireFormat.uuid(text.trimmingCharacters(in: .whitespaces)) else {
                    errors["mediaIds"] = Message.uuid
                    break
                }
                ids.append(id)
            }
            result.mediaIds = ids
        }
        return result
    }

    /// `HH:mm`, and what an `<input type=time>` may send (`H:mm`, `HH:mm:ss`).
    static func time(_ text: String) -> JournalTime? {
        if let time = JournalTime(text) { return time }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(\.isASCII) }),
              let hour = Int(parts[0]), let minute = Int(parts[1]), parts[1].count == 2 else { return nil }
        return JournalTime(hour: hour, minute: minute)
    }
}

extension JournalBody {
    /// The web form's fields: the same members (`mediaIds` comma-separated, as a hidden field holds them).
    init(form: WebForm) {
        func member(_ name: String) -> JSONField<String> {
            guard let value = form[name] else { return .absent }
            return .value(value)
        }
        date = member("date")
        time = member("time")
        inputType = member("inputType")
        rawInput = member("rawInput")
        processedDescription = form["processedDescription"].map { .value($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? .absent
        category = member("category")
        if let ids = form["mediaIds"] {
            mediaIds = .value(ids.split(separator: ",").map { String($0) }.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
        }
        if let version = form["baseVersion"].flatMap({ Int64($0) }) { baseVersion = .value(version) }
    }
}
