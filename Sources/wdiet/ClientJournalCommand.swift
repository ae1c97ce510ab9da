import ArgumentParser
import Foundation
import WDietClient
import WDietCore

/// `wdiet client journal add|list`: the Journal (issue 18) on this device through the client library, offline first.
struct ClientJournalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal",
        abstract: "Write and read journal entries on this device (works offline; `sync` sends them).",
        subcommands: [Add.self, List.self]
    )

    /// The device's time zone for "today" and "now": the profile's, else this machine's.
    static func zone(_ store: ClientStore) throws -> TimeZone {
        try store.profile()?.timeZone ?? TimeZone.current
    }

    static func day(_ text: String?, default today: LocalDate) throws -> LocalDate {
        guard let text else { return today }
        guard let day = LocalDate(iso: text) else { throw ValidationError("--date must be a date as YYYY-MM-DD, not '\(text)'") }
        return day
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a text entry: what you ate, in your words (the category is detected unless given).")

        @OptionGroup var options: ClientStoreOptions
        @Argument(help: "What you ate, e.g. \"Two idlis and sambar\".") var text: String
        @Option(help: "The day, YYYY-MM-DD (default: today).") var date: String?
        @Option(help: "The time, HH:mm (default: now; 12:00 on another day).") var time: String?
        @Option(help: "breakfast, lunch, snack, dinner, dessert or beverage (default: detected).") var category: String?

        func run() throws {
            let store = try options.open()
            let zone = try ClientJournalCommand.zone(store)
            let now = Date()
            let today = LocalDate(now, in: zone)
            let day = try ClientJournalCommand.day(date, default: today)
            let at: JournalTime
            if let time {
                guard let parsed = JournalTime(time) else { throw ValidationError("--time must be a time as HH:mm, not '\(time)'") }
                at = parsed
            } else {
                at = day == today ? JournalTime(now, in: zone) : JournalTime(hour: 12, minute: 0)!
            }
            var chosen: JournalCategory?
            if let category {
                guard let value = JournalCategory(rawValue: category.lowercased()) else {
                    throw ValidationError("--category must be one of \(JournalCategory.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                chosen = value
            }
            do {
                let entry = try store.addJournalEntry(text, date: day, time: at, category: chosen, now: now, today: today)
                print("Added to \(entry.date.iso) at \(entry.time) (\(entry.category?.rawValue ?? "no category")). \(try ClientPending.line(store))")
            } catch let error as ClientError {
                throw CommandFailure("\(error)")
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List a day's journal entries on this device.")

        @OptionGroup var options: ClientStoreOptions
        @Option(help: "The day, YYYY-MM-DD (default: today).") var date: String?

        func run() throws {
            let store = try options.open()
            let today = LocalDate(Date(), in: try ClientJournalCommand.zone(store))
            let day = try ClientJournalCommand.day(date, default: today)
            let entries = try store.journalEntries(on: day)
            print("\(day.iso): \(entries.count == 1 ? "1 entry" : "\(entries.count) entries")")
            for entry in entries {
                var line = "  \(entry.time)  [\(entry.category?.rawValue ?? "-")] \(entry.processedDescription)"
                if entry.isEdited { line += " · edited" }
                if !entry.mediaIds.isEmpty { line += " (\(entry.mediaIds.count) \(entry.inputType == .voice ? "recording" : "photo")\(entry.mediaIds.count == 1 ? "" : "s"))" }
                print(line)
            }
        }
    }
}
