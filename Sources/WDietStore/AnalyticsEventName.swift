/// The core analytics events (004 Story 5.1). The raw values are what the table stores and the POC metrics
/// (004 Story 5.4) query, so they are snake_case and must never be renamed.
///
/// Story 5.1 promises 15 events but names 12; FR-9.1 adds "menu scan" and subscription events. The last three
/// cases fill the gap with what this product has: the label scan, the streak milestones of Story 4.5, and a guest
/// attaching an account (the product has no subscriptions).
public enum AnalyticsEventName: String, CaseIterable, Codable, Sendable {
    case onboardingStarted = "onboarding_started"
    case onboardingStepCompleted = "onboarding_step_completed"
    case onboardingFinished = "onboarding_finished"
    /// Properties: `source` (manual, database, labelScan), `meal_type`.
    case mealLogged = "meal_logged"
    case weightLogged = "weight_logged"
    /// Properties: `topic`.
    case whyLikeThisOpened = "why_like_this_opened"
    /// Properties: `from`, `to`.
    case cyclePhaseSwitched = "cycle_phase_switched"
    case sessionStart = "session_start"
    /// Properties: `duration_seconds`.
    case sessionEnd = "session_end"
    /// Properties: `screen_name`.
    case screenView = "screen_view"
    /// Properties: `screen_name`, `time_spent_seconds`.
    case screenExit = "screen_exit"
    /// Properties: `error_type`, `screen_name`.
    case errorLogged = "error_logged"
    case labelScanned = "label_scanned"
    /// Properties: `days` (7, 14 or 28).
    case streakMilestoneReached = "streak_milestone_reached"
    case accountLinked = "account_linked"
    /// Beyond 004: a journal entry added (issue 18). Properties: `input_type` (text, photo, voice), `category`
    /// (one of 002's six, or `none`), `origin` (`new`, `duplicate`).
    case journalEntryAdded = "journal_entry_added"
}
