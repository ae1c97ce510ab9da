import WDietCore

/// The eating window as the API shows it: "12:00" to "18:00", and where a moment falls against it.
struct EatingWindowJSON: Encodable, Sendable {
    var start: String
    var end: String
    /// inside, grace (within 2 hours of the window) or outside.
    var placementNow: EatingWindow.Placement?

    init(_ window: EatingWindow, placementNow: EatingWindow.Placement? = nil) {
        start = EatingWindow.clock(window.startMinute)
        end = EatingWindow.clock(window.endMinute)
        self.placementNow = placementNow
    }

    /// "12pm-6pm", "9:30am-3:30pm": the wording of 000's warning ("Eating outside your window (12pm-6pm)");
    /// German "12:00–18:00".
    static func warningLabel(_ window: EatingWindow) -> String { window.compactLabel }
}
