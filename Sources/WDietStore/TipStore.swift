import Foundation

/// The coach's in-context tips (004 Story 2.4): each pops up once per user, and after "Got it" stays away
/// until the user taps its ℹ️. The raw values are what the store keeps and the pages name in `data-tip`,
/// so they must never be renamed.
public enum CoachTip: String, CaseIterable, Codable, Sendable {
    /// At the eating-window step of onboarding and beside the eating-window banner.
    case eatingWindow = "eating-window"
    /// The first time the MATADOR phase switches (Day 15: maintenance to diet, or back).
    case firstPhaseSwitch = "first-phase-switch"
    /// The first time a 7-day weight average appears.
    case firstWeeklyAverage = "first-weekly-average"
    /// The Learn tab's welcome.
    case learnWelcome = "learn-welcome"
}

/// Which tips each user has dismissed. Dismissals are per user and never undone by showing a tip again.
public protocol TipStore: Sendable {
    /// Records that the user dismissed the tip. Dismissing it again changes nothing (the first time is kept).
    func dismissTip(_ tip: CoachTip, userId: UUID) async throws

    /// The tips the user has dismissed, in `CoachTip.allCases` order.
    func dismissedTips(userId: UUID) async throws -> [CoachTip]
}
