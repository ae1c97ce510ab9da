/// The brand mascot's moods (000 Custom Component #7, 004): which fire the coach shows where.
public enum FireCoach: String, Codable, Sendable {
    case standard = "🔥"
    case education = "🔥🤓"
    case strong = "🔥💪"
    case gentle = "🔥😌"

    /// Milestones win over Week 1's gentleness; education pages always wear the glasses.
    public static func variant(onEducationPage: Bool = false, inOnboarding: Bool = false, streak: Streak?, cycle: MatadorCycle.Status?) -> FireCoach {
        if onEducationPage { return .education }
        if inOnboarding { return .gentle }
        if streak?.milestoneReached != nil || cycle?.completesFirstCycle == true { return .strong }
        if cycle?.isWeekOne == true { return .gentle }
        return .standard
    }
}
