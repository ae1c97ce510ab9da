/// 002's `WeeklySummaryService`: the recap of one ISO week (Monday–Sunday, the user's local days) against the week
/// before, and its headline.
public struct JournalWeeklySummary: Hashable, Sendable {
    /// 002's headline kinds, in the order they are tried.
    public enum Headline: String, CaseIterable, Hashable, Sendable {
        case streak, topFood, improvement, perfect, `default`
    }

    public static let streakThreshold = 7
    public static let topFoodThreshold = 3
    public static let improvementThreshold = 3

    public var weekStart: LocalDate
    public var weekEnd: LocalDate { weekStart.adding(days: 6) }
    public var totalEntries: Int
    public var lastWeekEntries: Int
    /// Days of the week with an entry.
    public var daysLogged: Int
    /// Days of the week up to today without an entry (days still ahead are not missed).
    public var missedDays: Int
    /// The food word written in most of the week's entries (002's tokeniser: stopwords and words under 3
    /// characters dropped; equals alphabetically), and in how many.
    public var topFood: String?
    public var topFoodCount: Int
    public var categoryBreakdown: [CategoryCount]
    /// The journal's streak on the week's last day so far (today within the current week).
    public var streak: Int

    /// Entries more (or fewer) than the week before.
    public var vsLastWeek: Int { totalEntries - lastWeekEntries }

    /// The week containing `day` (its Monday to Sunday), counted up to `today`. The streak is counted over
    /// `history`'s days when given (then `entries` need only hold the two weeks), else over the entries' days.
    public init(entries: [JournalEntry], week day: LocalDate, today: LocalDate, history: JournalHistory? = nil) {
        let start = Self.monday(of: day)
        weekStart = start
        let end = start.adding(days: 6)
        let lastStart = start.adding(days: -7)
        let thisWeek = entries.filter { $0.date >= start && $0.date <= end && $0.date <= today }
        totalEntries = thisWeek.count
        lastWeekEntries = entries.filter { $0.date >= lastStart && $0.date < start }.count
        let days = Set(thisWeek.map(\.date))
        daysLogged = days.count
        let through = min(end, today)
        let elapsed = through < start ? 0 : start.days(until: through) + 1
        missedDays = elapsed - days.count
        var counts: [String: Int] = [:]
        for entry in thisWeek {
            for word in JournalWords.foods(in: entry.processedDescription, minimumLength: JournalWords.summaryMinimumLength) {
                counts[word, default: 0] += 1
            }
        }
        let top = counts.min { ($1.value, $0.key) < ($0.value, $1.key) }
        topFood = top?.key
        topFoodCount = top?.value ?? 0
        categoryBreakdown = JournalInsights(entries: thisWeek, today: through).categoryDistribution(.allTime)
        streak = history.map { Streak(loggedDays: $0.dayCounts.keys, today: through).days }
            ?? Streak(loggedDays: Set(entries.map(\.date).filter { $0 <= through }), today: through).days
    }

    /// The current week's recap.
    public init(entries: [JournalEntry], today: LocalDate, history: JournalHistory? = nil) {
        self.init(entries: entries, week: today, today: today, history: history)
    }

    /// The Monday of a day's ISO week.
    public static func monday(of day: LocalDate) -> LocalDate { day.adding(days: -day.weekdayIndex) }

    /// 002's priority: a streak over 7 days → a food eaten 3 times or more → more than 3 entries over last week →
    /// no missed day → the week's count.
    public var headlineType: Headline {
        if streak > Self.streakThreshold { return .streak }
        if topFoodCount >= Self.topFoodThreshold { return .topFood }
        if vsLastWeek > Self.improvementThreshold { return .improvement }
        if missedDays == 0 && totalEntries > 0 { return .perfect }
        return .default
    }

    public var headline: String {
        switch headlineType {
        case .streak: Strings.current("journal.headlineStreak", count: streak)
        case .topFood: Strings.current("journal.headlineTopFood", ["food": (topFood ?? "").capitalizedFirst])
        case .improvement: Strings.current("journal.headlineImprovement", count: vsLastWeek)
        case .perfect: Strings.current("journal.headlinePerfect")
        case .default: Strings.current("journal.headlineDefault", count: totalEntries)
        }
    }

    public var subheadline: String {
        totalEntries == 0 ? Strings.current("journal.subheadlineEmpty") : Strings.current("journal.subheadlineDays", count: daysLogged)
    }
}

/// 002's milestones: 10, 25, 50, 100 and 250 entries, each celebrated once.
public enum JournalMilestones {
    public static let counts = [10, 25, 50, 100, 250]

    /// The milestones a journal has passed already when it is first opened: marked as celebrated, never shown.
    public static func alreadyPassed(count: Int) -> [Int] { counts.filter { $0 <= count } }

    /// The one milestone to celebrate when the number of entries changes from `old` to `new`: the smallest crossed
    /// upwards (`old < m ≤ new`) that was not celebrated before; nil otherwise (one per change, none going down).
    public static func celebration(from old: Int, to new: Int, celebrated: Set<Int>) -> Int? {
        counts.first { old < $0 && $0 <= new && !celebrated.contains($0) }
    }

    public static func title(_ milestone: Int) -> String { Strings.current("journal.milestoneTitle", count: milestone) }

    /// The toast after saving today's entry number `count`: "First entry today! 🎉", then "Meal #N today!".
    public static func todayToast(count: Int) -> String {
        count <= 1 ? Strings.current("journal.firstEntryToday") : Strings.current("journal.mealNumberToday", ["number": String(count)])
    }
}

extension String {
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
