import Foundation
import WDietCore
import WDietStore

/// A meal's time on its own day (issue 17 "any day"): the edit form's time field is read on the meal's local day,
/// so editing a past meal's time never moves it to another day.
enum MealDayForm {
    /// "08:05" in the user's zone: the value of an `<input type=time>`.
    static func timeText(_ instant: Date, in timeZone: TimeZone) -> String {
        let minuteOfDay = minute(of: instant, in: timeZone)
        return String(format: "%02d:%02d", minuteOfDay / 60, minuteOfDay % 60)
    }

    /// "HH:mm" (or "H:mm") as minutes after midnight; nil when it is not a time of day.
    static func minuteOfDay(_ text: String) -> Int? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, parts[0].count <= 2, parts[1].count == 2,
              let hour = Int(parts[0]), let minute = Int(parts[1]), (0..<24).contains(hour), (0..<60).contains(minute)
        else { return nil }
        return hour * 60 + minute
    }

    /// The instant of `minuteOfDay` on `day` in `timeZone`. A wall time that does not exist (skipped by a clock
    /// change) reads as the time the gap later; one that happens twice is its first.
    static func instant(minuteOfDay: Int, on day: LocalDate, in timeZone: TimeZone) -> Date {
        let start = day.startInstant(in: timeZone)
        let guess = start.addingTimeInterval(TimeInterval(minuteOfDay * 60))
        // Correct for an offset change between midnight and the wall time.
        let shift = timeZone.secondsFromGMT(for: start) - timeZone.secondsFromGMT(for: guess)
        let corrected = guess.addingTimeInterval(TimeInterval(shift))
        // A wall time the clock skipped (02:30 when clocks go 02:00 → 03:00) reads as the time an hour on (03:30).
        return minute(of: corrected, in: timeZone) == minuteOfDay ? corrected : guess
    }

    /// Minutes after local midnight of `instant` in `timeZone`.
    static func minute(of instant: Date, in timeZone: TimeZone) -> Int {
        ((timeZone.secondsFromGMT(for: instant) + Int(instant.timeIntervalSince1970.rounded(.down))) % 86_400 + 86_400) % 86_400 / 60
    }

    /// The posted `time` on the meal's day: `.absent` when the form sent none or the minute the meal has (the time
    /// stays, to the second), else the instant; `InvalidInput` under `time` when it is not a time of day.
    static func loggedAt(from form: WebForm, on day: LocalDate, in timeZone: TimeZone, current: Date? = nil) throws(InvalidInput) -> JSONField<Date> {
        let text = form.text("time")
        guard !text.isEmpty else { return .absent }
        guard let minute = minuteOfDay(text) else { throw InvalidInput(["time": Strings.current("days.timeError")]) }
        if let current, self.minute(of: current, in: timeZone) == minute { return .absent }
        return .value(instant(minuteOfDay: minute, on: day, in: timeZone))
    }
}
