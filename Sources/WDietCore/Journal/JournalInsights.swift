import Foundation

/// The Insights tab's periods (002 `AnalyticsPeriod`: 7D / 30D / 3M / 1Y / All), each ending with today.
public enum JournalPeriod: String, CaseIterable, Codable, Hashable, Sendable {
    case week, month, threeMonths, year, allTime

    /// How many days the period spans, today included; nil for all time (from the first entry).
    public var days: Int? {
        switch self {
        case .week: 7
        case .month: 30
        case .threeMonths: 90
        case .year: 365
        case .allTime: nil
        }
    }

    public var label: String {
        switch self {
        case .week: Strings.current("journal.periodWeek")
        case .month: Strings.current("journal.periodMonth")
        case .threeMonths: Strings.current("journal.periodThreeMonths")
        case .year: Strings.current("journal.periodYear")
        case .allTime: Strings.current("journal.periodAllTime")
        }
    }
}

/// The words of a description that name foods (002's tokeniser of `InsightsService` and `WeeklySummaryService`).
public enum JournalWords {
    public static let insightsMinimumLength = 2
    public static let summaryMinimumLength = 3

    /// 002's stopwords.
    public static let stopwords: Set<String> = ["a", "the", "and", "with", "of", "in", "for", "had", "ate", "some", "my", "an"]

    /// The distinct food words of a description, in order of appearance: lowercased, cut at anything that is not a
    /// letter or digit, stopwords dropped, numbers dropped (quantities, "2 eggs" is about eggs; beyond 002), and,
    /// words shorter than `minimumLength` dropped: 3 in 002's weekly summary; 2 in insights, where 002 kept every
    /// length (a lone "I" of "I had toast" is no food).
    public static func foods(in description: String, minimumLength: Int = insightsMinimumLength) -> [String] {
        if let ascii = asciiFoods(in: description, minimumLength: minimumLength) { return ascii }
        var seen = Set<String>()
        var result: [String] = []
        for part in description.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber) }) {
            let word = String(part)
            guard word.count >= minimumLength, !stopwords.contains(word), !word.allSatisfy(\.isNumber) else { continue }
            if seen.insert(word).inserted { result.append(word) }
        }
        return result
    }

    /// `foods(in:)` for a description of ASCII characters only (most are), on its bytes: the same words as the
    /// general path (for ASCII, a letter or digit is `A`–`Z`, `a`–`z`, `0`–`9`), without building a `Character` per
    /// letter — insights tokenise every entry of a period. nil when the text has any other character.
    static func asciiFoods(in description: String, minimumLength: Int) -> [String]? {
        var description = description
        return description.withUTF8 { bytes -> [String]? in
            var seen = Set<String>()
            var result: [String] = []
            var start = -1
            var allDigits = true
            func word(_ end: Int) {
                defer { start = -1; allDigits = true }
                guard start >= 0, end - start >= minimumLength, !allDigits else { return }
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self).lowercased()
                if !stopwords.contains(text), seen.insert(text).inserted { result.append(text) }
            }
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x80 else { return nil }
                let digit = byte >= 0x30 && byte <= 0x39
                if digit || (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A {
                    if start < 0 { start = index }
                    if !digit { allDigits = false }
                } else {
                    word(index)
                }
            }
            word(bytes.count)
            return result
        }
    }
}

/// What a journal's all-time records need, without its entries: the entries of every day, and every distinct
/// description. A store reads it with two grouped queries (`JournalStore.history`), so a year's insights read the
/// year's entries and this instead of every entry ever written.
public struct JournalHistory: Hashable, Sendable {
    /// Live entries per day (days without entries absent), all time, days after today included.
    public var dayCounts: [LocalDate: Int]
    /// Every distinct `processedDescription`, all time (unique foods are counted over them).
    public var descriptions: Set<String>

    public init(dayCounts: [LocalDate: Int], descriptions: Set<String>) {
        self.dayCounts = dayCounts
        self.descriptions = descriptions
    }

    public init(entries: [JournalEntry]) {
        var counts: [LocalDate: Int] = [:]
        var descriptions = Set<String>()
        for entry in entries {
            counts[entry.date, default: 0] += 1
            descriptions.insert(entry.processedDescription)
        }
        self.init(dayCounts: counts, descriptions: descriptions)
    }

    /// The journal's streak on `today`: days in a row with an entry, ending today (or yesterday while today has none).
    public func streak(today: LocalDate) -> Streak { Streak(loggedDays: dayCounts.keys, today: today) }
}

public struct FoodItemFrequency: Hashable, Sendable, Identifiable {
    public init(name: String, count: Int) { self.name = name; self.count = count }
    public var name: String
    public var count: Int
    public var id: String { name }
}

public struct DailyCount: Hashable, Sendable, Identifiable {
    public init(date: LocalDate, count: Int) { self.date = date; self.count = count }
    public var date: LocalDate
    public var count: Int
    public var id: LocalDate { date }
}

public struct CategoryCount: Hashable, Sendable, Identifiable {
    public var category: JournalCategory
    public var count: Int
    /// Share of the period's categorised entries, 0–100.
    public var percentage: Double
    public var id: JournalCategory { category }
}

public struct InputTypeCount: Hashable, Sendable, Identifiable {
    public var inputType: JournalInputType
    public var count: Int
    /// Share of the period's entries, 0–100.
    public var percentage: Double
    public var id: JournalInputType { inputType }
}

public struct HourCount: Hashable, Sendable, Identifiable {
    public init(hour: Int, count: Int) { self.hour = hour; self.count = count }
    public var hour: Int
    public var count: Int
    public var id: Int { hour }
}

public struct WeekdayCount: Hashable, Sendable, Identifiable {
    public init(weekday: Int, count: Int) { self.weekday = weekday; self.count = count }
    /// 1 Monday … 7 Sunday (ISO 8601).
    public var weekday: Int
    public var count: Int
    public var id: Int { weekday }
}

/// Food words eaten on the same day.
public struct ItemPair: Hashable, Sendable, Identifiable {
    public init(first: String, second: String, count: Int) { self.first = first; self.second = second; self.count = count }
    /// The two words in alphabetical order.
    public var first: String
    public var second: String
    /// Days on which both were written.
    public var count: Int
    public var id: String { first + "+" + second }
}

/// Entries of the last 7 days (today included) against the 7 before.
public struct WeekComparison: Hashable, Sendable {
    public init(thisWeek: Int, lastWeek: Int) { self.thisWeek = thisWeek; self.lastWeek = lastWeek }
    public var thisWeek: Int
    public var lastWeek: Int
    public var change: Int { thisWeek - lastWeek }
    /// The change in percent of last week's count, rounded; nil when last week had none.
    public var percentChange: Int? {
        lastWeek == 0 ? nil : Int((Double(change) * 100 / Double(lastWeek)).rounded())
    }
}

/// 002's `InsightsService` over a person's entries: pure, no clock — "today" is given (the user's local day).
/// Every period ends with today; entries dated after today (a device a time zone ahead) are left out of periods.
///
/// The all-time records (streaks, best day, unique foods, the start of "all time") come from `history`; built from
/// entries alone, the history is theirs. Given a store's history, `entries` need only cover what is asked of them:
/// the periods' days, the 14 days of the week-over-week trend, the heatmap's month (`JournalStore.insights`).
public struct JournalInsights: Sendable {
    public let entries: [JournalEntry]
    public let history: JournalHistory
    public let today: LocalDate

    public init(entries: [JournalEntry], today: LocalDate) {
        self.init(entries: entries, history: JournalHistory(entries: entries), today: today)
    }

    /// Insights over `entries` (at least those of the days asked about) with all-time records from `history`.
    public init(entries: [JournalEntry], history: JournalHistory, today: LocalDate) {
        self.entries = entries
        self.history = history
        self.today = today
    }

    /// Today from an instant in the user's time zone.
    public init(entries: [JournalEntry], now: Date, timeZone: TimeZone) {
        self.init(entries: entries, today: LocalDate(now, in: timeZone))
    }

    // MARK: Periods

    /// The days a period covers: the last `days` days up to today; all time from the first entry (today alone
    /// when there is none).
    public func range(_ period: JournalPeriod) -> ClosedRange<LocalDate> {
        if let days = period.days { return today.adding(days: -(days - 1))...today }
        let first = history.dayCounts.keys.lazy.filter { $0 <= today }.min() ?? today
        return first...today
    }

    public func entries(in period: JournalPeriod) -> [JournalEntry] {
        let range = range(period)
        return entries.filter { range.contains($0.date) }
    }

    public func totalEntries(_ period: JournalPeriod) -> Int { entries(in: period).count }

    /// Days with an entry as a share of the period's days, 0–100, rounded.
    public func consistency(_ period: JournalPeriod) -> Int {
        let range = range(period)
        let logged = Set(entries(in: period).map(\.date)).count
        let days = range.lowerBound.days(until: range.upperBound) + 1
        return Int((Double(logged) * 100 / Double(days)).rounded())
    }

    // MARK: General

    /// The most written food words, each counted once per entry; most first, then alphabetically.
    public func topItems(_ period: JournalPeriod, limit: Int = 10) -> [FoodItemFrequency] {
        var counts: [String: Int] = [:]
        for entry in entries(in: period) {
            for word in JournalWords.foods(in: entry.processedDescription) { counts[word, default: 0] += 1 }
        }
        return counts.map { FoodItemFrequency(name: $0.key, count: $0.value) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.name < $1.name }
            .prefix(max(0, limit)).map { $0 }
    }

    /// Entries per day over the period, every day present (0 where nothing was written), oldest first.
    public func dailyCounts(_ period: JournalPeriod) -> [DailyCount] {
        Self.gapFilled(range(period), entries(in: period))
    }

    /// Entries per category (entries without one left out), most first, then in 002's category order; the
    /// percentages are of the categorised entries.
    public func categoryDistribution(_ period: JournalPeriod) -> [CategoryCount] {
        var counts: [JournalCategory: Int] = [:]
        for entry in entries(in: period) { if let category = entry.category { counts[category, default: 0] += 1 } }
        let total = counts.values.reduce(0, +)
        let order = JournalCategory.allCases
        return counts.map { CategoryCount(category: $0.key, count: $0.value, percentage: Double($0.value) * 100 / Double(total)) }
            .sorted { ($0.count, order.firstIndex(of: $1.category)!) > ($1.count, order.firstIndex(of: $0.category)!) }
    }

    /// Entries per input type, all three (text, photo, voice), with their share.
    public func inputTypeBreakdown(_ period: JournalPeriod) -> [InputTypeCount] {
        let inPeriod = entries(in: period)
        return JournalInputType.allCases.map { type in
            let count = inPeriod.filter { $0.inputType == type }.count
            return InputTypeCount(
                inputType: type, count: count, percentage: inPeriod.isEmpty ? 0 : Double(count) * 100 / Double(inPeriod.count))
        }
    }

    /// Entries per hour of the day, 24 bins (0–23).
    public func mealTiming(_ period: JournalPeriod) -> [HourCount] { Self.hours(entries(in: period)) }

    /// The last 7 days against the 7 before.
    public func weekOverWeekTrend() -> WeekComparison {
        var this = 0, last = 0
        for entry in entries {
            let age = entry.date.days(until: today)
            if (0...6).contains(age) { this += 1 } else if (7...13).contains(age) { last += 1 }
        }
        return WeekComparison(thisWeek: this, lastWeek: last)
    }

    /// Every day of a month with its entries (the calendar's heatmap).
    public func monthlyHeatmap(year: Int, month: Int) -> [DailyCount] {
        guard let first = LocalDate(year: year, month: month, day: 1) else { return [] }
        let last = first.adding(days: LocalDate.daysIn(month: month, year: year) - 1)
        return Self.gapFilled(first...last, entries.filter { (first...last).contains($0.date) })
    }

    /// Pairs of food words written on the same day, counted once per day; most first, then alphabetically.
    public func coOccurrence(_ period: JournalPeriod, limit: Int = 10) -> [ItemPair] {
        var words: [LocalDate: Set<String>] = [:]
        for entry in entries(in: period) { words[entry.date, default: []].formUnion(JournalWords.foods(in: entry.processedDescription)) }
        var counts: [String: (String, String, Int)] = [:]
        for day in words.values {
            let sorted = day.sorted()
            for i in sorted.indices {
                for j in sorted.indices where j > i {
                    counts[sorted[i] + "+" + sorted[j], default: (sorted[i], sorted[j], 0)].2 += 1
                }
            }
        }
        return counts.values.map { ItemPair(first: $0.0, second: $0.1, count: $0.2) }
            .sorted { ($0.count, $1.first, $1.second) > ($1.count, $0.first, $0.second) }
            .prefix(max(0, limit)).map { $0 }
    }

    // MARK: A food's timeline

    /// Entries whose description contains the term, ignoring case (search and a food's timeline), newest first.
    public func entriesMatching(_ term: String) -> [JournalEntry] {
        Self.matching(term, entries).sorted { ($0.date, $0.time) > ($1.date, $1.time) }
    }

    /// Entries with the term per day of the period, every day present.
    public func itemDailyCounts(for term: String, _ period: JournalPeriod) -> [DailyCount] {
        Self.gapFilled(range(period), Self.matching(term, entries(in: period)))
    }

    /// Entries with the term per hour, 24 bins.
    public func itemMealTiming(for term: String, _ period: JournalPeriod) -> [HourCount] {
        Self.hours(Self.matching(term, entries(in: period)))
    }

    /// Entries with the term per weekday, Monday to Sunday.
    public func itemWeekdayPattern(for term: String, _ period: JournalPeriod) -> [WeekdayCount] {
        var counts = [Int](repeating: 0, count: 7)
        for entry in Self.matching(term, entries(in: period)) { counts[entry.date.weekdayIndex] += 1 }
        return counts.enumerated().map { WeekdayCount(weekday: $0.offset + 1, count: $0.element) }
    }

    /// The last day the term was eaten (up to today).
    public func lastEaten(_ term: String) -> LocalDate? {
        Self.matching(term, entries).lazy.map(\.date).filter { $0 <= today }.max()
    }

    // MARK: Records (all time)

    /// The journal's current streak: days in a row with an entry, ending today (or yesterday while today has none).
    public var currentStreak: Streak { history.streak(today: today) }

    /// The longest run of consecutive days with an entry, ever.
    public var longestStreak: Int {
        var longest = 0, run = 0
        var previous: LocalDate?
        for day in history.dayCounts.keys.sorted() {
            run = previous.map { $0.adding(days: 1) == day } == true ? run + 1 : 1
            longest = max(longest, run)
            previous = day
        }
        return longest
    }

    /// The day with the most entries (the latest of equals); nil without entries.
    public var bestDay: DailyCount? {
        history.dayCounts.max { ($0.value, $0.key) < ($1.value, $1.key) }.map { DailyCount(date: $0.key, count: $0.value) }
    }

    /// Distinct food words ever written.
    public var uniqueFoods: Int {
        var words = Set<String>()
        for description in history.descriptions { words.formUnion(JournalWords.foods(in: description)) }
        return words.count
    }

    // MARK: Helpers

    static func matching(_ term: String, _ entries: [JournalEntry]) -> [JournalEntry] {
        let needle = term.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard !needle.isEmpty else { return [] }
        return entries.filter { $0.processedDescription.lowercased().contains(needle) }
    }

    static func gapFilled(_ range: ClosedRange<LocalDate>, _ entries: [JournalEntry]) -> [DailyCount] {
        let start = range.lowerBound
        var counts = [Int](repeating: 0, count: start.days(until: range.upperBound) + 1)
        for entry in entries where range.contains(entry.date) { counts[start.days(until: entry.date)] += 1 }
        return counts.enumerated().map { DailyCount(date: start.adding(days: $0.offset), count: $0.element) }
    }

    static func hours(_ entries: [JournalEntry]) -> [HourCount] {
        var counts = [Int](repeating: 0, count: 24)
        for entry in entries { counts[entry.time.hour] += 1 }
        return counts.enumerated().map { HourCount(hour: $0.offset, count: $0.element) }
    }
}
