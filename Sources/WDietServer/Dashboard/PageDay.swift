import Foundation
import Hummingbird
import WDietCore

/// The local day a page shows (issue 17 "any day"): `?date=YYYY-MM-DD` in the user's time zone, from a year back
/// (365 days before today) through today; today when the query has no date. The dashboard, the day's meals and
/// Log Meal read it the same way; anything else is a 400 page that says why (not a date, in the future, too far back).
struct PageDay: Sendable, Equatable {
    let date: LocalDate
    let today: LocalDate

    /// How far back a day may be shown and logged: a year.
    static let daysBack = 365

    var isToday: Bool { date == today }
    var isYesterday: Bool { date == today.adding(days: -1) }
    /// The first day that may be shown.
    var first: LocalDate { Self.first(today: today) }
    static func first(today: LocalDate) -> LocalDate { today.adding(days: -daysBack) }

    /// `?date=2026-11-25` for a past day, nothing for today (today's URLs stay as they were).
    var query: String { isToday ? "" : "?date=\(date.iso)" }
    /// `&date=…` to add to a query that has other members.
    var queryMember: String { isToday ? "" : "&date=\(date.iso)" }

    init(date: LocalDate, today: LocalDate) {
        self.date = date
        self.today = today
    }

    /// The day of the request's `date` query member.
    static func from(_ request: Request, today: LocalDate) throws -> PageDay {
        try PageDay(text: request.uri.queryParameters.get("date"), today: today)
    }

    /// The day `text` names; `today` when it is nil or empty; 400 (with the reason, in the reader's language) when
    /// it is not a date, is after today or is more than a year back.
    init(text: String?, today: LocalDate) throws(APIError) {
        guard let text, !text.isEmpty else {
            self.init(date: today, today: today)
            return
        }
        let strings = Strings.current
        guard let date = LocalDate(iso: text) else {
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            throw APIError.badRequest(strings("days.notADate", ["text": shown, "example": today.iso]))
        }
        if date > today {
            throw APIError.badRequest(strings("days.future", ["date": strings.date(date, .full)]))
        }
        if date < Self.first(today: today) {
            throw APIError.badRequest(strings("days.tooFarBack", [
                "date": strings.date(date, .full), "first": strings.date(Self.first(today: today), .full),
            ]))
        }
        self.init(date: date, today: today)
    }

    /// "Today", "Yesterday", else "Mon 23 Nov" ("Heute", "Gestern", "Mo., 23. Nov.").
    var label: String {
        if isToday { return Strings.current("days.today") }
        if isYesterday { return Strings.current("days.yesterday") }
        return date.shortLabel
    }

    /// A day's local noon: the instant a past day's dashboard is read at (noon is inside the day whatever daylight
    /// saving time does to it); now for today.
    func instant(now: Date, in timeZone: TimeZone) -> Date {
        isToday ? now : date.startInstant(in: timeZone).addingTimeInterval(12 * 3_600)
    }
}

/// The day switcher on the dashboard and the day's meals: ← the day before, the day's name over a date picker
/// (a year back through today), the day after →, and "Today" when another day is shown. Swiping the page left or
/// right does the same as the arrows (`day-nav.js`).
struct DayNavView: Sendable {
    /// "Today", "Yesterday", "Mon 23 Nov".
    var label: String
    /// The day in full for screen readers and the picker: "Wednesday, 25 November".
    var longLabel: String
    var date: String
    var min: String
    var max: String
    var isToday: Bool
    /// The page of the day before; nil on the first day that may be shown.
    var previousPath: String?
    /// The page of the day after; nil on today.
    var nextPath: String?
    var todayPath: String
    /// The page's path without a day (`/dashboard`, `/meals/today`): the picker's form posts here with `date`.
    var basePath: String
    var previousLabel: String
    var nextLabel: String

    init(day: PageDay, basePath: String) {
        let strings = Strings.current
        label = day.label
        longLabel = strings.date(day.date, .long)
        date = day.date.iso
        min = day.first.iso
        max = day.today.iso
        isToday = day.isToday
        self.basePath = basePath
        todayPath = basePath
        func path(_ date: LocalDate) -> String {
            date == day.today ? basePath : "\(basePath)?date=\(date.iso)"
        }
        let before = day.date.adding(days: -1), after = day.date.adding(days: 1)
        previousPath = before >= day.first ? path(before) : nil
        nextPath = after <= day.today ? path(after) : nil
        previousLabel = strings("days.previous")
        nextLabel = strings("days.next")
    }
}
