import Foundation
import WDietCore
import WDietTestSupport

/// Entries for the Journal's rule tests, written as short as the cases need.
enum JournalTestEntries {
    /// Tuesday, 10 March 2026.
    static let today = Fixtures.date("2026-03-10")

    static func entry(
        _ date: String, _ time: String = "12:00", _ description: String = "idli sambar",
        category: JournalCategory? = .lunch, type: JournalInputType = .text
    ) -> JournalEntry {
        JournalEntry(
            date: Fixtures.date(date), time: JournalTime(time)!, inputType: type, rawInput: description,
            processedDescription: description, category: category, createdAt: Fixtures.utc("\(date)T12:00:00Z"))
    }

    /// An entry `daysAgo` days before `today`.
    static func ago(_ daysAgo: Int, _ description: String = "idli sambar", time: String = "12:00") -> JournalEntry {
        entry(today.adding(days: -daysAgo).iso, time, description)
    }
}
