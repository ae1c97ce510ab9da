import Foundation

/// The daily 6-hour eating window (000 Step 12, 004 FR-2.3). Its start moves in 30-minute steps;
/// a meal outside it is never refused, only classified so the app can warn gently.
public struct EatingWindow: Hashable, Codable, Sendable {
    public static let durationMinutes = 6 * 60
    public static let graceMinutes = 2 * 60
    public static let stepMinutes = 30
    /// 12:00–18:00.
    public static let `default` = EatingWindow(uncheckedStartMinute: 12 * 60)

    /// Minutes after local midnight, a multiple of 30 in 0..<1440.
    public let startMinute: Int

    public init?(startMinute: Int) {
        guard (0..<1_440).contains(startMinute), startMinute % EatingWindow.stepMinutes == 0 else { return nil }
        self.startMinute = startMinute
    }

    private init(uncheckedStartMinute: Int) { startMinute = uncheckedStartMinute }

    /// Parses "HH:MM" on a 30-minute step.
    public init?(start text: String) {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let h = Int(parts[0]), let m = Int(parts[1]), (0..<24).contains(h), (0..<60).contains(m) else { return nil }
        self.init(startMinute: h * 60 + m)
    }

    /// End minute, modulo a day (a window starting at 21:00 ends at 03:00).
    public var endMinute: Int { (startMinute + EatingWindow.durationMinutes) % 1_440 }

    public enum Placement: String, Sendable, Codable {
        case inside
        /// Outside the window but within 2 hours of it, before or after.
        case grace
        case outside
    }

    /// Classifies a local time of day (minutes after midnight). The window includes its start and end minute.
    public func placement(ofMinute minute: Int) -> Placement {
        // Distance forward from the window's start, so windows crossing midnight need no special case.
        let sinceStart = (minute - startMinute + 1_440) % 1_440
        if sinceStart <= EatingWindow.durationMinutes { return .inside }
        let afterEnd = sinceStart - EatingWindow.durationMinutes
        let beforeStart = 1_440 - sinceStart
        return min(afterEnd, beforeStart) <= EatingWindow.graceMinutes ? .grace : .outside
    }

    public var label: String { "\(Self.clock(startMinute))–\(Self.clock(endMinute))" }

    /// "12pm - 6pm": how 000's banner writes the window (the dashboard, logging, Settings), in the current
    /// language's clock (German: "12:00–18:00").
    public var twelveHourLabel: String {
        Strings.current("coach.windowRange", ["start": Self.twelveHour(startMinute), "end": Self.twelveHour(endMinute)])
    }

    /// "12pm-6pm": the same without spaces, for inside a sentence ("Eating outside your window (12pm-6pm)").
    public var compactLabel: String {
        Strings.current("coach.windowRangeCompact", ["start": Self.twelveHour(startMinute), "end": Self.twelveHour(endMinute)])
    }

    /// 720 → "12:00", 570 → "09:30": the API's `eatingWindowStart`.
    public static func clock(_ minute: Int) -> String {
        let h = minute / 60, m = minute % 60
        return (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)"
    }

    /// 720 → "12pm", 750 → "12:30pm", 0 → "12am": 000's way of writing a time of the window. German (and any
    /// language but English) writes the 24-hour clock: "12:00", "12:30", "00:00".
    public static func twelveHour(_ minuteOfDay: Int) -> String {
        let minute = ((minuteOfDay % 1_440) + 1_440) % 1_440
        guard Strings.current.language == .english else { return clock(minute) }
        let h = minute / 60, m = minute % 60
        let hour = h % 12 == 0 ? 12 : h % 12
        let suffix = h < 12 ? "am" : "pm"
        return m == 0 ? "\(hour)\(suffix)" : "\(hour):\(m < 10 ? "0" : "")\(m)\(suffix)"
    }
}


extension EatingWindow {
    /// Where a meal logged at `instant` falls, for a user in `timeZone`.
    public func placement(of instant: Date, in timeZone: TimeZone) -> Placement {
        let localSeconds = Int(instant.timeIntervalSince1970.rounded(.down)) + timeZone.secondsFromGMT(for: instant)
        return placement(ofMinute: localSeconds.mod(86_400) / 60)
    }
}
