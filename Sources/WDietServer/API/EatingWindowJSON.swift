import WDietCore

/// The eating window as the API shows it: "12:00" to "18:00", and where a moment falls against it.
struct EatingWindowJSON: Encodable, Sendable {
    var start: String
    var end: String
    /// inside, grace (within 2 hours of the window) or outside.
    var placementNow: EatingWindow.Placement?

    init(_ window: EatingWindow, placementNow: EatingWindow.Placement? = nil) {
        start = Self.clock(window.startMinute)
        end = Self.clock(window.endMinute)
        self.placementNow = placementNow
    }

    /// "09:30"
    static func clock(_ minute: Int) -> String {
        let h = minute / 60, m = minute % 60
        return (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)"
    }

    /// "12pm-6pm", "9:30am-3:30pm": the wording of 000's warning ("Eating outside your window (12pm-6pm)").
    static func warningLabel(_ window: EatingWindow) -> String {
        "\(twelveHour(window.startMinute))-\(twelveHour(window.endMinute))"
    }

    static func twelveHour(_ minute: Int) -> String {
        let h = minute / 60, m = minute % 60
        let suffix = h < 12 ? "am" : "pm"
        let hour = h % 12 == 0 ? 12 : h % 12
        return m == 0 ? "\(hour)\(suffix)" : "\(hour):\(m < 10 ? "0" : "")\(m)\(suffix)"
    }
}
