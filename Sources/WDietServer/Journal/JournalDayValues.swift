import Foundation
import WDietCore
import WDietStore

/// The Journal's header links (H3's day view and the views beside it: calendar, search, insights, the weekly
/// recap), the partial `journal-header`. Each Journal page passes one as `journalNav` with its own section current.
struct JournalNav: Sendable {
    enum Section: Sendable { case day, calendar, search, insights, recap, none }

    var day = false
    var calendar = false
    var search = false
    var insights = false
    var recap = false

    init(_ current: Section) {
        switch current {
        case .day: day = true
        case .calendar: calendar = true
        case .search: search = true
        case .insights: insights = true
        case .recap: recap = true
        case .none: break
        }
    }
}

/// How the Journal writes a category on a card: 002's band colour (a CSS class), an icon and the name.
enum JournalLook {
    /// `breakfast` … `beverage`, or `none`: the card's `jcard--…` class.
    static func key(_ category: JournalCategory?) -> String { category?.rawValue ?? "none" }

    static func icon(_ category: JournalCategory?) -> String {
        switch category {
        case .breakfast: "🍳"
        case .lunch: "🥗"
        case .snack: "🍎"
        case .dinner: "🍲"
        case .dessert: "🍰"
        case .beverage: "☕"
        case nil: "🏷️"
        }
    }

    static func label(_ category: JournalCategory?) -> String {
        category?.label ?? Strings.current("journalday.noCategory")
    }

    /// "8:15 AM" / "08:15": the entry's local time as the reader's language writes a time.
    static func clock(_ time: JournalTime) -> String {
        MealFormat.clock(in: TimeZone(identifier: "UTC")!).string(from: Date(timeIntervalSince1970: TimeInterval(time.minuteOfDay * 60)))
    }

    /// 002's greeting over today's page: morning 5–11, afternoon 12–17, evening otherwise.
    static func greeting(hour: Int) -> String {
        switch hour {
        case 5..<12: Strings.current("journalday.greetingMorning")
        case 12..<18: Strings.current("journalday.greetingAfternoon")
        default: Strings.current("journalday.greetingEvening")
        }
    }
}

/// One choice of a category `<select>`.
struct JournalCategoryOption: Sendable {
    var value: String
    var label: String
    var selected: Bool

    /// The six categories in 002's order, after `first` (none, or "detect automatically").
    static func all(selected: JournalCategory?, first: (value: String, label: String), firstSelected: Bool) -> [JournalCategoryOption] {
        [JournalCategoryOption(value: first.value, label: first.label, selected: firstSelected)]
            + JournalCategory.allCases.map { JournalCategoryOption(value: $0.rawValue, label: $0.label, selected: !firstSelected && $0 == selected) }
    }
}

/// One of 002's cards: the category band (a menu to change it), the description, the time and "· edited"; opened,
/// the photo or recording, the original input and the entry's actions.
struct JournalCardView: Sendable {
    var id: String
    var description: String
    var time: String
    var categoryKey: String
    var categoryLabel: String
    var categoryIcon: String
    var categorySelectLabel: String
    var categoryOptions: [JournalCategoryOption]
    var edited: Bool
    /// The original input, when it says something the description does not.
    var rawInput: String?
    var photos: [String]
    var recordings: [String]
    var photoAlt: String
    var recordingLabel: String
    /// "Photo entry" / "Voice entry" beside the time.
    var inputMark: String?
    var inputIcon: String?
    var duplicateLabel: String
    var highlighted: Bool
    var cardLabel: String

    init(_ stored: StoredJournalEntry, isToday: Bool, highlighted: Bool) {
        let strings = Strings.current
        let entry = stored.entry
        id = entry.id.apiText
        description = entry.processedDescription
        time = JournalLook.clock(entry.time)
        categoryKey = JournalLook.key(entry.category)
        categoryLabel = JournalLook.label(entry.category)
        categoryIcon = JournalLook.icon(entry.category)
        categorySelectLabel = strings("journalday.categoryLabel", ["description": entry.processedDescription])
        categoryOptions = JournalCategoryOption.all(
            selected: entry.category, first: ("none", strings("journalday.noCategory")), firstSelected: entry.category == nil)
        edited = entry.isEdited
        let raw = entry.rawInput.trimmingCharacters(in: .whitespacesAndNewlines)
        rawInput = raw.isEmpty || raw == entry.processedDescription.trimmingCharacters(in: .whitespacesAndNewlines) ? nil : raw
        photos = entry.inputType == .photo ? entry.mediaIds.map(\.apiText) : []
        recordings = entry.inputType == .voice ? entry.mediaIds.map(\.apiText) : []
        photoAlt = strings("journalday.photoAlt", ["description": entry.processedDescription])
        recordingLabel = strings("journalday.recordingLabel", ["description": entry.processedDescription])
        switch entry.inputType {
        case .photo: inputMark = strings("journalday.inputPhotoMark"); inputIcon = "📷"
        case .voice: inputMark = strings("journalday.inputVoiceMark"); inputIcon = "🎙️"
        case .text: inputMark = nil; inputIcon = nil
        }
        duplicateLabel = strings(isToday ? "journalday.duplicateAgain" : "journalday.duplicateToday")
        self.highlighted = highlighted
        cardLabel = strings("journalday.cardLabel", ["description": entry.processedDescription, "time": time])
    }
}

/// `/journal?date=`: the day's entries as 002's cards under an editorial header, the day switcher and "Add entry".
struct JournalDayPage: Sendable {
    var chrome: PageChrome
    var journalNav = JournalNav(.day)
    var title: String
    var dayNav: DayNavView
    var isToday: Bool
    var eyebrow: String
    var heading: String
    var countText: String
    var listLabel: String
    var entries: [JournalCardView]
    var hasEntries: Bool
    var emptyTitle: String
    var emptyText: String
    var addPath: String
    /// The toast of what just happened (`?added=`, `?updated=`, `?deleted=`), with Undo for a delete.
    var notice: String?
    var deletedId: String?
    /// 002's milestone overlay, when the entry just added took the journal past 10, 25, 50, 100 or 250 entries.
    var milestone: JournalMilestoneOverlay?

    init(chrome: PageChrome, day: PageDay, entries: [StoredJournalEntry], hour: Int, highlight: UUID?) {
        let strings = Strings.current
        self.chrome = chrome
        title = strings("journalday.title")
        dayNav = DayNavView(day: day, basePath: "/journal")
        isToday = day.isToday
        eyebrow = day.isToday ? JournalLook.greeting(hour: hour) : strings("journalday.eyebrowPast")
        heading = strings.date(day.date, .long)
        countText = strings("journalday.entryCount", count: entries.count)
        listLabel = strings("journalday.listLabel", ["day": strings.date(day.date, .long)])
        self.entries = entries.map { JournalCardView($0, isToday: day.isToday, highlighted: $0.id == highlight) }
        hasEntries = !entries.isEmpty
        emptyTitle = strings(day.isToday ? "journalday.emptyTitleToday" : "journalday.emptyTitlePast")
        emptyText = strings(day.isToday ? "journalday.emptyTextToday" : "journalday.emptyTextPast")
        addPath = "/journal/new" + day.query
    }
}

/// `/journal/new` and `/journal/{id}/edit`: the entry form. Text works without script; photo and voice are
/// added by `journal-entry.js` (uploads to the media API, speech recognition, the recording).
struct JournalEntryPage: Sendable {
    var chrome: PageChrome
    var journalNav = JournalNav(.none)
    var title: String
    var isNew: Bool
    var action: String
    var backPath: String
    var dayNote: String?
    var date: String
    var time: String
    var description: String
    var rawInput: String
    var inputType: String
    var mediaIds: String
    var baseVersion: String?
    var entryId: String?
    var modes: [Mode]
    var categoryOptions: [JournalCategoryOption]
    var photos: [String]
    var recordings: [String]
    var descriptionError: String?
    var timeError: String?
    var categoryError: String?
    var otherError: String?

    struct Mode: Sendable {
        var value: String
        var label: String
        var icon: String
        var checked: Bool
    }

    /// A new entry on `day`, at the time now (today) or noon (a past day).
    init(chrome: PageChrome, day: PageDay, now: JournalTime) {
        let strings = Strings.current
        self.chrome = chrome
        title = strings("journalday.newTitle")
        isNew = true
        action = "/journal/new" + day.query
        backPath = "/journal" + day.query
        dayNote = day.isToday ? nil : strings("journalday.forDay", ["day": strings.date(day.date, .long)])
        date = day.date.iso
        time = (day.isToday ? now : JournalTime(hour: 12, minute: 0)!).description
        description = ""
        rawInput = ""
        inputType = JournalInputType.text.rawValue
        mediaIds = ""
        modes = Self.modes(checked: .text)
        categoryOptions = JournalCategoryOption.all(selected: nil, first: ("auto", strings("journalday.categoryAuto")), firstSelected: true)
        photos = []
        recordings = []
    }

    /// The form of an existing entry.
    init(chrome: PageChrome, stored: StoredJournalEntry, today: LocalDate) {
        let strings = Strings.current
        let entry = stored.entry
        self.chrome = chrome
        title = strings("journalday.editTitle")
        isNew = false
        entryId = entry.id.apiText
        action = "/journal/\(entry.id.apiText)/edit"
        backPath = "/journal" + (entry.date == today ? "" : "?date=\(entry.date.iso)")
        dayNote = entry.date == today ? nil : strings("journalday.forDay", ["day": strings.date(entry.date, .long)])
        date = entry.date.iso
        time = entry.time.description
        description = entry.processedDescription
        rawInput = entry.rawInput
        inputType = entry.inputType.rawValue
        mediaIds = entry.mediaIds.map(\.apiText).joined(separator: ",")
        baseVersion = String(stored.version)
        modes = Self.modes(checked: entry.inputType)
        categoryOptions = JournalCategoryOption.all(
            selected: entry.category, first: ("none", strings("journalday.categoryNone")), firstSelected: entry.category == nil)
        photos = entry.inputType == .photo ? entry.mediaIds.map(\.apiText) : []
        recordings = entry.inputType == .voice ? entry.mediaIds.map(\.apiText) : []
    }

    static func modes(checked: JournalInputType) -> [Mode] {
        let strings = Strings.current
        return [
            Mode(value: "text", label: strings("journalday.modeText"), icon: "✍️", checked: checked == .text),
            Mode(value: "photo", label: strings("journalday.modePhoto"), icon: "📷", checked: checked == .photo),
            Mode(value: "voice", label: strings("journalday.modeVoice"), icon: "🎙️", checked: checked == .voice),
        ]
    }

    /// What was posted, back in the form, with the messages beside their fields.
    mutating func apply(form: WebForm, errors: [String: String]) {
        description = form["processedDescription"] ?? description
        time = form["time"] ?? time
        rawInput = form["rawInput"] ?? rawInput
        mediaIds = form["mediaIds"] ?? mediaIds
        if let type = form["inputType"].flatMap(JournalInputType.init(rawValue:)) {
            inputType = type.rawValue
            modes = Self.modes(checked: type)
        }
        if let chosen = form["category"] {
            for index in categoryOptions.indices { categoryOptions[index].selected = categoryOptions[index].value == chosen }
        }
        descriptionError = errors["processedDescription"]
        timeError = errors["time"]
        categoryError = errors["category"]
        let shown: Set<String> = ["processedDescription", "time", "category"]
        otherError = errors.filter { !shown.contains($0.key) }.sorted { $0.key < $1.key }.map(\.value).first
    }
}
